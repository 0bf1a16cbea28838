"""The exact score distribution of the optimal strategy by forward propagation: the distinct outcomes of
one optimally played turn from every state, and histograms pushed along them.
"""

from typing import NamedTuple

import numpy as np

from ....core.jit import borrowed, njit
from ....core.kernels import lend_graph
from .policy import keep_stages
from ...game.kernels.scoring import bonus_step, code_of, lane_of, lend, next_group, score_choice
from ...turn.kernels.risk import risk_of, to_utility
from ...turn.kernels.widget import NEG, spread_keeps


class Columns(NamedTuple):
    """The states whose turn ``turn_outcomes`` works out, as columns: column q is lane lane[q] of used set
    used[q], written to row row[q]; columns block_start[b] to block_start[b + 1] go side by side."""

    used: np.ndarray  # int64
    lane: np.ndarray  # int64
    row: np.ndarray  # int64
    block_start: np.ndarray  # int64


class TurnOutcomes(NamedTuple):
    """Outcome o of state row s (``turn_outcomes``): the next state's table index, the points earned (box and
    bonuses), its probability, the box, the flags (a set bonus reached: bit 0; an extra-yacht bonus: bit 1;
    the box scored more than 0: bit 2; the set bonuses' points: the bits from 3 on); n_outcomes[s] of them."""

    target: np.ndarray  # int64 [row, outcome]
    points: np.ndarray  # int64 [row, outcome]
    prob: np.ndarray  # float64 [row, outcome]
    cat: np.ndarray  # int64 [row, outcome]
    flag: np.ndarray  # int64 [row, outcome]
    n_outcomes: np.ndarray  # int64 [row]


@njit(cache=True, inline="always")
def columns_final_choice(cols_u, col_g, col_t, lo, m, buf, choice, roll_offset, values, rules):
    """policy.final_choice for m columns, column q being the state (group col_g[q], progress code col_t[q]) of
    set cols_u[lo + q]. Columns of one set and group come together (a run): for each box, a run's rolls
    score a few distinct (points, bonus, next group) outcomes, each worth the same to a column whatever the
    roll, so each is valued once per column (``cont``) and the rolls only look it up."""
    offset, n_bonus_lanes, n_groups, scores = rules.offset, rules.n_bonus_lanes, rules.n_groups, rules.scores
    n_rolls, n_cats = scores.shape
    for r in range(n_rolls):
        for q in range(m):
            buf[roll_offset + r, q] = NEG
            choice[r, q] = -1
    slot_of = np.empty(n_rolls, dtype=np.int64)  # a roll's outcome (-1: the box cannot take it)
    slot_pts = np.empty(n_rolls, dtype=np.int64)
    slot_extra = np.empty(n_rolls, dtype=np.int64)
    slot_ng = np.empty(n_rolls, dtype=np.int64)
    cont = np.empty((n_rolls, m))
    run = 0
    while run < m:
        u = cols_u[lo + run]
        g = col_g[run]
        end = run + 1
        while end < m and cols_u[lo + end] == u and col_g[end] == g:
            end += 1
        for c in range(n_cats):
            if (u >> c) & 1:
                continue
            nu = u | (1 << c)
            ln = n_bonus_lanes[nu]
            base = offset[nu]
            n_slots = 0
            for r in range(n_rolls):
                allowed, pts, extra = score_choice(u, g, r, c, rules)
                slot_of[r] = -1
                if not allowed:
                    continue
                ng = next_group(u, g, c, pts, extra, rules, n_groups[nu])
                k = 0
                while k < n_slots and not (slot_pts[k] == pts and slot_extra[k] == extra and slot_ng[k] == ng):
                    k += 1
                if k == n_slots:
                    slot_pts[k], slot_extra[k], slot_ng[k] = pts, extra, ng
                    for q in range(run, end):
                        t2, gain = bonus_step(col_t[q], pts, c, rules)
                        cont[k, q] = pts + gain + extra + values[base + ng * ln + lane_of(nu, t2, rules)]
                    n_slots += 1
                slot_of[r] = k
            for r in range(n_rolls):
                k = slot_of[r]
                if k < 0:
                    continue
                row = buf[roll_offset + r]
                picks = choice[r]
                for q in range(run, end):
                    v = cont[k, q]
                    if v > row[q]:
                        row[q] = v
                        picks[q] = c
        run = end


@njit(cache=True, nogil=True)
def turn_outcomes(stripe, n_stripes, columns, values, rules, graph, rolls, max_points, goal, out):
    """The distinct outcomes of one turn under optimal play (``TurnOutcomes``), for the states given as
    ``Columns``, a block of columns at a time: the turn's stages run over a block's columns side by side,
    whatever their sets. This call works out blocks stripe, stripe + n_stripes, ...: Python's threads run the
    stripes (``core.jit.Stripes``; a ``prange`` here compiled numba's parfor, 3.4 s of a first distribution).
    ``goal``: the table's (``solitaire.table.goal_of``): a risk appetite's keeps are chosen by its utilities.
    """
    rules, graph = lend(rules), lend_graph(graph)
    for b in range(stripe, columns.block_start.shape[0] - 1, n_stripes):  # every n-th block: their work varies
        block_outcomes(np.int64(b), columns, values, rules, graph, rolls, max_points, goal, out)


