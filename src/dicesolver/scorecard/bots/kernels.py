"""Playing: the decisions of the built-in solitaire strategies, and fast simulation of many games.
"""

from typing import NamedTuple

import numpy as np

from ...core.jit import borrowed, njit, prange
from ...core.kernels import lend_graph
from ..game.kernels.played import lend_played
from ..game.kernels.scoring import bonus_step, fill_box, lane_of, lend, next_group, score_choice, state_key
from ..turn.kernels.risk import risk_of, to_utility
from ..turn.kernels.widget import NEG, best_keeps, expect_keeps

#
# Modes: 0 optimal (max expected final score from the solved table); 1 static hand values H[roll, cat]
# (greedy and the Yacht Dice notebook's agents: keeps maximise the expected best H this turn, the category is the best
# H); 2 random (random keeps and categories); 3 semi-random (random keeps, most points now);
# 4 whatever (never re-rolls, most points now). Ties go to the lowest keep index / first category.

OPTIMAL, STATIC, RANDOM, SEMI_RANDOM, WHATEVER = 0, 1, 2, 3, 4
MEAN = np.array((-1.0, 0.0, 0.0))  # the goal of every strategy but a risk appetite's (``solitaire.table.goal_of``)
MEMO_TURNS = 4  # a simulation's turns whose stages are kept (many games meet the same state early on)


class KnownStages(NamedTuple):
    """The keep values (``policy_stages``) a simulation reads rather than works out: a static strategy's for
    every used set and flag group (``table[u, g]``, from ``static_stage_table``; its first dimension 0 for
    none), and the memo of early turns' (``play_game_alone``: ``memo_keys[slot]`` the state's key, -1 for
    none, ``memo_stages[slot]`` its stages), one per stripe (a leading dimension) in ``simulate_games``."""

    table: np.ndarray
    memo_keys: np.ndarray
    memo_stages: np.ndarray


@njit(cache=True, inline="always")
def choice_value(mode, u, g, t, r, c, H, values, rules):
    """(allowed, value for the strategy, points now incl. bonuses, box points, set bonuses gained, extra)."""
    offset, n_bonus_lanes, n_groups, scores = rules.offset, rules.n_bonus_lanes, rules.n_groups, rules.scores
    allowed, pts, extra = score_choice(u, g, r, c, rules)
    if not allowed:
        return False, NEG, 0, 0, 0, 0
    t2, gain = bonus_step(t, pts, c, rules)
    now = pts + gain + extra
    if mode == OPTIMAL:
        nu = u | (1 << c)
        ln = n_bonus_lanes[nu]
        ng = next_group(u, g, c, pts, extra, rules, n_groups[nu])
        return True, now + values[offset[nu] + ng * ln + lane_of(nu, t2, rules)], now, pts, gain, extra
    if mode == STATIC:
        return True, H[r, c] + (pts - scores[r, c]) + extra, now, pts, gain, extra
    return True, float(now), now, pts, gain, extra


@njit(cache=True, inline="always")
def best_category(mode, u, g, t, r, H, values, rules, rnum):
    """The category the strategy scores roll r in: (category, value)."""
    scores = rules.scores
    if mode == RANDOM:
        # int64 each: a caller's literal 0 would compile it once more
        return random_category(np.int64(u), np.int64(g), np.int64(t), np.int64(r), H, values, rules,
                               np.int64(rnum))
    best_c = -1
    best_v = NEG
    for c in range(scores.shape[1]):
        if (u >> c) & 1:
            continue
        ok, v, now, pts, gain, extra = choice_value(
            mode, u, g, t, r, c, H, values, rules)
        if ok and v > best_v:
            best_v = v
            best_c = c
    return best_c, best_v


