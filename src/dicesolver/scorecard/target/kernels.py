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

from ...core.jit import borrowed, njit
from ...core.kernels import lend_graph
from ..game.kernels.played import lend_played
from ..game.kernels.scoring import bonus_step, code_of, fill_box, lane_of, lend, next_group, score_choice
from ..turn.kernels.widget import best_keeps, expect_keeps, run_widget


LANE_BLOCK = 128  # needs worked on at once: a turn's scratch of 128 needs (Yahtzee: 0.5 MB) stays in the core's cache


@njit(cache=True, fastmath=True, inline="always")
def take_best(row, V, src, W, total, first, lanes):
    """row[j] = max(row[j], V[src, n - total]) for the needs n = first + j, j < lanes (of the W = N + 1 needs);
    past the need (n < total): certain."""
    base = src * W - total
    for j in range(lanes):
        n = first + j
        if n < total:
            row[j] = 1.0
        else:
            v = V[base + n]
            if v > row[j]:
                row[j] = v


@njit(cache=True)
def most_points(us, level_ptr, rules, most):
    """most[row] = the most points a game can have scored on reaching turn-start row (-1: never reached), given
    most[start] = 0: forward over the levels of used sets ``us[level_ptr[k]:level_ptr[k + 1]]``, every box and
    roll from every row reached. A goal on the final score with a fixed aim A needs, at a row, only the needs
    from A - most[row] up (``target_level``'s ``first_need``)."""
    rules = lend(rules)
    offset, n_bonus_lanes, n_groups = rules.offset, rules.n_bonus_lanes, rules.n_groups
    n_rolls, n_cats = rules.scores.shape
    # a box's outcomes (points, extra, next group) hang on the set and group, not on the bonus lane: the
    # distinct ones, found once, serve every lane (Yatzy: a few dozen outcomes against 252 rolls, 64 lanes)
    seen_pts = np.empty(n_rolls, dtype=np.int64)
    seen_extra = np.empty(n_rolls, dtype=np.int64)
    seen_group = np.empty(n_rolls, dtype=np.int64)
    for k in range(level_ptr.shape[0] - 1):
        for i in range(level_ptr[k], level_ptr[k + 1]):
            u = us[i]
            lu = n_bonus_lanes[u]
            for g in range(n_groups[u]):
                base = offset[u] + g * lu
                reached = False
                for t in range(lu):
                    reached = reached or most[base + t] >= 0
                if not reached:
                    continue
                for c in range(n_cats):
                    if (u >> c) & 1:
                        continue
                    nu = u | (1 << c)
                    ln = n_bonus_lanes[nu]
                    gn = n_groups[nu]
                    n_seen = 0
                    for r in range(n_rolls):
                        allowed, pts, extra = score_choice(u, g, r, c, rules)
                        if not allowed:
                            continue
                        ng = next_group(u, g, c, pts, extra, rules, gn)
                        new = True
                        for j in range(n_seen):
                            if seen_pts[j] == pts and seen_extra[j] == extra and seen_group[j] == ng:
                                new = False
                                break
                        if new:
                            seen_pts[n_seen], seen_extra[n_seen], seen_group[n_seen] = pts, extra, ng
                            n_seen += 1
                    for t in range(lu):
                        m = most[base + t]
                        if m < 0:
                            continue
                        for j in range(n_seen):
                            pts = seen_pts[j]
                            tn, bonus = bonus_step(code_of(u, t, rules), pts, c, rules)
                            row = offset[nu] + seen_group[j] * ln + lane_of(nu, tn, rules)
                            v = m + pts + seen_extra[j] + bonus
                            if v > most[row]:
                                most[row] = v


