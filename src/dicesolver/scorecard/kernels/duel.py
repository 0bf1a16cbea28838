"""Two players: the exact equity solve (+1 win, 0 draw, -1 loss for the player to move).
"""

import numpy as np

from ...core.jit import njit, prange
from .widget import NEG, best_keeps, chunk_bounds, expect_keeps, run_widget

#
# A position is (a, b, d): the mover's used boxes a, the other player's b, and d = mover's score minus
# the other's. For one pair (a, b) all reachable d in [-maxsum[b], maxsum[a]] form one contiguous lane
# vector, lane = d + maxsum[b]. After the mover scores pts in c, the other player moves in (b, a | c)
# with difference -(d + pts): the successor's vector read backwards, so every inner loop is contiguous.
#
# ``values`` may be the whole table (base 0) or one level of it held apart (out of core): ``base`` is the
# table offset of its first cell, so that pair_offset (table offsets) indexes it as values[offset - base].

@njit(cache=True, inline="always")
def duel_final_stage(a, b, buf, roll_offset, values, base, pair_offset, maxsum, scores, full):
    """Final-roll values of every lane of pair (a, b): the best over open categories of minus the
    other player's equity afterwards (or the result, +1/0/-1, when both cards are then full)."""
    n_rolls, n_cats = scores.shape
    mb = maxsum[b]
    lanes = maxsum[a] + mb + 1
    n_sets = full + 1
    for r in range(n_rolls):
        row = buf[roll_offset + r]
        for j in range(lanes):
            row[j] = NEG
    for c in range(n_cats):
        if (a >> c) & 1:
            continue
        na = a | (1 << c)
        terminal = na == full and b == full
        start = 0
        if not terminal:
            start = pair_offset[b * n_sets + na] + maxsum[na] + mb - base
        for r in range(n_rolls):
            pts = scores[r, c]
            row = buf[roll_offset + r]
            if terminal:
                for j in range(lanes):
                    d = j - mb + pts
                    v = 1.0 if d > 0 else (-1.0 if d < 0 else 0.0)
                    if v > row[j]:
                        row[j] = v
            else:
                top = start - pts
                for j in range(lanes):
                    v = -values[top - j]
                    if v > row[j]:
                        row[j] = v


@njit(cache=True, parallel=True)
def duel_level(pa, pb, out, out_base, above, above_base, pair_offset, maxsum, scores, full, keep_add, sub_ptr,
               sub_idx, roll_prob, roll_offset, rerolls):
    """Equities of every position of the pairs (pa[i], pb[i]) (one level) into ``out``, from the level above
    (``above``; both may be the whole table).

    Scratch memory is allocated once per chunk of pairs: allocating megabytes per pair made the
    operating system hand out fresh pages every time."""
    n_keeps = keep_add.shape[0]
    n_sets = full + 1
    bounds = chunk_bounds(pa.shape[0], 64)
    for ch in prange(bounds.shape[0] - 1):
        most = 1
        for i in range(bounds[ch], bounds[ch + 1]):
            most = max(most, maxsum[pa[i]] + maxsum[pb[i]] + 1)
        scratch = np.empty(n_keeps * most)
        for i in range(bounds[ch], bounds[ch + 1]):
            a = pa[i]
            b = pb[i]
            lanes = maxsum[a] + maxsum[b] + 1
            buf = scratch[: n_keeps * lanes].reshape((n_keeps, lanes))
            duel_final_stage(a, b, buf, roll_offset, above, above_base, pair_offset, maxsum, scores, full)
            run_widget(buf, keep_add, sub_ptr, sub_idx, roll_prob, roll_offset, lanes, rerolls)
            o = pair_offset[a * n_sets + b] - out_base
            for j in range(lanes):
                out[o + j] = buf[0, j]


@njit(cache=True)
def duel_widget(a, b, buf, values, pair_offset, maxsum, scores, full, keep_add, sub_ptr, sub_idx, roll_offset,
                rerolls_left):
    """Within-turn equities of pair (a, b): roll rows = best equity of each roll with ``rerolls_left``
    throws still to come (0: final-roll values)."""
    lanes = maxsum[a] + maxsum[b] + 1
    duel_final_stage(a, b, buf, roll_offset, values, 0, pair_offset, maxsum, scores, full)
    for _ in range(rerolls_left):
        expect_keeps(buf, keep_add, roll_offset, lanes)
        best_keeps(buf, sub_ptr, sub_idx, lanes)


@njit(cache=True)
def count_differences(set_a, set_b, sums, sums_ptr, span):
    """For each (set_a[i], set_b[i]) (indices of distinct sets of attainable totals, each listed in
    sums[sums_ptr[k]:sums_ptr[k + 1]]): how many distinct differences x - y there are (span: the widest
    range of differences)."""
    out = np.zeros(set_a.shape[0], dtype=np.int64)
    stamp = np.full(span, -1, dtype=np.int64)
    for i in range(set_a.shape[0]):
        xs = sums[sums_ptr[set_a[i]]:sums_ptr[set_a[i] + 1]]
        ys = sums[sums_ptr[set_b[i]]:sums_ptr[set_b[i] + 1]]
        top = ys[-1]  # ys ascending: x - y + top >= 0
        count = 0
        for x in xs:
            for y in ys:
                d = x - y + top
                if stamp[d] != i:
                    stamp[d] = i
                    count += 1
        out[i] = count
    return out