@njit(cache=True)
def block_outcomes(b, columns, values, rules, graph, rolls, max_points, goal, out):
    """Block b of ``turn_outcomes``."""
    rules, graph = lend(rules), lend_graph(graph)
    offset, n_bonus_lanes, n_groups = rules.offset, rules.n_bonus_lanes, rules.n_groups
    scores = rules.scores
    keep_add, roll_prob, roll_offset = graph.keep_add, graph.roll_prob, graph.roll_offset
    roll_sub_ptr, roll_sub_idx = graph.roll_sub_ptr, graph.roll_sub_idx
    # borrowed: the caller owns them for the call (counted, the threads' atomic counts on shared arrays cost)
    cols_u, cols_lane = borrowed(columns.used), borrowed(columns.lane)
    cols_row, block_start = borrowed(columns.row), borrowed(columns.block_start)
    values = borrowed(values)
    out_target = borrowed(out.target)
    out_points, out_prob = borrowed(out.points), borrowed(out.prob)
    out_cat, out_flag = borrowed(out.cat), borrowed(out.flag)
    out_count = borrowed(out.n_outcomes)
    n_keeps = keep_add.shape[0]
    n_rolls, n_cats = scores.shape
    n_keys = n_cats * (max_points + 1) * 2
    lo = block_start[b]
    m = block_start[b + 1] - lo
    # the optimal policy of the block's columns (policy.optimal_policy, column by column)
    col_g = np.empty(m, dtype=np.int64)
    col_t = np.empty(m, dtype=np.int64)
    for q in range(m):
        lu = n_bonus_lanes[cols_u[lo + q]]
        col_g[q] = cols_lane[lo + q] // lu
        col_t[q] = code_of(cols_u[lo + q], cols_lane[lo + q] % lu, rules)
    buf = np.empty((n_keeps, m))
    choice = np.empty((n_rolls, m), dtype=np.int64)
    columns_final_choice(cols_u, col_g, col_t, lo, m, buf, choice, roll_offset, values, rules)
    theta = risk_of(goal)
    if theta != 0.0:  # the keeps compared by utility, which orders them as their certainty equivalents do
        to_utility(buf, roll_offset, n_keeps, m, theta, np.empty(m))
    stages = keep_stages(buf, rolls, graph, m)
    # forward: mass on rolls after the opening throw, then each re-throw under the best keep
    mass = np.empty((n_keeps, m))
    moved = np.empty((n_keeps, m))
    for r in range(n_rolls):
        for q in range(m):
            mass[roll_offset + r, q] = roll_prob[r]
    best_v = np.empty(m)
    best_k = np.empty(m, dtype=np.int64)
    for st in range(rolls - 2, -1, -1):
        table = stages[st]
        moved[:, :] = 0.0
        for r in range(n_rolls):
            full = roll_offset + r
            for q in range(m):
                best_v[q] = NEG
                best_k[q] = full
            for p in range(roll_sub_ptr[r], roll_sub_ptr[r + 1]):
                k = roll_sub_idx[p]
                row = table[k]
                for q in range(m):
                    if row[q] > best_v[q]:
                        best_v[q] = row[q]
                        best_k[q] = k
            src = mass[full]
            for q in range(m):
                moved[best_k[q], q] += src[q]
        spread_keeps(moved, keep_add, roll_offset, m)
        mass, moved = moved, mass
    # collapse final rolls into distinct (category, box points, extra bonus) outcomes per column
    where = np.full(n_keys, -1, dtype=np.int64)
    keys = np.empty(n_rolls, dtype=np.int64)  # the keys a column used, to clear only those after it
    for q in range(m):
        u = cols_u[lo + q]
        g = col_g[q]
        t = col_t[q]
        s = cols_row[lo + q]
        count = 0
        for r in range(n_rolls):
            w = mass[roll_offset + r, q]
            if w == 0.0:
                continue
            c = choice[r, q]
            allowed, pts, extra = score_choice(u, g, r, c, rules)
            key = (c * (max_points + 1) + pts) * 2 + (1 if extra > 0 else 0)
            o = where[key]
            if o < 0:
                o = count
                keys[count] = key
                count += 1
                where[key] = o
                nu = u | (1 << c)
                ln = n_bonus_lanes[nu]
                t2, gain = bonus_step(t, pts, c, rules)
                ng = next_group(u, g, c, pts, extra, rules, n_groups[nu])
                out_target[s, o] = offset[nu] + ng * ln + lane_of(nu, t2, rules)
                out_points[s, o] = pts + gain + extra
                out_cat[s, o] = c
                out_flag[s, o] = (1 if gain > 0 else 0) + (2 if extra > 0 else 0) + (4 if pts > 0 else 0) + (gain << 3)
                out_prob[s, o] = 0.0
            out_prob[s, o] += w
        out_count[s] = count
        for o in range(count):
            where[keys[o]] = -1


