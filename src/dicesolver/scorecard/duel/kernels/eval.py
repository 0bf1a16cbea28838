"""Two players: exact evaluation of one strategy against another, and the forward pass of optimal play.
"""

from typing import NamedTuple

import numpy as np

from ....core.jit import borrowed, njit
from ....core.kernels import lend_graph
from .solve import TablePart, lend_layout, successor_line
from ...mindful.kernels.mindful import TIE_BREAK, Futures, lend_futures
from ...turn.kernels.widget import (NEG, best_keeps_along, best_keeps_arg, chunk_bounds, expect_keeps, expect_keeps_wide, opening_value,
                     spread_keeps)

#
# Strategy kinds for the mover: DUEL_OPTIMAL (Malina: decisions from the equity table, per lane),
# DUEL_TABLE (decisions that depend only on the mover's used set: keep_table[a, throws left - 1, roll]
# and cat_table[a, roll]), DUEL_RANDOM (never re-throws; each open category equally likely),
# DUEL_MINDFUL (Mindful Maximus: equities from both players' future-score distributions, per lane).

DUEL_OPTIMAL, DUEL_TABLE, DUEL_RANDOM, DUEL_MINDFUL = 0, 1, 2, 3


class EvaluatedStrategy(NamedTuple):
    """The mover's strategy in ``duel_eval_level``: its kind and the tables the kinds that read one read
    (stand-ins of the same types otherwise)."""

    kind: int
    keep_table: np.ndarray  # int64 [used set, throws left - 1, roll] (DUEL_TABLE)
    cat_table: np.ndarray  # int64 [used set, roll] (DUEL_TABLE)
    futures: Futures  # the future-score distributions (DUEL_MINDFUL) ...
    set_index: np.ndarray  # ... and each used set's first state in them


@njit(cache=True, inline="always")
def duel_successor_rows(a, b, c, pts, row, lanes, values, base, layout, choice, r, record):
    """row[j] = max(row[j], the mover's value of scoring pts in c at lane j) (recording the category
    in choice[r, j] when ``record``); the successor's vector is read backwards, contiguously. ``values``
    holds the table from cell ``base`` on (the whole table, or the level above held apart)."""
    pair_offset, maxsum, full = layout.pair_offset, layout.maxsum, layout.full
    na = a | (1 << c)
    mb = maxsum[b]
    if na == full and b == full:
        for j in range(lanes):
            d = j - mb + pts
            v = 1.0 if d > 0 else (-1.0 if d < 0 else 0.0)
            if v > row[j]:
                row[j] = v
                if record:
                    choice[r, j] = c
        return
    top = pair_offset[b * (full + 1) + na] + maxsum[na] + mb - pts - base
    for j in range(lanes):
        v = -values[top - j]
        if v > row[j]:
            row[j] = v
            if record:
                choice[r, j] = c


@njit(cache=True, inline="always")
def malina_policy(a, b, lanes, opt, choice, arg, line, opt_part, layout, graph, rolls):
    """Malina's decisions for every lane of pair (a, b), from the equity table (``opt_part``): choice[r, j] = the
    box for final roll r; arg[m][roll row, j] = the keep from that roll when m + 1 throws are left. ``line``:
    scratch of at least lanes + the most points of a box."""
    pair_offset, maxsum, scores, full = layout.pair_offset, layout.maxsum, layout.scores, layout.full
    keep_add, sub_ptr, sub_idx, roll_offset = graph.keep_add, graph.sub_ptr, graph.sub_idx, graph.roll_offset
    opt_values, opt_base = opt_part.values, opt_part.base
    n_rolls, n_cats = scores.shape
    for r in range(n_rolls):
        for j in range(lanes):
            opt[roll_offset + r, j] = NEG
    for c in range(n_cats):
        if (a >> c) & 1:
            continue
        successor_line(line, a, b, c, lanes + scores[:, c].max(), opt_values, opt_base, pair_offset, maxsum, full)
        for r in range(n_rolls):
            row = opt[roll_offset + r]
            ch = choice[r]
            own = line[scores[r, c]:]
            for j in range(lanes):
                if own[j] > row[j]:
                    row[j] = own[j]
                    ch[j] = c
    for m in range(rolls - 1):
        expect_keeps(opt, keep_add, roll_offset, lanes)
        best_keeps_arg(opt, arg[m], sub_ptr, sub_idx, lanes)


