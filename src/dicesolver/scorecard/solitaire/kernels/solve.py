"""The solitaire expected-score solve: the best value of scoring each final roll for every lane of a set of
used boxes, and the level-by-level backward induction over those sets.

A *lane* is one value of the state that does not change the dice: the bonus lane (the capped upper
total, where the upper bonus is the only set bonus), and the yacht-bonus flag group. All lanes of one set of used categories go through the widget together.
"""

import numpy as np

from ....core.jit import njit, prange
from numba.extending import overload

from ...game.kernels.scoring import (bonus_step, code_of, general_rows, is_general, lane_of, lend, next_group,
                                     score_choice)
from ...turn.kernels.risk import risk_of, to_certainty, to_utility
from ...turn.kernels.widget import NEG, run_widget


@njit(cache=True, fastmath=True, inline="always")
def upper_choice(row, nxt, lu, ln, pts, extra, rules):
    """row[t] = max(row[t], value of scoring pts in an upper box from upper total t), branch-free
    in three contiguous ranges: below the threshold after scoring, crossing it (bonus paid now), and
    already capped at it. ``ln == 1`` means every upper box is then used: one next value for all t."""
    threshold, upper_points = rules.threshold, rules.upper_points
    base = float(pts + extra)
    cross = min(max(threshold - pts, 0), lu)  # first t that reaches the threshold
    if ln == 1:
        below = base + nxt[0]
        for t in range(cross):
            row[t] = max(row[t], below)
        crossing = base + upper_points + nxt[0]
        for t in range(cross, min(threshold, lu)):
            row[t] = max(row[t], crossing)
        for t in range(min(threshold, lu), lu):
            row[t] = max(row[t], below)
        return
    for t in range(cross):
        row[t] = max(row[t], base + nxt[t + pts])
    crossing = base + upper_points + nxt[threshold]
    for t in range(cross, min(threshold, lu)):
        row[t] = max(row[t], crossing)
    capped = base + nxt[threshold]
    for t in range(min(threshold, lu), lu):
        row[t] = max(row[t], capped)


@overload(general_rows)
def _general_rows(u, g, lu, buf, roll_offset, values, rules, open_cats, n_open, lns, bases, groups, uppers):
    if not is_general(rules):
        return lambda u, g, lu, buf, roll_offset, values, rules, open_cats, n_open, lns, bases, groups, uppers: False

    def either(u, g, lu, buf, roll_offset, values, rules, open_cats, n_open, lns, bases, groups, uppers):
        if rules.general:
            general_stage(u, g, lu, buf, roll_offset, values, rules, open_cats, n_open, lns, bases, groups, uppers)
            return True
        return False
    return either


@njit(cache=True, fastmath=True)
def general_stage(u, g, lu, buf, roll_offset, values, rules, open_cats, n_open, lns, bases, groups, uppers):
    """``final_stage``'s rows of flag group g for any set bonuses (called, not inlined: the fast path stays as
    it was). A box that counts toward a bonus moves each lane to a lane of the next set, and pays a bonus or
    not, by its points alone: those moves are worked out once per box and points (through the progress
    code), and each roll's row gathers from them (worked out lane by lane for every roll, the solve of
    Yahtzee with a lower bonus took about 12 minutes)."""
    scores = rules.scores
    n_rolls = scores.shape[0]
    top = 0
    for r in range(n_rolls):
        for k in range(n_open):
            top = max(top, scores[r, open_cats[k]])
    for k in range(rules.joker_pts.shape[0]):
        top = max(top, rules.joker_pts[k])
    slot = np.full((n_open, top + 1), -1, dtype=np.int64)
    count = 0
    for r in range(n_rolls):
        for k in range(n_open):
            if uppers[k]:
                allowed, pts, extra = score_choice(u, g, r, open_cats[k], rules)
                if allowed and slot[k, pts] < 0:
                    slot[k, pts] = count
                    count += 1
    lane_map = np.empty((count, lu), dtype=np.int64)
    gain_map = np.empty((count, lu))
    for k in range(n_open):
        c = open_cats[k]
        nu = u | (1 << c)
        for pts in range(top + 1):
            m = slot[k, pts]
            if m >= 0:
                for t in range(lu):
                    t2, gain = bonus_step(code_of(u, t, rules), pts, c, rules)
                    lane_map[m, t] = lane_of(nu, t2, rules)
                    gain_map[m, t] = gain
    for r in range(n_rolls):
        row = buf[roll_offset + r, g * lu: (g + 1) * lu]
        for t in range(lu):
            row[t] = NEG
        for k in range(n_open):
            c = open_cats[k]
            allowed, pts, extra = score_choice(u, g, r, c, rules)
            if not allowed:
                continue
            ln = lns[k]
            base = bases[k] + next_group(u, g, c, pts, extra, rules, groups[k]) * ln
            nxt = values[base: base + ln]
            add = float(pts + extra)
            if uppers[k]:
                m = slot[k, pts]
                lanes, gains = lane_map[m], gain_map[m]
                for t in range(lu):
                    row[t] = max(row[t], add + gains[t] + nxt[lanes[t]])
            else:
                for t in range(lu):
                    row[t] = max(row[t], add + nxt[t])


