"""Playing for a target score: the best probability of scoring at least n more points, for every
turn-start state of a solitaire scorecard game and every n from 1 to N (n <= 0: certain).

``V[index * N + n - 1]`` for the solitaire table's state ``index`` (used set, yacht-bonus group, capped
upper total). A turn is the expected-score widget with a vector of N needs for lanes: the final stage
takes, for each roll and each need, the best box's chance of the need left after its points (bonuses
included), and the keep stages average and maximise need by need. Every state's vector is computed from
the level above, so levels are solved backwards as in the expected-score solve.
"""

import numpy as np

from ...core.jit import njit, prange
from .scoring import next_group, score_choice, upper_step
from .widget import run_widget


@njit(cache=True, fastmath=True, inline="always")
def take_best(row, V, src, N, total):
    """row[n - 1] = max(row[n - 1], chance of n - total more points from state ``src``) for n = 1..N."""
    for n in range(1, min(total, N) + 1):
        row[n - 1] = 1.0  # the box's points reach the need: certain
    base = src * N - 1 - total
    for n in range(max(total + 1, 1), N + 1):
        v = V[base + n]
        if v > row[n - 1]:
            row[n - 1] = v


@njit(cache=True, parallel=True)
def target_level(us, V, N, offset, n_upper_lanes, n_groups, scores, upper_face, threshold, upper_points, yacht_cat,
                 xbonus, joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face, forced_order, keep_add, sub_ptr,
                 sub_idx, roll_prob, roll_offset, rerolls):
    """Every state of the used sets ``us`` (one level), from the level above (already in V)."""
    n_keeps = keep_add.shape[0]
    n_rolls, n_cats = scores.shape
    for i in prange(us.shape[0]):
        u = us[i]
        lu = n_upper_lanes[u]
        gu = n_groups[u]
        buf = np.empty((n_keeps, N))
        for g in range(gu):
            for t in range(lu):
                for r in range(n_rolls):
                    buf[roll_offset + r, :] = 0.0
                for c in range(n_cats):
                    if (u >> c) & 1:
                        continue
                    nu = u | (1 << c)
                    ln = n_upper_lanes[nu]
                    gn = n_groups[nu]
                    for r in range(n_rolls):
                        allowed, pts, extra = score_choice(u, g, r, c, scores, upper_face, yacht_cat, xbonus,
                                                           joker_mode, joker_pts, roll_yacht_face,
                                                           upper_cat_of_face, forced_order)
                        if not allowed:
                            continue
                        ng = next_group(u, g, c, pts, yacht_cat, gn)
                        tn = t
                        bonus = 0
                        if upper_face[c] > 0 and threshold > 0:
                            tn, bonus = upper_step(t, pts, c, upper_face, threshold, upper_points)
                        if ln == 1:
                            tn = 0
                        take_best(buf[roll_offset + r], V, offset[nu] + ng * ln + tn, N, pts + extra + bonus)
                run_widget(buf, keep_add, sub_ptr, sub_idx, roll_prob, roll_offset, N, rerolls)
                o = (offset[u] + g * lu + t) * N
                for n in range(N):
                    V[o + n] = buf[0, n]
