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
        gain = 0
        t2 = t
        if upper_face[c] > 0 and threshold > 0:
            t2 = t + pts
            if t2 >= threshold:
                t2 = threshold
                if t < threshold:
                    gain = upper_points
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
