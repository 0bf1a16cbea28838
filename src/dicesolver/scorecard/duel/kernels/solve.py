"""Two players: the exact equity solve (+1 win, 0 draw, -1 loss for the player to move).
"""

from typing import NamedTuple

import numpy as np

from ....core.jit import borrowed, njit
from ....core.kernels import lend_graph
from ...turn.kernels.widget import best_keeps, chunk_bounds, expect_keeps, run_widget

#
# A position is (a, b, d): the mover's used boxes a, the other player's b, and d = mover's score minus
# the other's. For one pair (a, b) all reachable d in [-maxsum[b], maxsum[a]] form one contiguous lane
# vector, lane = d + maxsum[b]. After the mover scores pts in c, the other player moves in (b, a | c)
# with difference -(d + pts): the successor's vector read backwards, so every inner loop is contiguous.
#
# ``values`` may be the whole table (base 0) or one level of it held apart (out of core): ``base`` is the
# table offset of its first cell, so that pair_offset (table offsets) indexes it as values[offset - base].


class DuelLayout(NamedTuple):
    """The two-person table's layout and the game's points, one argument for the kernels (``DuelModel.layout``)."""

    pair_offset: np.ndarray  # int64 [a * (full + 1) + b]: the table cell of pair (a, b)'s first lane
    maxsum: np.ndarray  # int64 [used set]: the most points a card with those boxes filled holds
    scores: np.ndarray  # [roll, box]: the points of each roll in each box
    full: int  # the full card's used set


class TablePart(NamedTuple):
    """Table cells from ``base`` on: the whole table (base 0), or a level held apart (out of core)."""

    values: np.ndarray
    base: int


@njit(cache=True, inline="always")
def lend_layout(layout):
    """The layout with its arrays borrowed, as ``scoring.lend`` lends the rules (``core.jit.borrowed``)."""
    return DuelLayout(borrowed(layout.pair_offset), borrowed(layout.maxsum), borrowed(layout.scores), layout.full)


@njit(cache=True, fastmath=True)
def successor_line(line, a, b, c, length, values, base, pair_offset, maxsum, full):
    """line[pts + j] = the mover's value of scoring pts in c at lane j of pair (a, b), for pts + j < length:
    minus the other player's value afterwards (``values`` holds the table from cell ``base`` on), or the
    result, +1/0/-1, when both cards are then full. The successor's lanes are read once, backwards and
    negated, so that the final rolls' rows become maxima of forward, contiguous reads."""
    mb = maxsum[b]
    na = a | (1 << c)
    if na == full and b == full:  # the game ends at difference q - mb
        for q in range(length):
            line[q] = 1.0 if q > mb else (-1.0 if q < mb else 0.0)
    else:
        top = pair_offset[b * (full + 1) + na] + maxsum[na] + mb - base
        for q in range(length):
            line[q] = -values[top - q]


@njit(cache=True)
def successor_lines(a, b, values, base, pair_offset, maxsum, scores, full, succ, open_cats):
    """successor_line into succ[c] for every open category c of the mover in pair (a, b). Returns the
    number of open categories, listed in open_cats."""
    n_rolls, n_cats = scores.shape
    lanes = maxsum[a] + maxsum[b] + 1
    n_open = 0
    for c in range(n_cats):
        if (a >> c) & 1:
            continue
        open_cats[n_open] = c
        n_open += 1
        most = 0
        for r in range(n_rolls):
            most = max(most, scores[r, c])
        successor_line(succ[c], a, b, c, lanes + most, values, base, pair_offset, maxsum, full)
    return n_open