@njit(cache=True, nogil=True)
def target_level(stripe, stripes, us, V, N, first_need, rules, graph, rerolls):
    """Every state of the used sets us[stripe], us[stripe + stripes], ... (one level), from the level above
    (already in V), on the calling thread without the GIL (Python's threads run one stripe each). A row's
    needs below ``first_need[row]`` are left as they are (a goal's needs that no game reaches there; a row
    with first_need > N is never reached)."""
    rules, graph = lend(rules), lend_graph(graph)
    offset, n_bonus_lanes, n_groups = rules.offset, rules.n_bonus_lanes, rules.n_groups
    scores = rules.scores
    keep_add, sub_ptr, sub_idx, roll_prob = graph.keep_add, graph.sub_ptr, graph.sub_idx, graph.roll_prob
    roll_offset = graph.roll_offset
    # the caller owns every array for the call: borrowed views cost no reference counts in the loops
    us, V = borrowed(us), borrowed(V)
    n_keeps = keep_add.shape[0]
    n_rolls, n_cats = scores.shape
    W = N + 1
    block = min(W, LANE_BLOCK)
    buf = np.empty((n_keeps, block))  # the thread's scratch, for all its sets: a block of needs at a time
    for i in range(stripe, us.shape[0], stripes):
        u = us[i]
        lu = n_bonus_lanes[u]
        gu = n_groups[u]
        for g in range(gu):
            for t in range(lu):
                o = (offset[u] + g * lu + t) * W
                # each need's value is its own: the needs go block by block
                for first in range(first_need[offset[u] + g * lu + t], W, block):
                    lanes = min(block, W - first)
                    for r in range(n_rolls):
                        buf[roll_offset + r, :lanes] = 0.0
                    for c in range(n_cats):
                        if (u >> c) & 1:
                            continue
                        nu = u | (1 << c)
                        ln = n_bonus_lanes[nu]
                        gn = n_groups[nu]
                        for r in range(n_rolls):
                            allowed, pts, extra = score_choice(u, g, r, c, rules)
                            if not allowed:
                                continue
                            ng = next_group(u, g, c, pts, extra, rules, gn)
                            tn, bonus = bonus_step(code_of(u, t, rules), pts, c, rules)
                            take_best(buf[roll_offset + r], V, offset[nu] + ng * ln + lane_of(nu, tn, rules), W,
                                      pts + extra + bonus, first, lanes)
                    run_widget(buf, keep_add, sub_ptr, sub_idx, roll_prob, roll_offset, lanes, rerolls)
                    for j in range(lanes):
                        V[o + first + j] = buf[0, j]


# -- playing for the target: one decision at a time from the table, and many games --------------------------


@njit(cache=True, inline="always")
def box_chance(u, g, t, r, c, need, V, W, rules):
    """(allowed, chance for ``need`` after scoring roll r in box c, box points, bonus gained, extra)."""
    offset, n_bonus_lanes, n_groups = rules.offset, rules.n_bonus_lanes, rules.n_groups
    allowed, pts, extra = score_choice(u, g, r, c, rules)
    if not allowed:
        return False, -1.0, 0, 0, 0
    t2, gain = bonus_step(t, pts, c, rules)
    rest = need - (pts + gain + extra)
    if rest < 0:
        return True, 1.0, pts, gain, extra
    nu = u | (1 << c)
    ln = n_bonus_lanes[nu]
    ng = next_group(u, g, c, pts, extra, rules, n_groups[nu])
    return True, float(V[(offset[nu] + ng * ln + lane_of(nu, t2, rules)) * W + rest]), pts, gain, extra


@njit(cache=True, inline="always")
def target_box(u, g, t, r, need, V, W, rules):
    """The box to score roll r in for the best chance of ``need`` more points: (box, chance); between equal
    chances (past the need, or out of reach) the most points now, then the first box."""
    scores = rules.scores
    best_c, best_v, best_now = -1, -2.0, -1
    for c in range(scores.shape[1]):
        if (u >> c) & 1:
            continue
        ok, v, pts, gain, extra = box_chance(u, g, t, r, c, need, V, W, rules)
        now = pts + gain + extra
        if ok and (v > best_v or (v == best_v and now > best_now)):
            best_c, best_v, best_now = c, v, now
    return best_c, best_v


@njit(cache=True)  # called, not inlined: a turn's work dwarfs the call, and each caller compiles faster
def target_stages(u, g, t, need, V, W, rules, graph, buf, stages):
    """stages[m, k] = the best chance of ``need`` after keeping k when m more throws follow the next one."""
    rules, graph = lend(rules), lend_graph(graph)
    scores = rules.scores
    # borrowed, as in bots.kernels.policy_stages: counting each array's references for every roll and box
    # made a turn several times slower
    V, buf, stages = borrowed(V), borrowed(buf), borrowed(stages)
    for r in range(scores.shape[0]):
        c, v = target_box(u, g, t, r, need, V, W, rules)
        buf[graph.roll_offset + r, 0] = v
    for m in range(stages.shape[0]):
        if m > 0:
            best_keeps(buf, graph.sub_ptr, graph.sub_idx, 1)
        expect_keeps(buf, graph.keep_add, graph.roll_offset, 1)
        for k in range(buf.shape[0]):
            stages[m, k] = buf[k, 0]


