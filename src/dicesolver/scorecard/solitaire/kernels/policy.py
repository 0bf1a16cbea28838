"""The optimal (max expected score) policy of one set of used boxes, for every lane at once: the category
chosen for each final roll and the value of every keep at every stage of the turn.
"""

import numpy as np

from ....core.jit import njit
from ...game.kernels.scoring import bonus_step, code_of, lane_of, next_group, score_choice
from ...turn.kernels.widget import NEG, best_keeps, expect_keeps


@njit(cache=True, inline="always")
def final_choice(u, buf, choice, roll_offset, values, rules):
    """Like final_stage, also recording the chosen category (the first best, as best_category does)."""
    offset, n_bonus_lanes, n_groups, scores = rules.offset, rules.n_bonus_lanes, rules.n_groups, rules.scores
    n_rolls, n_cats = scores.shape
    lu = n_bonus_lanes[u]
    gu = n_groups[u]
    for r in range(n_rolls):
        for j in range(lu * gu):
            buf[roll_offset + r, j] = NEG
            choice[r, j] = -1
    for c in range(n_cats):
        if (u >> c) & 1:
            continue
        nu = u | (1 << c)
        ln = n_bonus_lanes[nu]
        gn = n_groups[nu]
        base = offset[nu]
        for g in range(gu):
            for r in range(n_rolls):
                allowed, pts, extra = score_choice(u, g, r, c, rules)
                if not allowed:
                    continue
                ng = next_group(u, g, c, pts, extra, rules, gn)
                for t in range(lu):
                    t2, gain = bonus_step(code_of(u, t, rules), pts, c, rules)
                    v = pts + gain + extra + values[base + ng * ln + lane_of(nu, t2, rules)]
                    j = g * lu + t
                    if v > buf[roll_offset + r, j]:
                        buf[roll_offset + r, j] = v
                        choice[r, j] = c


@njit(cache=True, inline="always")
def optimal_policy(u, lanes, rolls, values, rules, graph):
    """The optimal policy of every lane of used set u: choice[r, lane] = the category for final roll r;
    stages[m][k, lane] = the value of keeping k when m more throws follow the next one."""
    scores = rules.scores
    n_keeps = graph.keep_add.shape[0]
    n_rolls = scores.shape[0]
    buf = np.empty((n_keeps, lanes))
    choice = np.empty((n_rolls, lanes), dtype=np.int64)
    final_choice(u, buf, choice, graph.roll_offset, values, rules)
    return choice, keep_stages(buf, rolls, graph, lanes)


@njit(cache=True, inline="always")
def keep_stages(buf, rolls, graph, lanes):
    """From final-roll values in buf's roll rows: stages[m][k, lane] = the value of keeping k when m more
    throws follow the next one (buf is used up)."""
    stages = np.empty((max(rolls - 1, 1), graph.keep_add.shape[0], lanes))
    for m in range(rolls - 1):
        if m > 0:
            best_keeps(buf, graph.sub_ptr, graph.sub_idx, lanes)
        expect_keeps(buf, graph.keep_add, graph.roll_offset, lanes)
        # element by element: assigning an array to a slice compiles numba's shape-mismatch message (core.jit)
        for copy_row in range(buf.shape[0]):
            for copy_lane in range(lanes):
                stages[m, copy_row, copy_lane] = buf[copy_row, copy_lane]
    return stages
