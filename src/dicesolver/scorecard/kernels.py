"""Numba kernels for scorecard games: the turn widget and the solitaire expected-score solve.

Private: arrays in, arrays out. Everything one kernel calls lives in this module, because numba's
on-disk cache does not notice changes to callees in other modules. Helpers are ``inline="always"``:
measured here, code loaded from numba's cache ran 2-3x slower than a fresh compile when helpers were
separate functions (calls between cached functions are not inlined), and the same once inlined.

Buffers are (keeps x lanes) float64 arrays; keeps are ordered by size so the last ``n_rolls`` rows are
the rolls (see dice.py). A *lane* is one value of the state that does not change the dice: the capped
upper total, and the yacht-bonus flag group. All lanes of one set of used categories go through the
widget together, so every inner loop runs over contiguous lanes.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

NEG = -1.0e300


# -- the turn widget ---------------------------------------------------------------------------------


@njit(cache=True, fastmath=True, inline="always")
def expect_keeps(buf, keep_add, roll_offset, lanes):
    """K(k) = mean over faces of K(k + face), for every keep smaller than a roll (in place)."""
    faces = keep_add.shape[1]
    inv = 1.0 / faces
    for k in range(roll_offset - 1, -1, -1):
        dst = buf[k]
        src = buf[keep_add[k, 0]]
        for j in range(lanes):
            dst[j] = src[j]
        for f in range(1, faces):
            src = buf[keep_add[k, f]]
            for j in range(lanes):
                dst[j] += src[j]
        for j in range(lanes):
            dst[j] *= inv


@njit(cache=True, fastmath=True, inline="always")
def best_keeps(buf, sub_ptr, sub_idx, lanes):
    """B(k) = max(K(k), B(k - f) for each face f in k): afterwards a roll's row is its best keep."""
    n = buf.shape[0]
    for k in range(1, n):
        dst = buf[k]
        for p in range(sub_ptr[k], sub_ptr[k + 1]):
            src = buf[sub_idx[p]]
            for j in range(lanes):
                if src[j] > dst[j]:
                    dst[j] = src[j]


@njit(cache=True, fastmath=True, inline="always")
def opening_value(buf, roll_prob, roll_offset, lanes):
    """Row 0 = the probability-weighted mean of the roll rows: the value before the first throw.

    Cheaper than a full expectation pass when only the turn-start value is wanted.
    """
    dst = buf[0]
    for j in range(lanes):
        dst[j] = 0.0
    for r in range(roll_prob.shape[0]):
        p = roll_prob[r]
        src = buf[roll_offset + r]
        for j in range(lanes):
            dst[j] += p * src[j]


@njit(cache=True, inline="always")
def run_widget(buf, keep_add, sub_ptr, sub_idx, roll_prob, roll_offset, lanes, rerolls):
    """From final-roll values in the roll rows, run ``rerolls`` keep stages, then the opening roll.

    Afterwards row 0 (the empty keep) holds the turn-start value of every lane.
    """
    for _ in range(rerolls):
        expect_keeps(buf, keep_add, roll_offset, lanes)
        best_keeps(buf, sub_ptr, sub_idx, lanes)
    opening_value(buf, roll_prob, roll_offset, lanes)


# -- scoring a final roll -----------------------------------------------------------------------------


@njit(cache=True, inline="always")
def first_open(u, n_cats):
    for c in range(n_cats):
        if not (u >> c) & 1:
            return c
    return -1


@njit(cache=True, inline="always")
def score_choice(u, g, r, c, scores, upper_face, yacht_cat, xbonus, joker_mode, joker_pts,
                 roll_yacht_face, upper_cat_of_face, forced_order):
    """Scoring roll r in open category c from used set u, flag group g.

    Returns (allowed, points, extra): points go to the box (and the upper total when c is upper);
    extra is the extra-yacht bonus earned. ``allowed`` is False where a forced rule forbids c.
    """
    n_cats = scores.shape[1]
    if forced_order and c != first_open(u, n_cats):
        return False, 0, 0
    s = scores[r, c]
    f = roll_yacht_face[r]
    if f == 0 or yacht_cat < 0 or not (u >> yacht_cat) & 1 or joker_mode == 0 and xbonus == 0:
        return True, s, 0
    extra = xbonus if g == 1 else 0
    if joker_mode == 0:
        return True, s, extra
    uc = upper_cat_of_face[f]
    matching_open = uc >= 0 and not (u >> uc) & 1
    if joker_mode == 1:  # forced joker
        if matching_open:
            return c == uc, s, extra
        if upper_face[c] > 0:
            # an upper box only when every lower box is filled
            for d in range(n_cats):
                if upper_face[d] == 0 and not (u >> d) & 1:
                    return False, 0, 0
            return True, s, extra
        if joker_pts[c] >= 0:
            return True, joker_pts[c], extra
        return True, s, extra
    # free joker: full points in a joker box only when the matching upper box is filled
    if joker_pts[c] >= 0 and not matching_open:
        return True, joker_pts[c], extra
    return True, s, extra


@njit(cache=True, inline="always")
def upper_step(t, pts, c, upper_face, threshold, upper_points):
    """The upper total after scoring pts in category c from total t (capped at the threshold), and the
    upper bonus this earns (paid the moment the threshold is reached)."""
    if upper_face[c] == 0 or threshold == 0:
        return t, 0
    t2 = t + pts
    if t2 >= threshold:
        return threshold, (upper_points if t < threshold else 0)
    return t2, 0


@njit(cache=True, inline="always")
def next_group(u, g, c, pts, yacht_cat, groups_next):
    """Flag group after scoring: set when the yacht box is filled with points."""
    if groups_next == 1:
        return 0
    if c == yacht_cat and not (u >> yacht_cat) & 1:
        return 1 if pts > 0 else 0
    return g


@njit(cache=True, fastmath=True, inline="always")
def upper_choice(row, nxt, lu, ln, pts, extra, threshold, upper_points):
    """row[t] = max(row[t], value of scoring pts in an upper box from upper total t), branch-free
    in three contiguous ranges: below the threshold after scoring, crossing it (bonus paid now), and
    already capped at it. ``ln == 1`` means every upper box is then used: one next value for all t."""
    base = float(pts + extra)
    cross = min(max(threshold - pts, 0), lu)  # first t that reaches the threshold
    if ln == 1:
        below = base + nxt[0]
        for t in range(cross):
            if below > row[t]:
                row[t] = below
        crossing = base + upper_points + nxt[0]
        for t in range(cross, min(threshold, lu)):
            if crossing > row[t]:
                row[t] = crossing
        for t in range(min(threshold, lu), lu):
            if below > row[t]:
                row[t] = below
        return
    for t in range(cross):
        v = base + nxt[t + pts]
        if v > row[t]:
            row[t] = v
    crossing = base + upper_points + nxt[threshold]
    for t in range(cross, min(threshold, lu)):
        if crossing > row[t]:
            row[t] = crossing
    capped = base + nxt[threshold]
    for t in range(min(threshold, lu), lu):
        if capped > row[t]:
            row[t] = capped


@njit(cache=True, fastmath=True, inline="always")
def final_stage(u, buf, roll_offset, values, offset, n_upper_lanes, n_groups, scores, upper_face,
                threshold, upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face,
                upper_cat_of_face, forced_order):
    """Fill the roll rows of ``buf`` with the best value of scoring each final roll, for all lanes."""
    n_rolls, n_cats = scores.shape
    lu = n_upper_lanes[u]
    gu = n_groups[u]
    lanes = lu * gu
    for r in range(n_rolls):
        row = buf[roll_offset + r]
        for j in range(lanes):
            row[j] = NEG
    for c in range(n_cats):
        if (u >> c) & 1:
            continue
        nu = u | (1 << c)
        ln = n_upper_lanes[nu]
        gn = n_groups[nu]
        base = offset[nu]
        is_upper = upper_face[c] > 0
        for g in range(gu):
            for r in range(n_rolls):
                allowed, pts, extra = score_choice(u, g, r, c, scores, upper_face, yacht_cat, xbonus,
                                                   joker_mode, joker_pts, roll_yacht_face,
                                                   upper_cat_of_face, forced_order)
                if not allowed:
                    continue
                ng = next_group(u, g, c, pts, yacht_cat, gn)
                nxt = values[base + ng * ln: base + (ng + 1) * ln]
                row = buf[roll_offset + r, g * lu: (g + 1) * lu]
                if is_upper and threshold > 0:
                    upper_choice(row, nxt, lu, ln, pts, extra, threshold, upper_points)
                else:
                    add = float(pts + extra)
                    for t in range(lu):
                        v = add + nxt[t]
                        if v > row[t]:
                            row[t] = v