@njit(cache=True, inline="always")
def mindful_line(wbuf, zbuf, a, b, c, length, maxsum, full, futures, set_index):
    """Mindful Maximus's value of scoring in c, as a line like successor_line's: wbuf[pts + j] = P(d + pts +
    X > Y) - P(d + pts + X < Y) at lane j (difference d = j - maxsum[b]), X and Y the future scores of both
    players under Maximus, X - Y convolved once per box. Returns X's mean (for the tie-break)."""
    fut_data, fut_off, fut_start, fut_len = futures.data, futures.offset, futures.start, futures.length
    mb = maxsum[b]
    yb = set_index[b]
    ylo = 0
    ylen = 1
    if b != full:
        ylo = fut_start[yb]
        ylen = fut_len[yb]
    na = a | (1 << c)
    xa = set_index[na]
    xlo = 0
    xlen = 1
    mean_x = 0.0
    if na != full:
        xlo = fut_start[xa]
        xlen = fut_len[xa]
    # P(X - Y = z) for z = zlo .. zlo + zlen - 1, then its cumulative sums
    zlo = xlo - (ylo + ylen - 1)
    zlen = xlen + ylen - 1
    for i in range(zlen):
        zbuf[i] = 0.0
    for x in range(xlen):
        px = 1.0 if na == full else fut_data[fut_off[xa] + x]
        mean_x += px * (xlo + x)
        for y in range(ylen):
            py = 1.0 if b == full else fut_data[fut_off[yb] + y]
            zbuf[x - y + ylen - 1] += px * py
    for i in range(1, zlen):
        zbuf[i] += zbuf[i - 1]
    for i in range(length):
        e = i - mb
        # P(Z <= -e) and P(Z <= -e - 1)
        k = -e - zlo
        le = 0.0 if k < 0 else (1.0 if k >= zlen else zbuf[k])
        k -= 1
        lt = 0.0 if k < 0 else (1.0 if k >= zlen else zbuf[k])
        wbuf[i] = (1.0 - le) - lt
    return mean_x


@njit(cache=True, nogil=True)
def duel_eval_level(stripe, stripes, pa, pb, ev_self, ev_other, opt, layout, graph, rolls, strategy):
    """ev_self of pairs (pa[i], pb[i]): the mover's expected result playing ``strategy`` (an
    ``EvaluatedStrategy``) when the other player's values (as mover) are ev_other; opt: the equity table.
    Each is a ``TablePart``: the whole table, or out of core ev_self this level, ev_other and opt the level
    above.

    Malina and Mindful Maximus decide by their own values (float64, in ``pol``); the evaluated values
    (float32, in ``buf``) travel with each decision: one pass over the lanes per box and per keep stage,
    with no record of the decisions. Chunks stripe, stripe + stripes, ... on the calling thread, without the
    GIL (Python's threads run one stripe each)."""
    bounds = chunk_bounds(pa.shape[0], 64)
    for ch in range(stripe, bounds.shape[0] - 1, stripes):
        # a call per chunk: compiled once, for every caller
        eval_chunk(np.int64(ch), bounds, pa, pb, ev_self, ev_other, opt, layout, graph, rolls, strategy)