# called, not inlined: every kernel that plays inlines best_category, and each inlined copy of choice_value
# cost seconds of compilation there (policy_stages compiled in 5.2 s with the random strategy inlined, 2.1 s
# without); the random strategy is never the one timed
@njit(cache=True)
def random_category(u, g, t, r, H, values, rules, rnum):
    """The random strategy's category: the (rnum mod count)-th of the ``count`` boxes it may fill."""
    rules = lend(rules)
    scores = rules.scores
    n_cats = scores.shape[1]
    count = 0
    for c in range(n_cats):
        if not (u >> c) & 1 and score_choice(u, g, r, c, rules)[0]:
            count += 1
    pick = rnum % count
    for c in range(n_cats):
        if not (u >> c) & 1:
            ok, v, now, pts, gain, extra = choice_value(
                RANDOM, u, g, t, r, c, H, values, rules)
            if ok:
                if pick == 0:
                    return c, v
                pick -= 1
    return -1, NEG


@njit(cache=True)  # called, not inlined: a turn's work dwarfs the call, and each caller compiles faster
def policy_stages(mode, u, g, t, H, values, rules, graph, buf, stages, goal):
    """stages[m, k] = the strategy's value of keeping k when m more throws follow the next one; for the risk
    appetite of ``goal`` (``values`` its certainty equivalents), its utility, which orders the keeps alike."""
    rules, graph = lend(rules), lend_graph(graph)
    scores = rules.scores
    # borrowed: in a function of its own, every array handed to the inlined helpers had its reference count
    # changed for every roll and box, which made a turn six times slower (21 -> 129 µs for Yahtzee)
    H, values = borrowed(H), borrowed(values)
    buf, stages = borrowed(buf), borrowed(stages)
    n_rolls = scores.shape[0]
    for r in range(n_rolls):
        c, v = best_category(mode, u, g, t, r, H, values, rules, 0)
        buf[graph.roll_offset + r, 0] = v
    theta = risk_of(goal)
    if theta != 0.0:
        to_utility(buf, graph.roll_offset, buf.shape[0], 1, theta, np.empty(1))
    for m in range(stages.shape[0]):
        if m > 0:
            best_keeps(buf, graph.sub_ptr, graph.sub_idx, 1)
        expect_keeps(buf, graph.keep_add, graph.roll_offset, 1)
        for k in range(buf.shape[0]):
            stages[m, k] = buf[k, 0]


# The same, inlined: the vectorised env's judge calls it at every turn of every game, inside its parallel loop,
# with the literal mode OPTIMAL, which prunes the other strategies. Called there (its arrays borrowed), the
# judged env stepped 23% slower; the other kernels keep the call, which compiles in a third of the time.
policy_stages_inlined = njit(cache=True, inline="always")(policy_stages.py_func)


@njit(cache=True, inline="always")
def choose_keep_index(mode, r, rolls_left, stages, rbits, graph):
    """The keep (index) the strategy holds from roll r with ``rolls_left`` throws still allowed (``rbits``: a
    random strategy's choice of dice)."""
    roll_faces, keep_add = graph.roll_faces, graph.keep_add
    full = graph.roll_offset + r
    if mode == WHATEVER:
        return full
    if mode == RANDOM or mode == SEMI_RANDOM:
        # keep each die with probability 1/2: one of the 2^n subsets of dice positions, as in the Yacht Dice notebook
        k = 0
        for d in range(roll_faces.shape[1]):
            if (rbits >> d) & 1:
                k = keep_add[k, roll_faces[r, d] - 1]
        return k
    best_k = full
    best_v = NEG
    table = stages[rolls_left - 1]
    for p in range(graph.roll_sub_ptr[r], graph.roll_sub_ptr[r + 1]):
        k = graph.roll_sub_idx[p]
        if table[k] > best_v:
            best_v = table[k]
            best_k = k
    return best_k


@njit(cache=True, inline="always")
def throw(k, faces, count, graph):
    """Roll index after adding ``count`` thrown dice (faces[0:count]) to keep k."""
    for d in range(count):
        k = graph.keep_add[k, faces[d] - 1]
    return k - graph.roll_offset


