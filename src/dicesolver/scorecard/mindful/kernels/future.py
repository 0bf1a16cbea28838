"""Future-score distribution tables (backward): every turn-start state's distribution of the points still
to come under max-expected-score play.
"""

import numpy as np

from ....core.jit import njit

#
# For every turn-start state, the distribution of the points still to come under optimal (max expected
# score) play. Stored ragged: state s holds probabilities of future points start[s] .. start[s] +
# length[s] - 1 at data[off[s]:]. A state's distribution is the mixture of its turn outcomes'
# successor distributions, each shifted by the outcome's points; tails lighter than ``tail`` are cut.
# Each kernel works on part ``stripe`` of ``n_stripes`` of the states, a contiguous range (neighbours on
# different threads would write the same cache lines). Python's threads run the parts (``core.jit.Stripes``), as
# they run ``turn_outcomes`` between these kernels: an OpenMP ``prange`` here kept its threads spinning beside it.

@njit(cache=True, nogil=True)
def future_bounds(stripe, n_stripes, n_states, outcomes, above, lo, width):
    """Support [lo, lo + width) of each state's untrimmed distribution: its turn's ``outcomes``
    (``TurnOutcomes``) lead to states of the level above, whose distributions ``above`` holds (``Futures``)."""
    out_target, out_points, out_prob, out_count = outcomes.target, outcomes.points, outcomes.prob, outcomes.n_outcomes
    tgt_start, tgt_len = above.start, above.length
    for s in range(stripe * n_states // n_stripes, (stripe + 1) * n_states // n_stripes):
        a = 1 << 40
        b = -1
        for q in range(out_count[s]):
            if out_prob[s, q] == 0.0:
                continue
            t = out_target[s, q]
            x0 = out_points[s, q] + tgt_start[t]
            x1 = x0 + tgt_len[t]
            if x0 < a:
                a = x0
            if x1 > b:
                b = x1
        lo[s] = a
        width[s] = b - a


@njit(cache=True, nogil=True)
def future_convolve(stripe, n_stripes, n_states, outcomes, above, lo, width, scratch_off, scratch, tail, keep_from,
                    keep_len):
    """Each state's distribution (float64 sums, stored float32 in scratch) and its trimmed range (as
    ``future_bounds``)."""
    out_target, out_points, out_prob, out_count = outcomes.target, outcomes.points, outcomes.prob, outcomes.n_outcomes
    src, tgt_off, tgt_start, tgt_len = above.data, above.offset, above.start, above.length
    for s in range(stripe * n_states // n_stripes, (stripe + 1) * n_states // n_stripes):
        w = width[s]
        acc = np.zeros(w)
        for q in range(out_count[s]):
            p = out_prob[s, q]
            if p == 0.0:
                continue
            t = out_target[s, q]
            o = out_points[s, q] + tgt_start[t] - lo[s]
            h = tgt_off[t]
            for x in range(tgt_len[t]):
                acc[o + x] += p * src[h + x]
        i = 0
        cut = 0.0
        while i < w - 1 and cut + acc[i] < tail:
            cut += acc[i]
            i += 1
        j = w
        cut = 0.0
        while j - 1 > i and cut + acc[j - 1] < tail:
            cut += acc[j - 1]
            j -= 1
        keep_from[s] = i
        keep_len[s] = j - i
        so = scratch_off[s]
        for x in range(i, j):
            scratch[so + x - i] = acc[x]


@njit(cache=True, nogil=True)
def copy_segments(stripe, n_stripes, src, src_off, lens, dst, dst_off):
    n = lens.shape[0]
    for s in range(stripe * n // n_stripes, (stripe + 1) * n // n_stripes):
        a = src_off[s]
        b = dst_off[s]
        for x in range(lens[s]):
            dst[b + x] = src[a + x]