@njit(cache=True)
def category_values(u, g, t, r, values, offset, n_upper_lanes, n_groups, scores, upper_face, threshold,
                    upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face,
                    upper_cat_of_face, forced_order, out_value, out_points):
    """For one state lane and final roll: each category's value (NEG where not allowed) and points
    (box points + bonuses earned now)."""
    n_cats = scores.shape[1]
    for c in range(n_cats):
        out_value[c] = NEG
        out_points[c] = 0
        if (u >> c) & 1:
            continue
        allowed, pts, extra = score_choice(u, g, r, c, scores, upper_face, yacht_cat, xbonus, joker_mode,
                                           joker_pts, roll_yacht_face, upper_cat_of_face, forced_order)
        if not allowed:
            continue
        nu = u | (1 << c)
        ln = n_upper_lanes[nu]
        ng = next_group(u, g, c, pts, yacht_cat, n_groups[nu])
        t2, gain = upper_step(t, pts, c, upper_face, threshold, upper_points)
        if t2 > ln - 1:
            t2 = ln - 1
        out_points[c] = pts + gain + extra
        out_value[c] = pts + gain + extra + values[offset[nu] + ng * ln + t2]


# -- the solitaire solve ------------------------------------------------------------------------------


@njit(cache=True, parallel=True)
def solve_level(us, values, offset, n_upper_lanes, n_groups, scores, upper_face, threshold, upper_points,
                yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face, forced_order,
                keep_add, sub_ptr, sub_idx, roll_prob, roll_offset, rerolls):
    """Turn-start values of every used-category set in ``us`` (all one level), from the level above."""
    n_keeps = keep_add.shape[0]
    max_lanes = 0
    for i in range(us.shape[0]):
        lanes = n_upper_lanes[us[i]] * n_groups[us[i]]
        if lanes > max_lanes:
            max_lanes = lanes
    for i in prange(us.shape[0]):
        u = us[i]
        lanes = n_upper_lanes[u] * n_groups[u]
        buf = np.empty((n_keeps, max_lanes))
        final_stage(u, buf, roll_offset, values, offset, n_upper_lanes, n_groups, scores, upper_face,
                    threshold, upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face,
                    upper_cat_of_face, forced_order)
        run_widget(buf, keep_add, sub_ptr, sub_idx, roll_prob, roll_offset, lanes, rerolls)
        o = offset[u]
        for j in range(lanes):
            values[o + j] = buf[0, j]


@njit(cache=True)
def state_widget(u, buf, values, offset, n_upper_lanes, n_groups, scores, upper_face, threshold,
                 upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face,
                 forced_order, keep_add, sub_ptr, sub_idx, roll_offset, rerolls_left):
    """Within-turn values for one used set: afterwards the rows of ``buf`` hold the value of every keep
    when ``rerolls_left`` throws remain after this one (0: the roll rows are final-roll values)."""
    lanes = n_upper_lanes[u] * n_groups[u]
    final_stage(u, buf, roll_offset, values, offset, n_upper_lanes, n_groups, scores, upper_face, threshold,
                upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face,
                forced_order)
    for _ in range(rerolls_left):
        expect_keeps(buf, keep_add, roll_offset, lanes)
        best_keeps(buf, sub_ptr, sub_idx, lanes)


# -- playing: decisions of the built-in strategies, and fast simulation --------------------------------
#
# Modes: 0 optimal (max expected final score from the solved table); 1 static hand values H[roll, cat]
# (greedy and seed 002's agents: keeps maximise the expected best H this turn, the category is the best
# H); 2 random (random keeps and categories); 3 semi-random (random keeps, most points now);
# 4 whatever (never re-rolls, most points now). Ties go to the lowest keep index / first category.

OPTIMAL, STATIC, RANDOM, SEMI_RANDOM, WHATEVER = 0, 1, 2, 3, 4


@njit(cache=True, inline="always")
def choice_value(mode, u, g, t, r, c, H, values, offset, n_upper_lanes, n_groups, scores, upper_face, threshold,
                 upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face,
                 forced_order):
    """(allowed, value for the strategy, points now incl. bonuses, box points, upper bonus gained, extra)."""
    allowed, pts, extra = score_choice(u, g, r, c, scores, upper_face, yacht_cat, xbonus, joker_mode, joker_pts,
                                       roll_yacht_face, upper_cat_of_face, forced_order)
    if not allowed:
        return False, NEG, 0, 0, 0, 0
    t2, gain = upper_step(t, pts, c, upper_face, threshold, upper_points)
    now = pts + gain + extra
    if mode == OPTIMAL:
        nu = u | (1 << c)
        ln = n_upper_lanes[nu]
        if t2 > ln - 1:
            t2 = ln - 1
        ng = next_group(u, g, c, pts, yacht_cat, n_groups[nu])
        return True, now + values[offset[nu] + ng * ln + t2], now, pts, gain, extra
    if mode == STATIC:
        return True, H[r, c] + (pts - scores[r, c]) + extra, now, pts, gain, extra
    return True, float(now), now, pts, gain, extra


@njit(cache=True, inline="always")
def best_category(mode, u, g, t, r, H, values, offset, n_upper_lanes, n_groups, scores, upper_face, threshold,
                  upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face,
                  forced_order, rnum):
    """The category the strategy scores roll r in: (category, value)."""
    n_cats = scores.shape[1]
    if mode == RANDOM:
        count = 0
        for c in range(n_cats):
            if not (u >> c) & 1:
                ok, v, now, pts, gain, extra = choice_value(
                    mode, u, g, t, r, c, H, values, offset, n_upper_lanes, n_groups, scores, upper_face, threshold,
                    upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face,
                    forced_order)
                if ok:
                    count += 1
        pick = rnum % count
        for c in range(n_cats):
            if not (u >> c) & 1:
                ok, v, now, pts, gain, extra = choice_value(
                    mode, u, g, t, r, c, H, values, offset, n_upper_lanes, n_groups, scores, upper_face, threshold,
                    upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face,
                    forced_order)
                if ok:
                    if pick == 0:
                        return c, v
                    pick -= 1
    best_c = -1
    best_v = NEG
    for c in range(n_cats):
        if (u >> c) & 1:
            continue
        ok, v, now, pts, gain, extra = choice_value(
            mode, u, g, t, r, c, H, values, offset, n_upper_lanes, n_groups, scores, upper_face, threshold,
            upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face, forced_order)
        if ok and v > best_v:
            best_v = v
            best_c = c
    return best_c, best_v


@njit(cache=True, inline="always")
def policy_stages(mode, u, g, t, H, values, offset, n_upper_lanes, n_groups, scores, upper_face, threshold,
                  upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face,
                  forced_order, keep_add, sub_ptr, sub_idx, roll_offset, buf, stages):
    """stages[m, k] = the strategy's value of keeping k when m more throws follow the next one."""
    n_rolls = scores.shape[0]
    for r in range(n_rolls):
        c, v = best_category(mode, u, g, t, r, H, values, offset, n_upper_lanes, n_groups, scores, upper_face,
                             threshold, upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face,
                             upper_cat_of_face, forced_order, 0)
        buf[roll_offset + r, 0] = v
    for m in range(stages.shape[0]):
        if m > 0:
            best_keeps(buf, sub_ptr, sub_idx, 1)
        expect_keeps(buf, keep_add, roll_offset, 1)
        for k in range(buf.shape[0]):
            stages[m, k] = buf[k, 0]


@njit(cache=True, inline="always")
def choose_keep_index(mode, r, rolls_left, stages, roll_sub_ptr, roll_sub_idx, roll_faces, roll_offset, rbits,
                      keep_add):
    """The keep (index) the strategy holds from roll r with ``rolls_left`` throws still allowed."""
    full = roll_offset + r
    if mode == WHATEVER:
        return full
    if mode == RANDOM or mode == SEMI_RANDOM:
        # keep each die with probability 1/2: one of the 2^n subsets of dice positions, as in seed 002
        k = 0
        for d in range(roll_faces.shape[1]):
            if (rbits >> d) & 1:
                k = keep_add[k, roll_faces[r, d] - 1]
        return k
    best_k = full
    best_v = NEG
    table = stages[rolls_left - 1]
    for p in range(roll_sub_ptr[r], roll_sub_ptr[r + 1]):
        k = roll_sub_idx[p]
        if table[k] > best_v:
            best_v = table[k]
            best_k = k
    return best_k