@njit(cache=True, inline="always")
def target_keep(r, rolls_left, stages, graph):
    """The keep from roll r with the best chance (ties: the first in the roll's list of keeps)."""
    best_k, best_v = graph.roll_offset + r, -2.0
    table = stages[rolls_left - 1]
    for p in range(graph.roll_sub_ptr[r], graph.roll_sub_ptr[r + 1]):
        k = graph.roll_sub_idx[p]
        if table[k] > best_v:
            best_k, best_v = k, table[k]
    return best_k


@njit(cache=True)
def decide_target_keep(u, g, t, r, rolls_left, need, V, W, rules, graph):
    """One keep decision of the target strategy (called from Python by its player)."""
    rules, graph = lend(rules), lend_graph(graph)
    n_keeps = graph.keep_add.shape[0]
    buf = np.empty((n_keeps, 1))
    stages = np.empty((rolls_left, n_keeps))
    target_stages(u, g, t, need, V, W, rules, graph, buf, stages)
    return target_keep(r, rolls_left, stages, graph)


@njit(cache=True)
def decide_target_box(u, g, t, r, need, V, W, rules):
    """One box decision of the target strategy (called from Python by its player)."""
    rules = lend(rules)
    return target_box(u, g, t, r, need, V, W, rules)[0]


@njit(cache=True, nogil=True)
def target_games(stripe, stripes, aim, start, throws, V, W, rules, graph, out):
    """Play throws.shape[0] games for a final score of ``aim`` from one start (used set, progress code, flag
    group, score), with the pre-drawn dice ``throws[game, turn, throw, die]`` (the same arrays as the other
    strategies' simulation), into ``out`` (``PlayedGames``): games stripe, stripe + stripes, ... on the calling
    thread, without the GIL."""
    rules, graph, out = lend(rules), lend_graph(graph), lend_played(out)
    start_u, start_t, start_g, start_score = start
    keep_add, roll_offset, keep_size = graph.keep_add, graph.roll_offset, graph.keep_size
    out_total, out_boxes, out_bonus, out_extra = out.total, out.boxes, out.bonus, out.extra
    scores = rules.scores
    # the caller owns every array for the call: borrowed views cost no reference counts in the loops
    throws, V = borrowed(throws), borrowed(V)
    n_games, n_turns, rolls, n_dice = throws.shape
    n_keeps = keep_add.shape[0]
    n_cats = scores.shape[1]
    buf = np.empty((n_keeps, 1))  # the thread's scratch, for all its games
    stages = np.empty((max(rolls - 1, 1), n_keeps))
    for i in range(stripe, n_games, stripes):
        u, t, g, total, bonus, extras = start_u, start_t, start_g, start_score, 0, 0
        for c in range(n_cats):
            out_boxes[i, c] = -1
        for turn in range(n_turns):
            if u == (1 << n_cats) - 1:
                break
            need = aim - total
            target_stages(u, g, t, need, V, W, rules, graph, buf, stages[:rolls - 1])
            r = 0
            for d in range(n_dice):
                r = keep_add[r, throws[i, turn, 0, d] - 1]
            r -= roll_offset
            for s in range(1, rolls):
                k = target_keep(r, rolls - s, stages, graph)
                for d in range(n_dice - keep_size[k]):
                    k = keep_add[k, throws[i, turn, s, d] - 1]
                r = k - roll_offset
            c, v = target_box(u, g, t, r, need, V, W, rules)
            ok, v, pts, gain, extra = box_chance(u, g, t, r, c, need, V, W, rules)
            total += pts + gain + extra
            if gain > 0:
                bonus = 1
            if extra > 0:
                extras += 1
            u, g, t = fill_box(u, g, t, c, pts, extra, out_boxes, i, rules)
        out_total[i] = total
        out_bonus[i] = bonus
        out_extra[i] = extras