@njit(cache=True, fastmath=True)
def final_rows(buf, roll_offset, succ, open_cats, n_open, scores, j0, width):
    """Final-roll rows of lanes j0 .. j0 + width - 1 (buffer columns 0 .. width - 1): each roll's best
    over the open categories, three categories per pass over the lanes (a third of the row's loads and
    stores of one category per pass)."""
    for r in range(scores.shape[0]):
        row = buf[roll_offset + r]
        c = open_cats[0]
        s1 = succ[c, scores[r, c] + j0:]
        for j in range(width):
            row[j] = s1[j]
        i = 1
        while i + 3 <= n_open:
            c1, c2, c3 = open_cats[i], open_cats[i + 1], open_cats[i + 2]
            s1 = succ[c1, scores[r, c1] + j0:]
            s2 = succ[c2, scores[r, c2] + j0:]
            s3 = succ[c3, scores[r, c3] + j0:]
            for j in range(width):
                row[j] = max(max(row[j], s1[j]), max(s2[j], s3[j]))
            i += 3
        while i < n_open:
            c1 = open_cats[i]
            s1 = succ[c1, scores[r, c1] + j0:]
            for j in range(width):
                row[j] = max(row[j], s1[j])
            i += 1


@njit(cache=True, nogil=True)
def duel_level(stripe, stripes, pa, pb, out, above, layout, graph, rerolls):
    """Equities of every position of the pairs (pa[i], pb[i]) (one level) into ``out``, from the level above
    (``above``; both ``TablePart``s, and both may be the whole table).

    Scratch memory is allocated once per chunk of pairs: allocating megabytes per pair made the
    operating system hand out fresh pages every time. (Running the widget a few dozen lanes at a time, to
    keep its buffer in the core's first-level cache, measured slower: the passes are bound by arithmetic.)
    Chunks stripe, stripe + stripes, ... on the calling thread, without the GIL (Python's threads run one
    stripe each)."""
    layout, graph = lend_layout(layout), lend_graph(graph)
    pair_offset, maxsum, scores, full = layout.pair_offset, layout.maxsum, layout.scores, layout.full
    keep_add, sub_ptr, sub_idx = graph.keep_add, graph.sub_ptr, graph.sub_idx
    roll_prob, roll_offset = graph.roll_prob, graph.roll_offset
    # the caller owns every array for the call: borrowed views cost no reference counts in the loops
    out_base, above_base = out.base, above.base
    pa, pb, out, above = borrowed(pa), borrowed(pb), borrowed(out.values), borrowed(above.values)
    n_keeps = keep_add.shape[0]
    n_sets = full + 1
    n_cats = scores.shape[1]
    bounds = chunk_bounds(pa.shape[0], 64)
    for ch in range(stripe, bounds.shape[0] - 1, stripes):
        most = 1
        for i in range(bounds[ch], bounds[ch + 1]):
            most = max(most, maxsum[pa[i]] + maxsum[pb[i]] + 1)
        scratch = np.empty(n_keeps * most)
        succ = np.empty((n_cats, most + scores.max() + 1))
        open_cats = np.empty(n_cats, dtype=np.int64)
        for i in range(bounds[ch], bounds[ch + 1]):
            a = pa[i]
            b = pb[i]
            lanes = maxsum[a] + maxsum[b] + 1
            buf = scratch[: n_keeps * lanes].reshape((n_keeps, lanes))
            n_open = successor_lines(a, b, above, above_base, pair_offset, maxsum, scores, full, succ, open_cats)
            final_rows(buf, roll_offset, succ, open_cats, n_open, scores, 0, lanes)
            run_widget(buf, keep_add, sub_ptr, sub_idx, roll_prob, roll_offset, lanes, rerolls)
            o = pair_offset[a * n_sets + b] - out_base
            for j in range(lanes):
                out[o + j] = buf[0, j]


@njit(cache=True)
def duel_widget(a, b, buf, values, layout, graph, rerolls_left):
    """Within-turn equities of pair (a, b): roll rows = best equity of each roll with ``rerolls_left``
    throws still to come (0: final-roll values)."""
    pair_offset, maxsum, scores, full = layout.pair_offset, layout.maxsum, layout.scores, layout.full
    keep_add, sub_ptr, sub_idx, roll_offset = graph.keep_add, graph.sub_ptr, graph.sub_idx, graph.roll_offset
    lanes = maxsum[a] + maxsum[b] + 1
    succ = np.empty((scores.shape[1], lanes + scores.max() + 1))
    open_cats = np.empty(scores.shape[1], dtype=np.int64)
    n_open = successor_lines(a, b, values, np.int64(0), pair_offset, maxsum, scores, full, succ, open_cats)
    final_rows(buf, roll_offset, succ, open_cats, n_open, scores, 0, lanes)
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