@njit(cache=True, inline="always")
def throw(k, faces, count, keep_add, roll_offset):
    """Roll index after adding ``count`` thrown dice (faces[0:count]) to keep k."""
    for d in range(count):
        k = keep_add[k, faces[d] - 1]
    return k - roll_offset


@njit(cache=True)
def decide_keep(mode, H, u, g, t, r, rolls_left, rbits, values, offset, n_upper_lanes, n_groups, scores,
                upper_face, threshold, upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face,
                upper_cat_of_face, forced_order, keep_add, sub_ptr, sub_idx, roll_offset, roll_sub_ptr,
                roll_sub_idx, roll_faces, rolls):
    """One keep decision of a built-in strategy (called from Python by the players)."""
    stages = np.empty((max(rolls - 1, 1), keep_add.shape[0]))
    if mode == OPTIMAL or mode == STATIC:
        buf = np.empty((keep_add.shape[0], 1))
        policy_stages(mode, u, g, t, H, values, offset, n_upper_lanes, n_groups, scores, upper_face, threshold,
                      upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face,
                      forced_order, keep_add, sub_ptr, sub_idx, roll_offset, buf, stages[:rolls_left])
    return choose_keep_index(mode, r, rolls_left, stages, roll_sub_ptr, roll_sub_idx, roll_faces, roll_offset,
                             rbits, keep_add)


@njit(cache=True)
def decide_category(mode, H, u, g, t, r, rnum, values, offset, n_upper_lanes, n_groups, scores, upper_face,
                    threshold, upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face,
                    upper_cat_of_face, forced_order):
    """One category decision of a built-in strategy (called from Python by the players)."""
    c, v = best_category(mode, u, g, t, r, H, values, offset, n_upper_lanes, n_groups, scores, upper_face,
                         threshold, upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face,
                         upper_cat_of_face, forced_order, rnum)
    return c


@njit(cache=True, parallel=True)
def simulate_games(mode, H, start_u, start_t, start_g, start_score, throws, rand, values, offset, n_upper_lanes,
                   n_groups, scores, upper_face, threshold, upper_points, yacht_cat, xbonus, joker_mode, joker_pts,
                   roll_yacht_face, upper_cat_of_face, forced_order, keep_add, sub_ptr, sub_idx, roll_offset,
                   roll_sub_ptr, roll_sub_idx, roll_faces, keep_size, out_total, out_boxes, out_bonus, out_extra):
    """Play throws.shape[0] games from one start state with the pre-drawn dice ``throws[game, turn, throw,
    die]`` and random numbers ``rand[game, turn, throw]`` (common random numbers across strategies)."""
    n_games, n_turns, rolls, n_dice = throws.shape
    n_keeps = keep_add.shape[0]
    n_cats = scores.shape[1]
    for i in prange(n_games):
        buf = np.empty((n_keeps, 1))
        stages = np.empty((max(rolls - 1, 1), n_keeps))
        u = start_u
        t = start_t
        g = start_g
        total = start_score
        bonus = 0
        extras = 0
        for c in range(n_cats):
            out_boxes[i, c] = -1
        for turn in range(n_turns):
            if u == (1 << n_cats) - 1:
                break
            if mode == OPTIMAL or mode == STATIC:
                policy_stages(mode, u, g, t, H, values, offset, n_upper_lanes, n_groups, scores, upper_face,
                              threshold, upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face,
                              upper_cat_of_face, forced_order, keep_add, sub_ptr, sub_idx, roll_offset, buf,
                              stages[:rolls - 1])
            r = throw(0, throws[i, turn, 0], n_dice, keep_add, roll_offset)
            for s in range(1, rolls):
                k = choose_keep_index(mode, r, rolls - s, stages, roll_sub_ptr, roll_sub_idx, roll_faces,
                                      roll_offset, rand[i, turn, s - 1], keep_add)
                kept = keep_size[k]
                r = throw(k, throws[i, turn, s], n_dice - kept, keep_add, roll_offset)
            c, v = best_category(mode, u, g, t, r, H, values, offset, n_upper_lanes, n_groups, scores, upper_face,
                                 threshold, upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face,
                                 upper_cat_of_face, forced_order, rand[i, turn, rolls - 1])
            ok, v2, now, pts, gain, extra = choice_value(
                mode, u, g, t, r, c, H, values, offset, n_upper_lanes, n_groups, scores, upper_face, threshold,
                upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face,
                forced_order)
            total += now
            out_boxes[i, c] = pts
            if gain > 0:
                bonus = 1
            if extra > 0:
                extras += 1
            t = upper_step(t, pts, c, upper_face, threshold, upper_points)[0]
            g = next_group(u, g, c, pts, yacht_cat, n_groups[u | (1 << c)])
            u = u | (1 << c)
        out_total[i] = total
        out_bonus[i] = bonus
        out_extra[i] = extras


# -- exact score distribution of the optimal strategy (forward propagation) ----------------------------


@njit(cache=True, inline="always")
def spread_keeps(mass, keep_add, roll_offset, lanes):
    """Transpose of expect_keeps: mass on keeps flows to the rolls they can become (in place)."""
    faces = keep_add.shape[1]
    inv = 1.0 / faces
    for k in range(roll_offset):
        src = mass[k]
        for f in range(faces):
            dst = mass[keep_add[k, f]]
            for j in range(lanes):
                dst[j] += src[j] * inv
        for j in range(lanes):
            src[j] = 0.0


@njit(cache=True, inline="always")
def final_choice(u, buf, choice, roll_offset, values, offset, n_upper_lanes, n_groups, scores, upper_face, threshold,
                 upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face,
                 forced_order):
    """Like final_stage, also recording the chosen category (the first best, as best_category does)."""
    n_rolls, n_cats = scores.shape
    lu = n_upper_lanes[u]
    gu = n_groups[u]
    for r in range(n_rolls):
        for j in range(lu * gu):
            buf[roll_offset + r, j] = NEG
            choice[r, j] = -1
    for c in range(n_cats):
        if (u >> c) & 1:
            continue
        nu = u | (1 << c)
        ln = n_upper_lanes[nu]
        gn = n_groups[nu]
        base = offset[nu]
        for g in range(gu):
            for r in range(n_rolls):
                allowed, pts, extra = score_choice(u, g, r, c, scores, upper_face, yacht_cat, xbonus, joker_mode,
                                                   joker_pts, roll_yacht_face, upper_cat_of_face, forced_order)
                if not allowed:
                    continue
                ng = next_group(u, g, c, pts, yacht_cat, gn)
                for t in range(lu):
                    t2, gain = upper_step(t, pts, c, upper_face, threshold, upper_points)
                    if t2 > ln - 1:
                        t2 = ln - 1
                    v = pts + gain + extra + values[base + ng * ln + t2]
                    j = g * lu + t
                    if v > buf[roll_offset + r, j]:
                        buf[roll_offset + r, j] = v
                        choice[r, j] = c


@njit(cache=True, inline="always")
def optimal_policy(u, lanes, rolls, values, offset, n_upper_lanes, n_groups, scores, upper_face, threshold,
                   upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face,
                   forced_order, keep_add, sub_ptr, sub_idx, roll_offset):
    """The optimal policy of every lane of used set u: choice[r, lane] = the category for final roll r;
    stages[m][k, lane] = the value of keeping k when m more throws follow the next one."""
    n_keeps = keep_add.shape[0]
    n_rolls = scores.shape[0]
    buf = np.empty((n_keeps, lanes))
    choice = np.empty((n_rolls, lanes), dtype=np.int64)
    final_choice(u, buf, choice, roll_offset, values, offset, n_upper_lanes, n_groups, scores, upper_face,
                 threshold, upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face,
                 upper_cat_of_face, forced_order)
    stages = np.empty((max(rolls - 1, 1), n_keeps, lanes))
    for m in range(rolls - 1):
        if m > 0:
            best_keeps(buf, sub_ptr, sub_idx, lanes)
        expect_keeps(buf, keep_add, roll_offset, lanes)
        stages[m] = buf
    return choice, stages