@njit(cache=True, fastmath=True, inline="always")
def final_stage(u, buf, roll_offset, values, rules):
    """Fill the roll rows of ``buf`` with the best value of scoring each final roll, for all lanes.

    Roll by roll, every open box in turn: the roll's row stays in the first-level cache while the boxes'
    next values (a few kilobytes) are read again for each roll; box by box, every roll in turn (as
    before) streamed the whole roll block through the cache once per box and took a third longer. What
    the boxes lead to is looked up once per set."""
    offset, n_bonus_lanes, n_groups = rules.offset, rules.n_bonus_lanes, rules.n_groups
    scores = rules.scores
    n_rolls, n_cats = scores.shape
    lu = n_bonus_lanes[u]
    gu = n_groups[u]
    open_cats = np.empty(n_cats, dtype=np.int64)
    n_open = 0
    for c in range(n_cats):
        if not (u >> c) & 1:
            open_cats[n_open] = c
            n_open += 1
    lns = np.empty(n_open, dtype=np.int64)
    bases = np.empty(n_open, dtype=np.int64)
    groups = np.empty(n_open, dtype=np.int64)
    uppers = np.empty(n_open, dtype=np.bool_)
    for k in range(n_open):
        c = open_cats[k]
        nu = u | (1 << c)
        lns[k] = n_bonus_lanes[nu]
        bases[k] = offset[nu]
        groups[k] = n_groups[nu]
        uppers[k] = rules.in_bonus[c] != 0  # its points count toward a set bonus: the lanes move
    for g in range(gu):
        if general_rows(u, g, lu, buf, roll_offset, values, rules, open_cats, n_open, lns, bases, groups, uppers):
            continue
        for r in range(n_rolls):
            row = buf[roll_offset + r, g * lu: (g + 1) * lu]
            for t in range(lu):
                row[t] = NEG
            for k in range(n_open):
                c = open_cats[k]
                allowed, pts, extra = score_choice(u, g, r, c, rules)
                if not allowed:
                    continue
                ln = lns[k]
                base = bases[k] + next_group(u, g, c, pts, extra, rules, groups[k]) * ln
                nxt = values[base: base + ln]
                if uppers[k]:
                    upper_choice(row, nxt, lu, ln, pts, extra, rules)
                else:
                    add = float(pts + extra)
                    for t in range(lu):
                        row[t] = max(row[t], add + nxt[t])


@njit(cache=True, parallel=True)
def solve_level(us, values, rules, keep_add, sub_ptr, sub_idx, roll_prob, roll_offset, rerolls, threads, aim):
    """Turn-start values of every used-category set in ``us`` (all one level), from the level above, on
    ``threads`` threads: expected scores, or certainty equivalents for the risk appetite of ``aim`` (the
    answer engine's goal array, ``answers.risk_of``; ``turn.kernels.risk``).

    The loop's body is ``solve_stripe``'s, written out rather than called: called, the solve took 5% longer
    (0.76 s against 0.72 for Yahtzee, 2.30 against 2.17 for Yatzy); this kernel compiles in 12 s, the
    stripe alone in 5 (a first solve uses it, on Python's threads, until this one is compiled)."""
    offset, n_bonus_lanes, n_groups = rules.offset, rules.n_bonus_lanes, rules.n_groups
    n_keeps = keep_add.shape[0]
    max_lanes = 0
    for i in range(us.shape[0]):
        lanes = n_bonus_lanes[us[i]] * n_groups[us[i]]
        if lanes > max_lanes:
            max_lanes = lanes
    # Each thread takes every n-th set rather than one contiguous block: the sets' lane counts follow the
    # bits of their masks, so contiguous blocks differ by up to a tenth in work, strided ones by under 1%.
    stripes = max(1, min(threads, us.shape[0]))
    theta = risk_of(aim)
    for s in prange(stripes):
        lent = lend(rules)  # in each thread's own body: lent once before the loop, the solve took 15% longer
        buf = np.empty((n_keeps, max_lanes))
        shift = np.empty(max_lanes)
        for i in range(s, us.shape[0], stripes):
            u = us[i]
            lanes = n_bonus_lanes[u] * n_groups[u]
            final_stage(u, buf, roll_offset, values, lent)
            if theta != 0.0:
                to_utility(buf, roll_offset, n_keeps, lanes, theta, shift)
            run_widget(buf, keep_add, sub_ptr, sub_idx, roll_prob, roll_offset, lanes, rerolls)
            if theta != 0.0:
                to_certainty(buf, 0, 1, lanes, theta, shift)
            o = offset[u]
            for j in range(lanes):
                values[o + j] = buf[0, j]


@njit(cache=True, nogil=True)
def solve_stripe(s, stripes, us, values, rules, keep_add, sub_ptr, sub_idx, roll_prob, roll_offset, rerolls, aim):
    """The sets us[s], us[s + stripes], ... of one level (``solve_level``'s loop body) on the calling
    thread, without the GIL: a first solve on a machine where ``solve_level`` was never compiled runs one a
    thread from Python's (``SolitaireModel.solve``). It compiles in 4-5 s where ``solve_level`` takes 12,
    for a solve 10-25% slower; the table is the same to the bit."""
    rules = lend(rules)
    theta = risk_of(aim)
    offset, n_bonus_lanes, n_groups = rules.offset, rules.n_bonus_lanes, rules.n_groups
    max_lanes = 1
    for i in range(us.shape[0]):
        max_lanes = max(max_lanes, n_bonus_lanes[us[i]] * n_groups[us[i]])
    n_keeps = keep_add.shape[0]
    buf = np.empty((n_keeps, max_lanes))
    shift = np.empty(max_lanes)
    for i in range(s, us.shape[0], stripes):
        u = us[i]
        lanes = n_bonus_lanes[u] * n_groups[u]
        final_stage(u, buf, roll_offset, values, rules)
        if theta != 0.0:
            to_utility(buf, roll_offset, n_keeps, lanes, theta, shift)
        run_widget(buf, keep_add, sub_ptr, sub_idx, roll_prob, roll_offset, lanes, rerolls)
        if theta != 0.0:
            to_certainty(buf, 0, 1, lanes, theta, shift)
        o = offset[u]
        for j in range(lanes):
            values[o + j] = buf[0, j]