@njit(cache=True)
def decide_keep(mode, H, u, g, t, r, rolls_left, rbits, values, rules, graph, rolls, goal):
    """One keep decision of a built-in strategy (called from Python by the players; ``goal``: the optimal
    strategy's, ``MEAN`` or a risk appetite's)."""
    rules, graph = lend(rules), lend_graph(graph)
    n_keeps = graph.keep_add.shape[0]
    stages = np.empty((max(rolls - 1, 1), n_keeps))
    if mode == OPTIMAL or mode == STATIC:
        buf = np.empty((n_keeps, 1))
        policy_stages(mode, u, g, t, H, values, rules, graph, buf, stages[:rolls_left], goal)
    return choose_keep_index(mode, r, rolls_left, stages, rbits, graph)


@njit(cache=True)
def decide_category(mode, H, u, g, t, r, rnum, values, rules):
    """One category decision of a built-in strategy (called from Python by the players)."""
    rules = lend(rules)
    c, v = best_category(mode, u, g, t, r, H, values, rules, rnum)
    return c


@njit(cache=True, nogil=True)
def simulate_games(stripe, n_stripes, mode, H, start, throws, rand, values, rules, graph, known, goal, out):
    """Play part ``stripe`` of ``n_stripes`` of the throws.shape[0] games from one start state (used set,
    progress code, flag group, score) with the pre-drawn dice ``throws[game, turn, throw, die]`` and random
    numbers ``rand[game, turn, throw]`` (common random numbers across strategies), into ``out``
    (``PlayedGames``); Python's threads run the stripes (``core.jit.Stripes``: a ``prange`` here compiled
    numba's parfor, 2-3 s of a first simulation). ``known``: the stages read rather than worked out
    (``KnownStages``, with a memo for each stripe)."""
    rules, graph = lend(rules), lend_graph(graph)
    mine = KnownStages(known.table, known.memo_keys[stripe], known.memo_stages[stripe])
    n = throws.shape[0]
    for i in range(stripe * n // n_stripes, (stripe + 1) * n // n_stripes):
        play_game_alone(np.int64(i), mode, H, start, throws, rand, values, rules, graph, mine, goal, out)


@njit(cache=True)
def play_game_alone(i, mode, H, start, throws, rand, values, rules, graph, known, goal, out):
    """Game i of ``simulate_games``. The stages of a turn depend on its state alone (used set, flag group, upper
    total): those of the first MEMO_TURNS turns, which many games share, are kept in the stripe's memo of
    ``known.memo_keys.shape[0]`` slots and read again rather than worked out (21 µs a Yahtzee turn)."""
    rules, graph, out = lend(rules), lend_graph(graph), lend_played(out)
    start_u, start_t, start_g, start_score = start
    scores = rules.scores
    # borrowed: the caller owns them for the call (counted, every thread adds to their shared counts)
    H, throws, rand, values = borrowed(H), borrowed(throws), borrowed(rand), borrowed(values)
    out_total, out_boxes, out_bonus, out_extra = out.total, out.boxes, out.bonus, out.extra
    stage_table, memo_keys = borrowed(known.table), borrowed(known.memo_keys)
    memo_stages = borrowed(known.memo_stages)
    n_games, n_turns, rolls, n_dice = throws.shape
    n_slots = memo_keys.shape[0]
    n_keeps = graph.keep_add.shape[0]
    n_cats = scores.shape[1]
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
        if mode == STATIC and stage_table.shape[0] > 0:
            for m in range(rolls - 1):
                for k in range(n_keeps):
                    stages[m, k] = stage_table[u, g, m, k]
        elif mode == OPTIMAL or mode == STATIC:
            key = state_key(u, g, t, rules)
            slot = key % n_slots if turn < MEMO_TURNS and n_slots > 0 else -1
            if slot >= 0 and memo_keys[slot] == key:
                for m in range(rolls - 1):
                    for k in range(n_keeps):
                        stages[m, k] = memo_stages[slot, m, k]
            else:
                policy_stages(mode, u, g, t, H, values, rules, graph, buf, stages[:rolls - 1], goal)
                if slot >= 0:
                    memo_keys[slot] = key
                    for m in range(rolls - 1):
                        for k in range(n_keeps):
                            memo_stages[slot, m, k] = stages[m, k]
        r = throw(0, throws[i, turn, 0], n_dice, graph)
        for s in range(1, rolls):
            k = choose_keep_index(mode, r, rolls - s, stages, rand[i, turn, s - 1], graph)
            r = throw(k, throws[i, turn, s], n_dice - graph.keep_size[k], graph)
        c, v = best_category(mode, u, g, t, r, H, values, rules, rand[i, turn, rolls - 1])
        ok, pts, extra = score_choice(u, g, r, c, rules)
        gain = bonus_step(t, pts, c, rules)[1]
        total += pts + gain + extra
        if gain > 0:
            bonus = 1
        if extra > 0:
            extras += 1
        u, g, t = fill_box(u, g, t, c, pts, extra, out_boxes, i, rules)
    out_total[i] = total
    out_bonus[i] = bonus
    out_extra[i] = extras


@njit(cache=True, nogil=True)
def static_stage_table(stripe, n_stripes, mode, H, values, rules, graph, rolls, out):
    """out[u, g] = a static strategy's stages (``policy_stages``) for used set u and flag group g, for the used
    sets stripe, stripe + n_stripes, ... (every n-th set: their work varies with the boxes left; Python's threads
    run the stripes, as ``simulate_games``'): they
    depend on nothing else (not the upper total), so a simulation of many games reads them instead of
    computing them at every turn (21 µs a Yahtzee turn)."""
    rules, graph = lend(rules), lend_graph(graph)
    for a in range(stripe, out.shape[0] - 1, n_stripes):
        static_stages_of_set(np.int64(a), mode, H, values, rules, graph, rolls, out)


@njit(cache=True)
def static_stages_of_set(a, mode, H, values, rules, graph, rolls, out):
    """Used set a of ``static_stage_table``."""
    rules, graph = lend(rules), lend_graph(graph)
    n_groups = rules.n_groups
    n_keeps = graph.keep_add.shape[0]
    buf = np.empty((n_keeps, 1))
    stages = np.empty((max(rolls - 1, 1), n_keeps))
    zero = np.int64(0)  # typed, not literal: policy_stages compiled once
    for g in range(n_groups[a]):
        policy_stages(mode, a, np.int64(g), zero, H, values, rules, graph, buf, stages[:rolls - 1], MEAN)
        for m in range(rolls - 1):
            for k in range(n_keeps):
                out[a, g, m, k] = stages[m, k]


@njit(cache=True, parallel=True)
def set_policy_tables(mode, H, values, rules, graph, rolls, out_keep, out_cat):
    """Decisions of a solitaire strategy (optimal = Maximus, static, whatever) for every used set:
    out_keep[a, throws left - 1, roll] and out_cat[a, roll] (games without bonuses: no lanes)."""
    for a in prange(out_cat.shape[0] - 1):
        # a call per used set: numba's parfor passes over the whole body inlined in the loop took 14 s more
        policy_of_set(np.int64(a), mode, H, values, rules, graph, rolls, out_keep, out_cat)


@njit(cache=True)
def policy_of_set(a, mode, H, values, rules, graph, rolls, out_keep, out_cat):
    """Iteration a of ``set_policy_tables``'s parallel loop."""
    rules, graph = lend(rules), lend_graph(graph)
    scores = rules.scores
    # borrowed: the caller owns them for the call (counted, every thread adds to their shared counts)
    H, values = borrowed(H), borrowed(values)
    out_keep, out_cat = borrowed(out_keep), borrowed(out_cat)
    n_rolls = scores.shape[0]
    n_keeps = graph.keep_add.shape[0]
    buf = np.empty((n_keeps, 1))
    stages = np.empty((max(rolls - 1, 1), n_keeps))
    if mode == OPTIMAL or mode == STATIC:
        zero = np.int64(0)  # typed, not literal: policy_stages compiled once
        policy_stages(mode, a, zero, zero, H, values, rules, graph, buf, stages[:rolls - 1], MEAN)
    for r in range(n_rolls):
        c, v = best_category(mode, a, 0, 0, r, H, values, rules, 0)
        out_cat[a, r] = c
        for left in range(1, rolls):
            out_keep[a, left - 1, r] = choose_keep_index(mode, r, left, stages, 0, graph)