@njit(cache=True, parallel=True)
def turn_outcomes(us, values, offset, n_upper_lanes, n_groups, scores, upper_face, threshold, upper_points,
                  yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face, forced_order,
                  keep_add, sub_ptr, sub_idx, roll_prob, roll_offset, roll_sub_ptr, roll_sub_idx, rolls, max_points,
                  slot, out_target, out_points, out_prob, out_cat, out_flag, out_count):
    """For every lane of every set in ``us``: the distinct outcomes of one turn under optimal play.

    Outcome q of the state at row slot[i] + lane: the next state's table index (out_target), the points
    earned (out_points, box + bonuses), the category (out_cat), whether the upper bonus was reached
    (out_flag bit 0), an extra-yacht bonus earned (bit 1) or the box scored more than 0 (bit 2), and its
    probability (out_prob).
    """
    n_keeps = keep_add.shape[0]
    n_rolls, n_cats = scores.shape
    n_keys = n_cats * (max_points + 1) * 2
    for i in prange(us.shape[0]):
        u = us[i]
        lu = n_upper_lanes[u]
        lanes = lu * n_groups[u]
        choice, stages = optimal_policy(u, lanes, rolls, values, offset, n_upper_lanes, n_groups, scores, upper_face,
                                        threshold, upper_points, yacht_cat, xbonus, joker_mode, joker_pts,
                                        roll_yacht_face, upper_cat_of_face, forced_order, keep_add, sub_ptr, sub_idx,
                                        roll_offset)
        # forward: mass on rolls after the opening throw, then each re-throw under the best keep
        mass = np.empty((n_keeps, lanes))
        moved = np.empty((n_keeps, lanes))
        for r in range(n_rolls):
            for j in range(lanes):
                mass[roll_offset + r, j] = roll_prob[r]
        best_v = np.empty(lanes)
        best_k = np.empty(lanes, dtype=np.int64)
        for m in range(rolls - 2, -1, -1):
            table = stages[m]
            moved[:, :] = 0.0
            for r in range(n_rolls):
                full = roll_offset + r
                for j in range(lanes):
                    best_v[j] = NEG
                    best_k[j] = full
                for p in range(roll_sub_ptr[r], roll_sub_ptr[r + 1]):
                    k = roll_sub_idx[p]
                    row = table[k]
                    for j in range(lanes):
                        if row[j] > best_v[j]:
                            best_v[j] = row[j]
                            best_k[j] = k
                src = mass[full]
                for j in range(lanes):
                    moved[best_k[j], j] += src[j]
            spread_keeps(moved, keep_add, roll_offset, lanes)
            mass, moved = moved, mass
        # collapse final rolls into distinct (category, box points, extra bonus) outcomes per lane
        where = np.full(n_keys, -1, dtype=np.int64)
        for j in range(lanes):
            g = j // lu
            t = j % lu
            s = slot[i] + j
            count = 0
            for r in range(n_rolls):
                w = mass[roll_offset + r, j]
                if w == 0.0:
                    continue
                c = choice[r, j]
                allowed, pts, extra = score_choice(u, g, r, c, scores, upper_face, yacht_cat, xbonus, joker_mode,
                                                   joker_pts, roll_yacht_face, upper_cat_of_face, forced_order)
                key = (c * (max_points + 1) + pts) * 2 + (1 if extra > 0 else 0)
                q = where[key]
                if q < 0:
                    q = count
                    count += 1
                    where[key] = q
                    nu = u | (1 << c)
                    ln = n_upper_lanes[nu]
                    t2, gain = upper_step(t, pts, c, upper_face, threshold, upper_points)
                    if t2 > ln - 1:
                        t2 = ln - 1
                    ng = next_group(u, g, c, pts, yacht_cat, n_groups[nu])
                    out_target[s, q] = offset[nu] + ng * ln + t2
                    out_points[s, q] = pts + gain + extra
                    out_cat[s, q] = c
                    out_flag[s, q] = (1 if gain > 0 else 0) + (2 if extra > 0 else 0) + (4 if pts > 0 else 0)
                    out_prob[s, q] = 0.0
                out_prob[s, q] += w
            out_count[s] = count
            where[:] = -1


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


@njit(cache=True, parallel=True)
def pull_histograms(hist_src, src_off, src_len, by_target_ptr, by_target_src, by_target_q, out_points, out_prob,
                    hist_dst, dst_off, dst_len):
    """Next level's histograms, each gathered from the outcomes that lead to it (no write conflicts)."""
    for tgt in prange(by_target_ptr.shape[0] - 1):
        o_dst = dst_off[tgt]
        for e in range(by_target_ptr[tgt], by_target_ptr[tgt + 1]):
            s = by_target_src[e]
            q = by_target_q[e]
            p = out_prob[s, q]
            o = o_dst + out_points[s, q]
            h = src_off[s]
            for x in range(src_len[s]):
                hist_dst[o + x] += p * hist_src[h + x]


@njit(cache=True)
def group_by_target(n_states, out_target, out_count, dst_index, n_targets):
    """CSR of (state, outcome) pairs grouped by the next level's local state index."""
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


@njit(cache=True, parallel=True)
def simulate_optimal_grouped(start_u, start_t, start_g, start_score, throws, values, offset, n_upper_lanes,
                             n_groups, scores, upper_face, threshold, upper_points, yacht_cat, xbonus, joker_mode,
                             joker_pts, roll_yacht_face, upper_cat_of_face, forced_order, keep_add, sub_ptr, sub_idx,
                             roll_offset, roll_sub_ptr, roll_sub_idx, keep_size, out_total, out_boxes, out_bonus,
                             out_extra):
    """The optimal player's games, turn by turn: games sharing a set of used boxes share one run of
    the widget over all lanes, so many games cost about one solve plus a few look-ups per game.
    Same decisions as simulate_games in mode OPTIMAL."""
    n_games, n_turns, rolls, n_dice = throws.shape
    n_rolls, n_cats = scores.shape
    u_arr = np.full(n_games, start_u, dtype=np.int64)
    t_arr = np.full(n_games, start_t, dtype=np.int64)
    g_arr = np.full(n_games, start_g, dtype=np.int64)
    for i in range(n_games):
        out_total[i] = start_score
        out_bonus[i] = 0
        out_extra[i] = 0
        for c in range(n_cats):
            out_boxes[i, c] = -1
    full_set = (1 << n_cats) - 1
    for turn in range(n_turns):
        order = np.argsort(u_arr, kind="mergesort")
        starts = [0]
        for p in range(1, n_games):
            if u_arr[order[p]] != u_arr[order[p - 1]]:
                starts.append(p)
        starts.append(n_games)
        bounds = np.array(starts, dtype=np.int64)
        for b in prange(bounds.shape[0] - 1):
            lo = bounds[b]
            hi = bounds[b + 1]
            u = u_arr[order[lo]]
            if u == full_set:
                continue
            lu = n_upper_lanes[u]
            lanes = lu * n_groups[u]
            choice, stages = optimal_policy(u, lanes, rolls, values, offset, n_upper_lanes, n_groups, scores, upper_face,
                                            threshold, upper_points, yacht_cat, xbonus, joker_mode, joker_pts,
                                            roll_yacht_face, upper_cat_of_face, forced_order, keep_add, sub_ptr, sub_idx,
                                            roll_offset)
            for p in range(lo, hi):
                i = order[p]
                g = g_arr[i]
                t = t_arr[i]
                j = g * lu + min(t, lu - 1)
                r = throw(0, throws[i, turn, 0], n_dice, keep_add, roll_offset)
                for s in range(1, rolls):
                    table = stages[rolls - s - 1]
                    best_k = roll_offset + r
                    best_v = NEG
                    for q in range(roll_sub_ptr[r], roll_sub_ptr[r + 1]):
                        k = roll_sub_idx[q]
                        if table[k, j] > best_v:
                            best_v = table[k, j]
                            best_k = k
                    r = throw(best_k, throws[i, turn, s], n_dice - keep_size[best_k], keep_add, roll_offset)
                c = choice[r, j]
                allowed, pts, extra = score_choice(u, g, r, c, scores, upper_face, yacht_cat, xbonus, joker_mode,
                                                   joker_pts, roll_yacht_face, upper_cat_of_face, forced_order)
                t_arr[i], gain = upper_step(t, pts, c, upper_face, threshold, upper_points)
                out_total[i] += pts + gain + extra
                out_boxes[i, c] = pts
                if gain > 0:
                    out_bonus[i] = 1
                if extra > 0:
                    out_extra[i] += 1
                g_arr[i] = next_group(u, g, c, pts, yacht_cat, n_groups[u | (1 << c)])
                u_arr[i] = u | (1 << c)


