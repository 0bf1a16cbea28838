"""Playing for a target score: for every turn-start state of a solitaire scorecard game and every need n
from 0 to N, the best chance of scoring more than n further points, where scoring exactly n counts ``tie``
(1: "at least n", the target; 1/2: "beat n, ties half", the score to beat).

``V[index * (N + 1) + n]`` for the solitaire table's state ``index`` (used set, yacht-bonus group, capped
upper total). The full card's row is (tie, 0, ..., 0), set before the solve. A turn is the expected-score
widget with a vector of N + 1 needs for lanes: the final stage takes, for each roll and each need, the best
box's chance of the need left after its points (bonuses included; past the need: certain), and the keep
stages average and maximise need by need. Every state's vector is computed from the level above, so levels
are solved backwards as in the expected-score solve.
"""

import numpy as np

from ...core.jit import njit, prange
from .scoring import next_group, score_choice, upper_step
from .widget import run_widget


@njit(cache=True, fastmath=True, inline="always")
def take_best(row, V, src, W, total):
    """row[n] = max(row[n], V[src, n - total]) for the W = N + 1 needs n; past the need (n < total): certain."""
    for n in range(min(total, W)):
        row[n] = 1.0
    base = src * W - total
    for n in range(total, W):
        v = V[base + n]
        if v > row[n]:
            row[n] = v


@njit(cache=True, parallel=True)
def target_level(us, V, N, offset, n_upper_lanes, n_groups, scores, upper_face, threshold, upper_points, yacht_cat,
                 xbonus, joker_mode, joker_pts, roll_yacht_face, upper_cat_of_face, forced_order, keep_add, sub_ptr,
                 sub_idx, roll_prob, roll_offset, rerolls):
    """Every state of the used sets ``us`` (one level), from the level above (already in V)."""
    n_keeps = keep_add.shape[0]
    n_rolls, n_cats = scores.shape
    W = N + 1
    for i in prange(us.shape[0]):
        u = us[i]
        lu = n_upper_lanes[u]
        gu = n_groups[u]
        buf = np.empty((n_keeps, W))
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
                        take_best(buf[roll_offset + r], V, offset[nu] + ng * ln + tn, W, pts + extra + bonus)
                run_widget(buf, keep_add, sub_ptr, sub_idx, roll_prob, roll_offset, W, rerolls)
                o = (offset[u] + g * lu + t) * W
                for n in range(W):
                    V[o + n] = buf[0, n]