@njit(cache=True)
def outcome_stats(n_states, mass, out_prob, out_cat, out_flag, out_count, cat_prob, totals):
    """Accumulate P(box scores) per category and P(upper bonus), E[extra bonuses] into totals[0:2]."""
    for s in range(n_states):
        for q in range(out_count[s]):
            w = mass[s] * out_prob[s, q]
            f = out_flag[s, q]
            if f & 4:
                cat_prob[out_cat[s, q]] += w
            if f & 1:
                totals[0] += w
            if f & 2:
                totals[1] += w


@njit(cache=True, nogil=True)
def support_bounds(stripe, n_stripes, hist, src_off, src_len, first, last, mass):
    """The first and last score each histogram gives a chance (first > last for an empty one, or one never
    placed: offset -1), and its mass; for part ``stripe`` of ``n_stripes`` of them (``core.jit.Stripes``)."""
    n = src_off.shape[0]
    for s in range(stripe * n // n_stripes, (stripe + 1) * n // n_stripes):
        h = src_off[s]
        lo, hi = src_len[s], -1
        if h < 0:
            first[s], last[s], mass[s] = lo, hi, 0.0
            continue
        for x in range(src_len[s]):
            if hist[h + x] != 0.0:
                lo = x
                break
        for x in range(src_len[s] - 1, lo - 1, -1):
            if hist[h + x] != 0.0:
                hi = x
                break
        total = 0.0
        for x in range(lo, hi + 1):
            total += hist[h + x]
        first[s] = lo
        last[s] = hi
        mass[s] = total


@njit(cache=True)
def place_targets(by_target_ptr, dst_off, dst_len, free):
    """Place the histogram of each target that this batch writes first (``dst_off`` -1 until then) at
    ``free``, after the last one placed, and return where the next goes: a level's histograms are packed in
    the order play reaches them, so only the states it reaches (30% in Yatzy) take memory, and together."""
    for tgt in range(by_target_ptr.shape[0] - 1):
        if dst_off[tgt] < 0 and by_target_ptr[tgt + 1] > by_target_ptr[tgt]:
            dst_off[tgt] = free
            free += dst_len[tgt]
    return free


@njit(cache=True, nogil=True)
def pull_histograms(stripe, n_stripes, hist_src, src_off, src_first, src_last, by_target, outcomes, hist_dst, dst_off,
                    dst_len, fresh):
    """Next level's histograms, each gathered from the outcomes that lead to it (``by_target``, from
    ``group_by_target``; no write conflicts), for part ``stripe`` of ``n_stripes`` of the targets
    (``core.jit.Stripes``); a source is read only where it gives a chance (src_first to src_last). A target
    placed by this batch (at ``fresh`` or after, ``place_targets``) is cleared first: the states play never
    reaches are never touched."""
    by_target_ptr, by_target_src, by_target_q = by_target
    out_points, out_prob = outcomes.points, outcomes.prob
    n = by_target_ptr.shape[0] - 1
    for tgt in range(stripe * n // n_stripes, (stripe + 1) * n // n_stripes):
        o_dst = dst_off[tgt]
        if o_dst >= fresh:
            for x in range(dst_len[tgt]):
                hist_dst[o_dst + x] = 0.0
        for e in range(by_target_ptr[tgt], by_target_ptr[tgt + 1]):
            s = by_target_src[e]
            q = by_target_q[e]
            p = out_prob[s, q]
            o = o_dst + out_points[s, q]
            h = src_off[s]
            # within the target's own segment: past it the source's tail can only hold zeros (a target's
            # range bounds every score it can reach), and writing there would race with the next target
            stop = min(src_last[s] + 1, dst_len[tgt] - out_points[s, q])
            for x in range(src_first[s], stop):
                hist_dst[o + x] += p * hist_src[h + x]


@njit(cache=True)
def group_by_target(n_states, out_target, out_count, dst_index, n_targets):
    """CSR of (state, outcome) pairs grouped by the next level's local state index: (ptr, states, outcomes)."""
    ptr = np.zeros(n_targets + 1, dtype=np.int64)
    for s in range(n_states):
        for q in range(out_count[s]):
            ptr[dst_index[out_target[s, q]] + 1] += 1
    for t in range(n_targets):
        ptr[t + 1] += ptr[t]
    fill = ptr[:-1].copy()
    srcs = np.empty(ptr[-1], dtype=np.int64)
    qs = np.empty(ptr[-1], dtype=np.int64)
    for s in range(n_states):
        for q in range(out_count[s]):
            t = dst_index[out_target[s, q]]
            srcs[fill[t]] = s
            qs[fill[t]] = q
            fill[t] += 1
    return ptr, srcs, qs