# -- two players: the duel equity solve -----------------------------------------------------------------
#
# A position is (a, b, d): the mover's used boxes a, the other player's b, and d = mover's score minus
# the other's. For one pair (a, b) all reachable d in [-maxsum[b], maxsum[a]] form one contiguous lane
# vector, lane = d + maxsum[b]. After the mover scores pts in c, the other player moves in (b, a | c)
# with difference -(d + pts): the successor's vector read backwards, so every inner loop is contiguous.


@njit(cache=True, inline="always")
def duel_final_stage(a, b, buf, roll_offset, values, pair_offset, maxsum, scores, full):
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
        base = 0
        if not terminal:
            base = pair_offset[b * n_sets + na] + maxsum[na] + mb
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
                top = base - pts
                for j in range(lanes):
                    v = -values[top - j]
                    if v > row[j]:
                        row[j] = v


@njit(cache=True)
def chunk_bounds(n, chunks):
    """Split range(n) into ``chunks`` contiguous parts (start indices, length chunks + 1)."""
    k = max(1, min(n, chunks))
    bounds = np.empty(k + 1, dtype=np.int64)
    for c in range(k + 1):
        bounds[c] = c * n // k
    return bounds


@njit(cache=True, parallel=True)
def duel_level(pa, pb, values, pair_offset, maxsum, scores, full, keep_add, sub_ptr, sub_idx, roll_prob,
               roll_offset, rerolls):
    """Equities of every position of the pairs (pa[i], pb[i]) (one level), from the levels above.

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
            duel_final_stage(a, b, buf, roll_offset, values, pair_offset, maxsum, scores, full)
            run_widget(buf, keep_add, sub_ptr, sub_idx, roll_prob, roll_offset, lanes, rerolls)
            o = pair_offset[a * n_sets + b]
            for j in range(lanes):
                values[o + j] = buf[0, j]


@njit(cache=True)
def duel_widget(a, b, buf, values, pair_offset, maxsum, scores, full, keep_add, sub_ptr, sub_idx, roll_offset,
                rerolls_left):
    """Within-turn equities of pair (a, b): roll rows = best equity of each roll with ``rerolls_left``
    throws still to come (0: final-roll values)."""
    lanes = maxsum[a] + maxsum[b] + 1
    duel_final_stage(a, b, buf, roll_offset, values, pair_offset, maxsum, scores, full)
    for _ in range(rerolls_left):
        expect_keeps(buf, keep_add, roll_offset, lanes)
        best_keeps(buf, sub_ptr, sub_idx, lanes)


# -- two players: exact evaluation of one strategy against another ------------------------------------
#
# Strategy kinds for the mover: DUEL_OPTIMAL (Malina: decisions from the equity table, per lane),
# DUEL_TABLE (decisions that depend only on the mover's used set: keep_table[a, throws left - 1, roll]
# and cat_table[a, roll]), DUEL_RANDOM (never re-throws; each open category equally likely),
# DUEL_MINDFUL (Mindful Maximus: equities from both players' future-score distributions, per lane).

DUEL_OPTIMAL, DUEL_TABLE, DUEL_RANDOM, DUEL_MINDFUL = 0, 1, 2, 3


@njit(cache=True, inline="always")
def duel_successor_rows(a, b, c, pts, row, lanes, values, pair_offset, maxsum, full, choice, r, record):
    """row[j] = max(row[j], the mover's value of scoring pts in c at lane j) (recording the category
    in choice[r, j] when ``record``); the successor's vector is read backwards, contiguously."""
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
    top = pair_offset[b * (full + 1) + na] + maxsum[na] + mb - pts
    for j in range(lanes):
        v = -values[top - j]
        if v > row[j]:
            row[j] = v
            if record:
                choice[r, j] = c


@njit(cache=True, inline="always")
def best_keeps_arg(buf, arg, sub_ptr, sub_idx, lanes):
    """best_keeps that also records, for every keep and lane, which keep inside it is best (ties go to
    the larger keep, then to the first one-die-smaller keep in the list)."""
    n = buf.shape[0]
    for k in range(n):
        for j in range(lanes):
            arg[k, j] = k
    for k in range(1, n):
        dst = buf[k]
        dst_arg = arg[k]
        for p in range(sub_ptr[k], sub_ptr[k + 1]):
            src = buf[sub_idx[p]]
            src_arg = arg[sub_idx[p]]
            for j in range(lanes):
                if src[j] > dst[j]:
                    dst[j] = src[j]
                    dst_arg[j] = src_arg[j]


@njit(cache=True, inline="always")
def malina_policy(a, b, lanes, opt, choice, arg, opt_values, pair_offset, maxsum, scores, full, keep_add, sub_ptr,
                  sub_idx, roll_offset, rolls):
    """Malina's decisions for every lane of pair (a, b), from the equity table: choice[r, j] = the box
    for final roll r; arg[m][roll row, j] = the keep from that roll when m + 1 throws are left."""
    n_rolls, n_cats = scores.shape
    for r in range(n_rolls):
        for j in range(lanes):
            opt[roll_offset + r, j] = NEG
    for c in range(n_cats):
        if not (a >> c) & 1:
            for r in range(n_rolls):
                duel_successor_rows(a, b, c, scores[r, c], opt[roll_offset + r], lanes, opt_values, pair_offset,
                                    maxsum, full, choice, r, True)
    for m in range(rolls - 1):
        expect_keeps(opt, keep_add, roll_offset, lanes)
        best_keeps_arg(opt, arg[m], sub_ptr, sub_idx, lanes)


@njit(cache=True, inline="always")
def mindful_duel_policy(a, b, lanes, opt, choice, arg, zbuf, wbuf, scores, full, maxsum, fut_data, fut_off,
                        fut_start, fut_len, set_index, keep_add, sub_ptr, sub_idx, roll_offset, rolls):
    """Mindful Maximus's decisions for every lane (difference) of pair (a, b), like malina_policy: the
    value of scoring pts in c at difference d is P(d + pts + X > Y) - P(d + pts + X < Y), X and Y the
    future scores of both players under Maximus (plus the tie-break), X - Y convolved once per box."""
    n_rolls, n_cats = scores.shape
    mb = maxsum[b]
    for r in range(n_rolls):
        for j in range(lanes):
            opt[roll_offset + r, j] = NEG
    yb = set_index[b]
    ylo = 0
    ylen = 1
    if b != full:
        ylo = fut_start[yb]
        ylen = fut_len[yb]
    for c in range(n_cats):
        if (a >> c) & 1:
            continue
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
        # wbuf[e + mb] = P(e + Z > 0) - P(e + Z < 0) for e = -mb .. -mb + lanes + max points
        top = lanes + 1
        for r in range(n_rolls):
            if scores[r, c] + lanes > top:
                top = scores[r, c] + lanes
        for i in range(top):
            e = i - mb
            # P(Z <= -e) and P(Z <= -e - 1)
            k = -e - zlo
            le = 0.0 if k < 0 else (1.0 if k >= zlen else zbuf[k])
            k -= 1
            lt = 0.0 if k < 0 else (1.0 if k >= zlen else zbuf[k])
            wbuf[i] = (1.0 - le) - lt
        for r in range(n_rolls):
            pts = scores[r, c]
            tie = TIE_BREAK * (pts + mean_x)
            row = opt[roll_offset + r]
            ch = choice[r]
            for j in range(lanes):
                v = wbuf[j + pts] + tie
                if v > row[j]:
                    row[j] = v
                    ch[j] = c
    for m in range(rolls - 1):
        expect_keeps(opt, keep_add, roll_offset, lanes)
        best_keeps_arg(opt, arg[m], sub_ptr, sub_idx, lanes)