@njit(cache=True)
def eval_chunk(ch, bounds, pa, pb, ev_self, ev_other, opt, layout, graph, rolls, strategy):
    """Chunk ch of ``duel_eval_level``."""
    layout, graph, futures = lend_layout(layout), lend_graph(graph), lend_futures(strategy.futures)
    pair_offset, maxsum, scores, full = layout.pair_offset, layout.maxsum, layout.scores, layout.full
    keep_add, sub_ptr, sub_idx = graph.keep_add, graph.sub_ptr, graph.sub_idx
    roll_prob, roll_offset = graph.roll_prob, graph.roll_offset
    kind, fut_len = strategy.kind, futures.length
    self_base, other_base, opt_base = ev_self.base, ev_other.base, opt.base
    # borrowed: the caller owns them for the call (counted, every thread adds to their shared counts)
    pa, pb, ev_self, ev_other = borrowed(pa), borrowed(pb), borrowed(ev_self.values), borrowed(ev_other.values)
    opt_values = borrowed(opt.values)
    keep_table, cat_table = borrowed(strategy.keep_table), borrowed(strategy.cat_table)
    set_index = borrowed(strategy.set_index)
    n_keeps = keep_add.shape[0]
    n_rolls, n_cats = scores.shape
    n_sets = full + 1
    decides = kind == DUEL_OPTIMAL or kind == DUEL_MINDFUL
    most = 1
    for i in range(bounds[ch], bounds[ch + 1]):
        most = max(most, maxsum[pa[i]] + maxsum[pb[i]] + 1)
    # float32 values: the table itself is float32, and float32 doubles the SIMD width
    s_buf = np.empty(n_keeps * most, dtype=np.float32)
    s_pol = np.empty(n_keeps * most if decides else 1)
    tops = np.empty(n_cats, dtype=np.int64)
    zbuf = np.empty(2 * (fut_len.max() if kind == DUEL_MINDFUL else 1) + 1)
    own = np.empty(most + scores.max() + 2)  # the deciding player's line of a box
    seen = np.empty(most + scores.max() + 2, dtype=np.float32)  # the evaluated line of the same box
    dummy = np.empty((1, 1), dtype=np.int64)
    for i in range(bounds[ch], bounds[ch + 1]):
        a = pa[i]
        b = pb[i]
        mb = maxsum[b]
        lanes = maxsum[a] + mb + 1
        buf = s_buf[: n_keeps * lanes].reshape((n_keeps, lanes))
        if decides:
            pol = s_pol[: n_keeps * lanes].reshape((n_keeps, lanes))
            for r in range(n_rolls):
                for j in range(lanes):
                    pol[roll_offset + r, j] = NEG
            for c in range(n_cats):
                if (a >> c) & 1:
                    continue
                length = lanes + scores[:, c].max()
                successor_line(seen, a, b, c, length, ev_other, other_base, pair_offset, maxsum, full)
                mean_x = 0.0
                if kind == DUEL_OPTIMAL:
                    successor_line(own, a, b, c, length, opt_values, opt_base, pair_offset, maxsum, full)
                else:
                    mean_x = mindful_line(own, zbuf, a, b, c, length, maxsum, full, futures, set_index)
                for r in range(n_rolls):
                    pts = scores[r, c]
                    tie = TIE_BREAK * (pts + mean_x) if kind == DUEL_MINDFUL else 0.0
                    row = pol[roll_offset + r]
                    value_row = buf[roll_offset + r]
                    own_r = own[pts:]
                    seen_r = seen[pts:]
                    for j in range(lanes):
                        v = own_r[j] + tie
                        if v > row[j]:
                            row[j] = v
                            value_row[j] = seen_r[j]
            for left in range(1, rolls):
                expect_keeps_wide(pol, keep_add, roll_offset, lanes)
                expect_keeps_wide(buf, keep_add, roll_offset, lanes)
                best_keeps_along(pol, buf, sub_ptr, sub_idx, lanes)
            opening_value(buf, roll_prob, roll_offset, lanes)
            o = pair_offset[a * n_sets + b] - self_base
            for j in range(lanes):
                ev_self[o + j] = buf[0, j]
            continue
        # where each category's successor vector starts (-1: both cards full after it)
        for c in range(n_cats):
            na = a | (1 << c)
            if (a >> c) & 1 or (na == full and b == full):
                tops[c] = -1
            else:
                tops[c] = pair_offset[b * n_sets + na] + maxsum[na] + mb - other_base
        open_count = 0
        for c in range(n_cats):
            if not (a >> c) & 1:
                open_count += 1
        for r in range(n_rolls):
            row = buf[roll_offset + r]
            if kind == DUEL_RANDOM:
                for j in range(lanes):
                    row[j] = 0.0
                for c in range(n_cats):
                    if not (a >> c) & 1:
                        pts = scores[r, c]
                        for j in range(lanes):
                            if tops[c] < 0:
                                d = j - mb + pts
                                v = 1.0 if d > 0 else (-1.0 if d < 0 else 0.0)
                            else:
                                v = -ev_other[tops[c] - pts - j]
                            row[j] += v / open_count
                continue
            row[:] = NEG
            c = cat_table[a, r]
            duel_successor_rows(a, b, c, scores[r, c], row, lanes, ev_other, other_base, layout, dummy, r, False)
        if kind == DUEL_TABLE:
            for left in range(1, rolls):
                expect_keeps(buf, keep_add, roll_offset, lanes)
                for r in range(n_rolls):
                    full_k = roll_offset + r
                    k = keep_table[a, left - 1, r]
                    if k != full_k:
                        for j in range(lanes):
                            buf[full_k, j] = buf[k, j]
        opening_value(buf, roll_prob, roll_offset, lanes)
        o = pair_offset[a * n_sets + b] - self_base
        for j in range(lanes):
            ev_self[o + j] = buf[0, j]


