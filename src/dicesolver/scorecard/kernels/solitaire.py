"""The solitaire expected-score solve: the best value of scoring each final roll for every lane of a set of
used boxes, and the level-by-level backward induction over those sets.

A *lane* is one value of the state that does not change the dice: the capped upper total, and the
yacht-bonus flag group. All lanes of one set of used categories go through the widget together.
"""

import numpy as np

from ...core.jit import njit, prange
from .scoring import next_group, score_choice, upper_step
from .widget import NEG, run_widget


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