@njit(cache=True, parallel=True)
def duel_eval_level(pa, pb, ev_self, ev_other, opt_values, pair_offset, maxsum, scores, full, keep_add, sub_ptr,
                    sub_idx, roll_prob, roll_offset, rolls, kind, keep_table, cat_table, fut_data, fut_off, fut_start,
                    fut_len, set_index):
    """ev_self of pairs (pa[i], pb[i]): the mover's expected result playing strategy ``kind`` when the
    other player's values (as mover) are ev_other."""
    n_keeps = keep_add.shape[0]
    n_rolls, n_cats = scores.shape
    n_sets = full + 1
    stages_n = max(rolls - 1, 1)
    bounds = chunk_bounds(pa.shape[0], 64)
    for ch in prange(bounds.shape[0] - 1):
        most = 1
        for i in range(bounds[ch], bounds[ch + 1]):
            most = max(most, maxsum[pa[i]] + maxsum[pb[i]] + 1)
        # float32 scratch: the table itself is float32, and float32 doubles the SIMD width
        s_buf = np.empty(n_keeps * most, dtype=np.float32)
        s_opt = np.empty(n_keeps * most, dtype=np.float32)
        s_choice = np.zeros(n_rolls * most, dtype=np.int64)
        s_arg = np.empty(stages_n * n_keeps * most, dtype=np.int16)
        tops = np.empty(n_cats, dtype=np.int64)
        s_mind = np.empty(n_keeps * most if kind == DUEL_MINDFUL else 1)  # float64: ties as the player sees them
        zbuf = np.empty(2 * (fut_len.max() if kind == DUEL_MINDFUL else 1) + 1)
        wbuf = np.empty(most + scores.max() + 2)
        for i in range(bounds[ch], bounds[ch + 1]):
            a = pa[i]
            b = pb[i]
            mb = maxsum[b]
            lanes = maxsum[a] + mb + 1
            buf = s_buf[: n_keeps * lanes].reshape((n_keeps, lanes))
            choice = s_choice[: n_rolls * lanes].reshape((n_rolls, lanes))
            arg = s_arg[: stages_n * n_keeps * lanes].reshape((stages_n, n_keeps, lanes))
            if kind == DUEL_OPTIMAL:
                # Malina's own decisions: the optimal widget on the equity table, remembering the argmax
                opt = s_opt[: n_keeps * lanes].reshape((n_keeps, lanes))
                malina_policy(a, b, lanes, opt, choice, arg, opt_values, pair_offset, maxsum, scores, full, keep_add,
                              sub_ptr, sub_idx, roll_offset, rolls)
            elif kind == DUEL_MINDFUL:
                mind = s_mind[: n_keeps * lanes].reshape((n_keeps, lanes))
                mindful_duel_policy(a, b, lanes, mind, choice, arg, zbuf, wbuf, scores, full, maxsum, fut_data,
                                    fut_off, fut_start, fut_len, set_index, keep_add, sub_ptr, sub_idx, roll_offset,
                                    rolls)
            # where each category's successor vector starts (-1: both cards full after it)
            for c in range(n_cats):
                na = a | (1 << c)
                if (a >> c) & 1 or (na == full and b == full):
                    tops[c] = -1
                else:
                    tops[c] = pair_offset[b * n_sets + na] + maxsum[na] + mb
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
                if kind == DUEL_TABLE:
                    row[:] = NEG
                    c = cat_table[a, r]
                    duel_successor_rows(a, b, c, scores[r, c], row, lanes, ev_other, pair_offset, maxsum, full,
                                        choice, r, False)
                    continue
                for j in range(lanes):
                    c = choice[r, j]
                    pts = scores[r, c]
                    if tops[c] < 0:
                        d = j - mb + pts
                        row[j] = 1.0 if d > 0 else (-1.0 if d < 0 else 0.0)
                    else:
                        row[j] = -ev_other[tops[c] - pts - j]
            if kind != DUEL_RANDOM:
                for left in range(1, rolls):
                    expect_keeps(buf, keep_add, roll_offset, lanes)
                    for r in range(n_rolls):
                        full_k = roll_offset + r
                        if kind == DUEL_TABLE:
                            k = keep_table[a, left - 1, r]
                            if k != full_k:
                                for j in range(lanes):
                                    buf[full_k, j] = buf[k, j]
                        else:
                            chosen = arg[left - 1, full_k]
                            for j in range(lanes):
                                buf[full_k, j] = buf[chosen[j], j]
            opening_value(buf, roll_prob, roll_offset, lanes)
            o = pair_offset[a * n_sets + b]
            for j in range(lanes):
                ev_self[o + j] = buf[0, j]


@njit(cache=True, parallel=True)
def set_policy_tables(mode, H, values, offset, n_upper_lanes, n_groups, scores, upper_face, threshold, upper_points,
                      yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face, forced_order,
                      keep_add, sub_ptr, sub_idx, roll_offset, roll_sub_ptr, roll_sub_idx, roll_faces, rolls,
                      out_keep, out_cat):
    """Decisions of a solitaire strategy (optimal = Maximus, static, whatever) for every used set:
    out_keep[a, throws left - 1, roll] and out_cat[a, roll] (games without bonuses: no lanes)."""
    n_sets = out_cat.shape[0]
    n_rolls = scores.shape[0]
    n_keeps = keep_add.shape[0]
    for a in prange(n_sets - 1):
        buf = np.empty((n_keeps, 1))
        stages = np.empty((max(rolls - 1, 1), n_keeps))
        if mode == OPTIMAL or mode == STATIC:
            policy_stages(mode, a, 0, 0, H, values, offset, n_upper_lanes, n_groups, scores, upper_face, threshold,
                          upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face,
                          forced_order, keep_add, sub_ptr, sub_idx, roll_offset, buf, stages[:rolls - 1])
        for r in range(n_rolls):
            c, v = best_category(mode, a, 0, 0, r, H, values, offset, n_upper_lanes, n_groups, scores, upper_face,
                                 threshold, upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face,
                                 upper_cat_of_face, forced_order, 0)
            out_cat[a, r] = c
            for left in range(1, rolls):
                out_keep[a, left - 1, r] = choose_keep_index(mode, r, left, stages, roll_sub_ptr, roll_sub_idx,
                                                             roll_faces, roll_offset, 0, keep_add)


@njit(cache=True, parallel=True)
def duel_forward_level(pa, pb, mass, opt_values, pair_offset, maxsum, scores, full, keep_add, sub_ptr, sub_idx,
                       roll_prob, roll_offset, rolls, next_lo, next_mass, waives, zero_scores):
    """Push the probability of every position of pairs (pa[i], pb[i]) through one turn of optimal play.

    next_mass[w, idx - next_lo] receives the mass arriving at table index idx (one row per worker
    chunk, summed by the caller); waives[w, c] the probability of scoring 0 in c by choice although
    another open box would have scored; zero_scores[w, c] of scoring 0 in c at all."""
    n_keeps = keep_add.shape[0]
    n_rolls, n_cats = scores.shape
    n_sets = full + 1
    stages_n = max(rolls - 1, 1)
    workers = next_mass.shape[0]
    bounds = chunk_bounds(pa.shape[0], workers)
    for w in prange(bounds.shape[0] - 1):
        most = 1
        for i in range(bounds[w], bounds[w + 1]):
            most = max(most, maxsum[pa[i]] + maxsum[pb[i]] + 1)
        s_opt = np.empty(n_keeps * most)
        s_choice = np.zeros(n_rolls * most, dtype=np.int64)
        s_arg = np.empty(stages_n * n_keeps * most, dtype=np.int16)
        s_m1 = np.empty(n_keeps * most)
        s_m2 = np.empty(n_keeps * most)
        for i in range(bounds[w], bounds[w + 1]):
            a = pa[i]
            b = pb[i]
            mb = maxsum[b]
            lanes = maxsum[a] + mb + 1
            o = pair_offset[a * n_sets + b]
            total = 0.0
            for j in range(lanes):
                total += mass[o + j]
            if total == 0.0:
                continue
            opt = s_opt[: n_keeps * lanes].reshape((n_keeps, lanes))
            choice = s_choice[: n_rolls * lanes].reshape((n_rolls, lanes))
            arg = s_arg[: stages_n * n_keeps * lanes].reshape((stages_n, n_keeps, lanes))
            malina_policy(a, b, lanes, opt, choice, arg, opt_values, pair_offset, maxsum, scores, full, keep_add,
                          sub_ptr, sub_idx, roll_offset, rolls)
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
                        next_mass[w, idx - next_lo] += p


# -- future-score distribution tables (backward) -----------------------------------------------------
#
# For every turn-start state, the distribution of the points still to come under optimal (max expected
# score) play. Stored ragged: state s holds probabilities of future points start[s] .. start[s] +
# length[s] - 1 at data[off[s]:]. A state's distribution is the mixture of its turn outcomes'
# successor distributions, each shifted by the outcome's points; tails lighter than ``tail`` are cut.


@njit(cache=True, parallel=True)
def future_bounds(n_states, out_target, out_points, out_prob, out_count, tgt_start, tgt_len, lo, width):
    """Support [lo, lo + width) of each state's untrimmed distribution."""
    for s in prange(n_states):
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