@njit(cache=True, nogil=True)
def duel_forward_level(stripe, stripes, pa, pb, bounds, mass, opt, layout, graph, rolls, next_mass, waives,
                       zero_scores):
    """Push the probability of every position of pairs (pa[i], pb[i]) through one turn of optimal play.

    mass holds this level's probabilities, opt the equities of the next level, next_mass receives the mass
    arriving at each of its cells (each a ``TablePart``).
    Chunk w runs pairs bounds[w] to bounds[w + 1]; a turn's mass lands on pairs whose mover is this pair's
    other player, so chunks cut where pb changes (pb sorted) never write the same cell and need no copy
    of next_mass each. waives[w, c] receives the probability of scoring 0 in c by choice although another
    open box would have scored; zero_scores[w, c] of scoring 0 in c at all. Chunks stripe, stripe + stripes,
    ... on the calling thread, without the GIL (Python's threads run one stripe each)."""
    layout, graph = lend_layout(layout), lend_graph(graph)
    pair_offset, maxsum, scores, full = layout.pair_offset, layout.maxsum, layout.scores, layout.full
    keep_add, roll_prob, roll_offset = graph.keep_add, graph.roll_prob, graph.roll_offset
    mass_base, next_lo = mass.base, next_mass.base
    opt = TablePart(borrowed(opt.values), opt.base)
    # the caller owns every array for the call: borrowed views cost no reference counts in the loops
    pa, pb, bounds, mass = borrowed(pa), borrowed(pb), borrowed(bounds), borrowed(mass.values)
    next_mass, waives, zero_scores = borrowed(next_mass.values), borrowed(waives), borrowed(zero_scores)
    n_keeps = keep_add.shape[0]
    n_rolls, n_cats = scores.shape
    n_sets = full + 1
    stages_n = max(rolls - 1, 1)
    for w in range(stripe, bounds.shape[0] - 1, stripes):
        most = 1
        for i in range(bounds[w], bounds[w + 1]):
            most = max(most, maxsum[pa[i]] + maxsum[pb[i]] + 1)
        s_opt = np.empty(n_keeps * most)
        s_choice = np.zeros(n_rolls * most, dtype=np.int64)
        s_arg = np.empty(stages_n * n_keeps * most, dtype=np.int16)
        s_m1 = np.empty(n_keeps * most)
        s_m2 = np.empty(n_keeps * most)
        line = np.empty(most + scores.max() + 1)
        for i in range(bounds[w], bounds[w + 1]):
            a = pa[i]
            b = pb[i]
            mb = maxsum[b]
            lanes = maxsum[a] + mb + 1
            o = pair_offset[a * n_sets + b] - mass_base
            total = 0.0
            for j in range(lanes):
                total += mass[o + j]
            if total == 0.0:
                continue
            opt_rows = s_opt[: n_keeps * lanes].reshape((n_keeps, lanes))
            choice = s_choice[: n_rolls * lanes].reshape((n_rolls, lanes))
            arg = s_arg[: stages_n * n_keeps * lanes].reshape((stages_n, n_keeps, lanes))
            malina_policy(a, b, lanes, opt_rows, choice, arg, line, opt, layout, graph, rolls)
            cur = s_m1[: n_keeps * lanes].reshape((n_keeps, lanes))
            nxt = s_m2[: n_keeps * lanes].reshape((n_keeps, lanes))
            for r in range(n_rolls):
                for j in range(lanes):
                    cur[roll_offset + r, j] = roll_prob[r] * mass[o + j]
            for left in range(rolls - 1, 0, -1):
                nxt[:, :] = 0.0
                chosen = arg[left - 1]
                for r in range(n_rolls):
                    full_k = roll_offset + r
                    for j in range(lanes):
                        nxt[chosen[full_k, j], j] += cur[full_k, j]
                spread_keeps(nxt, keep_add, roll_offset, lanes)
                cur, nxt = nxt, cur
            for r in range(n_rolls):
                for j in range(lanes):
                    p = cur[roll_offset + r, j]
                    if p == 0.0:
                        continue
                    c = choice[r, j]
                    pts = scores[r, c]
                    if pts == 0:
                        zero_scores[w, c] += p
                        for c2 in range(n_cats):
                            if not (a >> c2) & 1 and scores[r, c2] > 0:
                                waives[w, c] += p
                                break
                    na = a | (1 << c)
                    if not (na == full and b == full):
                        idx = pair_offset[b * n_sets + na] + maxsum[na] + mb - pts - j
                        next_mass[idx - next_lo] += p