@njit(cache=True, parallel=True)
def future_convolve(n_states, out_target, out_points, out_prob, out_count, src, tgt_off, tgt_start, tgt_len,
                    lo, width, scratch_off, scratch, tail, keep_from, keep_len):
    """Each state's distribution (float64 sums, stored float32 in scratch) and its trimmed range."""
    for s in prange(n_states):
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


@njit(cache=True, parallel=True)
def copy_segments(src, src_off, lens, dst, dst_off):
    for s in prange(lens.shape[0]):
        a = src_off[s]
        b = dst_off[s]
        for x in range(lens[s]):
            dst[b + x] = src[a + x]


# -- Mindful Maximus: win equity from score distributions ---------------------------------------------
#
# Every player is assumed to play Maximus from here on. G(T) is the expected result of finishing with
# total T against the opponents' final totals (their scores plus their future distributions): win
# n - 1, k tied leaders (n - k) / k each, loss -1. An option ending the turn in state s' with p points
# now is worth sum_x D_s'(x) G(cur + p + x), plus TIE_BREAK per expected point so that options of equal
# equity (a decided game) are ordered as Maximus orders them.

TIE_BREAK = 1e-12


@njit(cache=True)
def result_curve(n_players, opp_lo, opp_len, opp_off, opp_p, out):
    """out[i] = G(M_lo + i) for totals between the opponents' highest possible minimum M_lo and their
    highest maximum (below: -1, above: n - 1). Returns M_lo."""
    m = opp_lo.shape[0]
    lo = -(1 << 40)
    for q in range(m):
        if opp_lo[q] > lo:
            lo = opp_lo[q]
    coef = np.empty(m + 1)
    below = np.zeros(m)  # P(Y_q < y), advanced one total at a time
    for q in range(m):
        for x in range(opp_len[q]):
            if opp_lo[q] + x < lo:
                below[q] += opp_p[opp_off[q] + x]
    for i in range(out.shape[0]):
        y = lo + i
        for k in range(m + 1):
            coef[k] = 0.0
        coef[0] = 1.0
        above = 1.0  # P(every opponent <= y)
        for q in range(m):
            x = y - opp_lo[q]
            at_q = opp_p[opp_off[q] + x] if 0 <= x < opp_len[q] else 0.0
            below_q = below[q]
            above *= below_q + at_q
            for k in range(q + 1, 0, -1):
                coef[k] = coef[k] * below_q + coef[k - 1] * at_q
            coef[0] *= below_q
            below[q] = below_q + at_q
        g = (n_players - 1) * coef[0] - (1.0 - above)
        for k in range(1, m + 1):
            g += coef[k] * (n_players - k - 1) / (k + 1)
        out[i] = g
    return lo


@njit(cache=True, inline="always")
def curve_at(total, glo, curve, n_players):
    i = total - glo
    if i < 0:
        return -1.0
    if i >= curve.shape[0]:
        return float(n_players - 1)
    return curve[i]


@njit(cache=True, inline="always")
def mindful_option(s, p, cur, glo, curve, n_players, fut_data, fut_off, fut_start, fut_len):
    """Equity (plus the tie-break) of ending the turn in state s (-1: game over) with p points now."""
    if s < 0:
        return curve_at(cur + p, glo, curve, n_players) + TIE_BREAK * p
    v = 0.0
    o = fut_off[s]
    lo = cur + p + fut_start[s]
    for x in range(fut_len[s]):
        q = fut_data[o + x]
        v += q * (curve_at(lo + x, glo, curve, n_players) + TIE_BREAK * (p + fut_start[s] + x))
    return v


@njit(cache=True, inline="always")
def mindful_roll_values(u, g, t, cur, glo, curve, n_players, fut_data, fut_off, fut_start, fut_len, offset,
                        n_upper_lanes, n_groups, scores, upper_face, threshold, upper_points, yacht_cat, xbonus,
                        joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face, forced_order, memo, buf, choice,
                        roll_offset):
    """buf[roll row, 0] = the best option's value for each final roll; choice[r] = its category."""
    n_rolls, n_cats = scores.shape
    full = (1 << n_cats) - 1
    max_points = memo.shape[0] // (2 * n_cats) - 1
    for i in range(memo.shape[0]):
        memo[i] = np.nan
    for r in range(n_rolls):
        best = NEG
        best_c = -1
        for c in range(n_cats):
            if (u >> c) & 1:
                continue
            allowed, pts, extra = score_choice(u, g, r, c, scores, upper_face, yacht_cat, xbonus, joker_mode,
                                               joker_pts, roll_yacht_face, upper_cat_of_face, forced_order)
            if not allowed:
                continue
            key = (c * (max_points + 1) + pts) * 2 + (1 if extra > 0 else 0)
            v = memo[key]
            if np.isnan(v):
                nu = u | (1 << c)
                t2, gain = upper_step(t, pts, c, upper_face, threshold, upper_points)
                s = -1
                if nu != full:
                    ln = n_upper_lanes[nu]
                    if t2 > ln - 1:
                        t2 = ln - 1
                    ng = next_group(u, g, c, pts, yacht_cat, n_groups[nu])
                    s = offset[nu] + ng * ln + t2
                v = mindful_option(s, pts + gain + extra, cur, glo, curve, n_players, fut_data, fut_off, fut_start,
                                   fut_len)
                memo[key] = v
            if v > best:
                best = v
                best_c = c
        buf[roll_offset + r, 0] = best
        choice[r] = best_c


@njit(cache=True)
def mindful_values(u, g, t, cur, glo, curve, n_players, fut_data, fut_off, fut_start, fut_len, offset,
                   n_upper_lanes, n_groups, scores, upper_face, threshold, upper_points, yacht_cat, xbonus, joker_mode,
                   joker_pts, roll_yacht_face, upper_cat_of_face, forced_order, keep_add, sub_ptr, sub_idx,
                   roll_offset, rerolls_left, out_keep, out_cat):
    """Mindful equities within one turn: out_keep[k] = the value of keeping k when ``rerolls_left``
    throws follow the next one (-1: unused), out_cat[r, c] = scoring final roll r in c (NEG: not
    allowed)."""
    n_rolls, n_cats = scores.shape
    max_points = 0
    for r in range(n_rolls):
        for c in range(n_cats):
            if scores[r, c] > max_points:
                max_points = scores[r, c]
    max_points += xbonus + upper_points
    memo = np.empty(2 * n_cats * (max_points + 1))
    choice = np.empty(n_rolls, dtype=np.int64)
    buf = np.empty((keep_add.shape[0], 1))
    mindful_roll_values(u, g, t, cur, glo, curve, n_players, fut_data, fut_off, fut_start, fut_len, offset,
                        n_upper_lanes, n_groups, scores, upper_face, threshold, upper_points, yacht_cat, xbonus,
                        joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face, forced_order, memo, buf, choice,
                        roll_offset)
    for r in range(n_rolls):
        for c in range(n_cats):
            out_cat[r, c] = NEG
            if (u >> c) & 1:
                continue
            allowed, pts, extra = score_choice(u, g, r, c, scores, upper_face, yacht_cat, xbonus, joker_mode,
                                               joker_pts, roll_yacht_face, upper_cat_of_face, forced_order)
            if allowed:
                out_cat[r, c] = memo[(c * (max_points + 1) + pts) * 2 + (1 if extra > 0 else 0)]
    if rerolls_left >= 0:
        for m in range(rerolls_left + 1):
            if m > 0:
                best_keeps(buf, sub_ptr, sub_idx, 1)
            expect_keeps(buf, keep_add, roll_offset, 1)
        for k in range(keep_add.shape[0]):
            out_keep[k] = buf[k, 0]


# -- multi-player matches ------------------------------------------------------------------------------
#
# Player kinds: the solitaire modes above (0-4), MATCH_TABLE (decisions by used set only, Joe:
# keep_table[a, throws left - 1, roll], cat_table[a, roll]), MATCH_MINDFUL (Mindful Maximus) and
# MATCH_MALINA (the two-player equity table, played against the most dangerous opponent: the one
# against whom her two-player equity is lowest).

MATCH_TABLE, MATCH_MINDFUL, MATCH_MALINA = 5, 6, 7


@njit(cache=True, inline="always")
def duel_option(a, b, c, pts, d, dvalues, pair_offset, maxsum, full):
    """The mover's two-player equity after scoring pts in c at difference d (mover minus other)."""
    na = a | (1 << c)
    if na == full and b == full:
        e = d + pts
        return 1.0 if e > 0 else (-1.0 if e < 0 else 0.0)
    return -float(dvalues[pair_offset[b * (full + 1) + na] + maxsum[na] - (d + pts)])


@njit(cache=True)
def game_results(totals, out):
    """n-player results of one game: win n - 1, k tied leaders (n - k) / k each, the others -1."""
    n = totals.shape[0]
    top = totals.max()
    k = 0
    for p in range(n):
        if totals[p] == top:
            k += 1
    for p in range(n):
        out[p] = (n - k) / k if totals[p] == top else -1.0


@njit(cache=True, parallel=True)
def simulate_match(kinds, H, perms, throws, rand, values, offset, n_upper_lanes, n_groups, scores, upper_face,
                   threshold, upper_points, yacht_cat, xbonus, joker_mode, joker_pts, roll_yacht_face,
                   upper_cat_of_face, forced_order, keep_add, sub_ptr, sub_idx, roll_offset, roll_sub_ptr,
                   roll_sub_idx, roll_faces, keep_size, fut_data, fut_off, fut_start, fut_len, dvalues, pair_offset,
                   maxsum, keep_table, cat_table, out_total, out_result):
    """Games i = deal * n_rotations + rotation: seat s of game i is player perms[rotation, s], and seat s
    throws the deal's dice throws[deal, s, turn, throw, die] (common random numbers across rotations).
    out_total[i, player], out_result[i, player]."""
    n_deals, n_seats, n_turns, rolls, n_dice = throws.shape
    n_rot = perms.shape[0]
    n_keeps = keep_add.shape[0]
    n_rolls, n_cats = scores.shape
    full = (1 << n_cats) - 1
    max_points = 0
    for r in range(n_rolls):
        for c in range(n_cats):
            if scores[r, c] > max_points:
                max_points = scores[r, c]
    max_points += xbonus + upper_points
    max_len = fut_len.max()
    for i in prange(n_deals * n_rot):
        deal = i // n_rot
        rot = i % n_rot
        buf = np.empty((n_keeps, 1))
        stages = np.empty((max(rolls - 1, 1), n_keeps))
        memo = np.empty(2 * n_cats * (max_points + 1))
        choice = np.empty(n_rolls, dtype=np.int64)
        opp_lo = np.empty(n_seats - 1, dtype=np.int64)
        opp_len = np.empty(n_seats - 1, dtype=np.int64)
        opp_off = np.empty(n_seats - 1, dtype=np.int64)
        opp_p = np.empty((n_seats - 1) * max(max_len, 1))
        u = np.zeros(n_seats, dtype=np.int64)
        g = np.zeros(n_seats, dtype=np.int64)
        t = np.zeros(n_seats, dtype=np.int64)
        total = np.zeros(n_seats, dtype=np.int64)
        for turn in range(n_turns):
            for seat in range(n_seats):
                p = perms[rot, seat]
                kind = kinds[p]
                a = u[seat]
                dsel = -1
                if kind == OPTIMAL or kind == STATIC:
                    policy_stages(kind, a, g[seat], t[seat], H[p], values, offset, n_upper_lanes, n_groups, scores,
                                  upper_face, threshold, upper_points, yacht_cat, xbonus, joker_mode, joker_pts,
                                  roll_yacht_face, upper_cat_of_face, forced_order, keep_add, sub_ptr, sub_idx,
                                  roll_offset, buf, stages[:rolls - 1])
                elif kind == MATCH_MINDFUL or kind == MATCH_MALINA:
                    if kind == MATCH_MINDFUL:
                        # the opponents' final totals -> the expected-result curve
                        q = 0
                        used = 0
                        top = -(1 << 40)
                        lo_max = -(1 << 40)
                        for s2 in range(n_seats):
                            if s2 == seat:
                                continue
                            opp_off[q] = used
                            b = u[s2]
                            if b == full:
                                opp_lo[q] = total[s2]
                                opp_len[q] = 1
                                opp_p[used] = 1.0
                            else:
                                ln = n_upper_lanes[b]
                                tb = t[s2] if t[s2] < ln - 1 else ln - 1
                                s = offset[b] + g[s2] * ln + tb
                                opp_lo[q] = total[s2] + fut_start[s]
                                opp_len[q] = fut_len[s]
                                for x in range(fut_len[s]):
                                    opp_p[used + x] = fut_data[fut_off[s] + x]
                            used += opp_len[q]
                            if opp_lo[q] > lo_max:
                                lo_max = opp_lo[q]
                            if opp_lo[q] + opp_len[q] - 1 > top:
                                top = opp_lo[q] + opp_len[q] - 1
                            q += 1
                        curve = np.empty(top - lo_max + 1)
                        glo = result_curve(n_seats, opp_lo, opp_len, opp_off, opp_p, curve)
                        mindful_roll_values(a, g[seat], t[seat], total[seat], glo, curve, n_seats,
                                            fut_data, fut_off, fut_start, fut_len, offset, n_upper_lanes, n_groups,
                                            scores, upper_face, threshold, upper_points, yacht_cat, xbonus,
                                            joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face, forced_order,
                                            memo, buf, choice, roll_offset)
                    else:
                        # the most dangerous opponent, then the two-player policy against her
                        worst = 2.0
                        n_sets = full + 1
                        for s2 in range(n_seats):
                            if s2 == seat:
                                continue
                            b = u[s2]
                            e = float(dvalues[pair_offset[a * n_sets + b] + total[seat] - total[s2] + maxsum[b]])
                            if e < worst:
                                worst = e
                                dsel = s2
                        b = u[dsel]
                        d = total[seat] - total[dsel]
                        for r in range(n_rolls):
                            best = NEG
                            best_c = -1
                            for c in range(n_cats):
                                if (a >> c) & 1:
                                    continue
                                v = duel_option(a, b, c, scores[r, c], d, dvalues, pair_offset, maxsum, full)
                                if v > best:
                                    best = v
                                    best_c = c
                            buf[roll_offset + r, 0] = best
                            choice[r] = best_c
                    for m in range(rolls - 1):
                        if m > 0:
                            best_keeps(buf, sub_ptr, sub_idx, 1)
                        expect_keeps(buf, keep_add, roll_offset, 1)
                        for k in range(n_keeps):
                            stages[m, k] = buf[k, 0]
                r = throw(0, throws[deal, seat, turn, 0], n_dice, keep_add, roll_offset)
                for s in range(1, rolls):
                    if kind == MATCH_TABLE:
                        k = keep_table[a, rolls - s - 1, r]
                    elif kind == MATCH_MINDFUL or kind == MATCH_MALINA:
                        k = choose_keep_index(OPTIMAL, r, rolls - s, stages, roll_sub_ptr, roll_sub_idx, roll_faces,
                                              roll_offset, 0, keep_add)
                    else:
                        k = choose_keep_index(kind, r, rolls - s, stages, roll_sub_ptr, roll_sub_idx, roll_faces,
                                              roll_offset, rand[deal, seat, turn, s - 1], keep_add)
                    kept = keep_size[k]
                    if kept == n_dice:
                        break
                    r = throw(k, throws[deal, seat, turn, s], n_dice - kept, keep_add, roll_offset)
                if kind == MATCH_TABLE:
                    c = cat_table[a, r]
                elif kind == MATCH_MINDFUL or kind == MATCH_MALINA:
                    c = choice[r]
                else:
                    c, v = best_category(kind, a, g[seat], t[seat], r, H[p], values, offset, n_upper_lanes, n_groups,
                                         scores, upper_face, threshold, upper_points, yacht_cat, xbonus, joker_mode,
                                         joker_pts, roll_yacht_face, upper_cat_of_face, forced_order,
                                         rand[deal, seat, turn, rolls - 1])
                allowed, pts, extra = score_choice(a, g[seat], r, c, scores, upper_face, yacht_cat, xbonus,
                                                   joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face,
                                                   forced_order)
                t2, gain = upper_step(t[seat], pts, c, upper_face, threshold, upper_points)
                total[seat] += pts + gain + extra
                g[seat] = next_group(a, g[seat], c, pts, yacht_cat, n_groups[a | (1 << c)])
                t[seat] = t2
                u[seat] = a | (1 << c)
        res = np.empty(n_seats)
        game_results(total, res)
        for seat in range(n_seats):
            out_total[i, perms[rot, seat]] = total[seat]
            out_result[i, perms[rot, seat]] = res[seat]
