"""Many one-player games stepped at once, for learning agents (``scorecard.batch``): every environment's
card, dice and throws left in arrays, an action per environment per step, the rules of ``scoring``.

Actions: 0 .. 2^d - 1 hold the dice at the set bit positions (of the sorted dice) and throw the others;
2^d + c scores box c. A finished game is started again at the next step (its action is ignored: Gymnasium's
next-step autoreset). Throws come from each environment's own counter-based generator (splitmix64), so a
seed gives the same games whatever the threads. With the solved table (``judge``), every step also gives
the exact regret of its action and the exact value of the new position, from the optimal policy's keep
stages computed at every turn start (``bots.kernels.policy_stages``).
"""

from typing import NamedTuple

import numpy as np

from ...core.jit import borrowed, njit, prange
from ...core.kernels import lend_graph
from ..game.kernels.scoring import bonus_step, lend, next_group, score_choice
from ..bots.kernels import MEAN, OPTIMAL, RANDOM, best_category, choice_value, policy_stages_inlined
from ..turn.kernels.stream import GOLDEN, mix64
from ..turn.kernels.widget import NEG

TIE = 1e-9  # a regret within the table's precision is none (as the answers' costs)
ENVS_PER_CALL = 64  # environments stepped by one call of step_envs


class Envs(NamedTuple):
    """Every environment's game (one entry each, in place) and what its last step gave, one argument for the
    kernels (``batch.envs.ScorecardBatch``)."""

    used: np.ndarray  # int64: the used boxes' bits
    group: np.ndarray  # int64: the yacht-flag group
    capped: np.ndarray  # int64: the progress code toward the set bonuses
    upper: np.ndarray  # int64: the upper section's total
    total: np.ndarray  # int64: the score
    boxes: np.ndarray  # int64 [env, box]: the points in each box, -1 for open
    dice: np.ndarray  # int64 [env, die]: the dice showing, sorted
    roll: np.ndarray  # int64: their roll's index
    rolls_left: np.ndarray  # int64: throws left this turn
    done: np.ndarray  # int64: 1 once the card is full
    rng: np.ndarray  # uint64: the environment's generator's counter
    stages: np.ndarray  # float64 [env, throws left - 1, keep]: the optimal keep values of the turn (judged)
    reward: np.ndarray  # float64: the points the step scored
    regret: np.ndarray  # float64: what the step gave away against the best (judged)
    value: np.ndarray  # float64: the expected final score after it (judged)
    error: np.ndarray  # int64: 1 where the action was not legal (nothing changed)

@njit(cache=True, inline="always")
def face(rng, i, faces):
    rng[i] += GOLDEN
    return np.int64(mix64(rng[i]) % np.uint64(faces)) + 1


@njit(cache=True, inline="always")
def throw(i, held, dice, rng, faces, keep_add, roll_offset):
    """Throw the dice of environment i not in the position set ``held``, sort them; the roll's index."""
    n = dice.shape[1]
    for d in range(n):
        if not (held >> d) & 1:
            dice[i, d] = face(rng, i, faces)
    for a in range(1, n):  # insertion sort: five or six dice
        x = dice[i, a]
        b = a - 1
        while b >= 0 and dice[i, b] > x:
            dice[i, b + 1] = dice[i, b]
            b -= 1
        dice[i, b + 1] = x
    k = 0
    for d in range(n):
        k = keep_add[k, dice[i, d] - 1]
    return k - roll_offset


@njit(cache=True, inline="always")
def best_keep_value(stages, i, m, r, roll_sub_ptr, roll_sub_idx):
    best = NEG
    for p in range(roll_sub_ptr[r], roll_sub_ptr[r + 1]):
        v = stages[i, m, roll_sub_idx[p]]
        if v > best:
            best = v
    return best


@njit(cache=True, parallel=True)
def batch_step(actions, restart, judge, envs, rolls, H, values, rules, graph):
    """One step of every environment (``restart``: start every game afresh instead). ``envs.error[i]``: 1
    where the action was not legal (nothing changes there). ``H``: the static hand values ``policy_stages``
    takes, unused by the optimal player (a read-only stand-in, as the other callers pass it)."""
    n = actions.shape[0]
    for b in prange((n + ENVS_PER_CALL - 1) // ENVS_PER_CALL):
        # a call per block of environments: a parallel loop's body is compiled through numba's parfor passes,
        # which took 40 s over the whole step inlined in it; and a call per environment, its forty arrays
        # passed each time, cost 180 ns of the step's 250
        lo = np.int64(b * ENVS_PER_CALL)
        step_envs(lo, min(n, lo + ENVS_PER_CALL), actions, restart, judge, envs, rolls, H, values, rules, graph)


@njit(cache=True)
def step_envs(lo, hi, actions, restart, judge, envs, rolls, H, values, rules, graph):
    """Environments lo..hi-1's step (``batch_step``)."""
    rules, graph = lend(rules), lend_graph(graph)
    n_groups = rules.n_groups
    upper_face = rules.upper_face
    keep_add, roll_offset = graph.keep_add, graph.roll_offset
    roll_sub_ptr, roll_sub_idx = graph.roll_sub_ptr, graph.roll_sub_idx
    faces = keep_add.shape[1]
    # borrowed: counted, every thread's atomic adds and subtracts on the shared arrays' counts cost 4x
    actions, used, group = borrowed(actions), borrowed(envs.used), borrowed(envs.group)
    capped, upper, total = borrowed(envs.capped), borrowed(envs.upper), borrowed(envs.total)
    boxes, dice, roll = borrowed(envs.boxes), borrowed(envs.dice), borrowed(envs.roll)
    rolls_left, done, rng = borrowed(envs.rolls_left), borrowed(envs.done), borrowed(envs.rng)
    stages, reward, regret = borrowed(envs.stages), borrowed(envs.reward), borrowed(envs.regret)
    value, error, H = borrowed(envs.value), borrowed(envs.error), borrowed(H)
    values = borrowed(values)
    n_cats = boxes.shape[1]
    n_dice = dice.shape[1]
    holds = 1 << n_dice
    full = (1 << n_cats) - 1
    for i in range(lo, hi):
        reward[i] = 0.0
        regret[i] = 0.0
        error[i] = 0
        if restart or done[i]:
            used[i], group[i], capped[i], upper[i], total[i], done[i] = 0, 0, 0, 0, 0, 0
            for c in range(n_cats):
                boxes[i, c] = -1
            new_turn = True
        else:
            new_turn = False
            a = actions[i]
            u = used[i]
            if a < 0 or a >= holds + n_cats:
                error[i] = 1
                continue
            if a < holds:
                if rolls_left[i] == 0:
                    error[i] = 1
                    continue
                m = rolls_left[i] - 1
                if judge:
                    k = 0
                    for d in range(n_dice):
                        if (a >> d) & 1:
                            k = keep_add[k, dice[i, d] - 1]
                    regret[i] = best_keep_value(stages, i, m, roll[i], roll_sub_ptr, roll_sub_idx) - stages[i, m, k]
                    if regret[i] <= TIE:
                        regret[i] = 0.0
                roll[i] = throw(i, a, dice, rng, faces, keep_add, roll_offset)
                rolls_left[i] -= 1
            else:
                c = a - holds
                if (u >> c) & 1:
                    error[i] = 1
                    continue
                ok, v, now, pts, gain, extra = choice_value(
                    OPTIMAL if judge else RANDOM, u, group[i], capped[i], roll[i], c, H, values, rules)
                if not ok:
                    error[i] = 1
                    continue
                if judge:
                    b, best = best_category(OPTIMAL, u, group[i], capped[i], roll[i], H, values, rules, 0)
                    if rolls_left[i] > 0:  # scoring with throws left: the best keep counts too
                        best = max(best, best_keep_value(stages, i, rolls_left[i] - 1, roll[i], roll_sub_ptr,
                                                         roll_sub_idx))
                    regret[i] = best - v if best - v > TIE else 0.0
                reward[i] = now
                total[i] += now
                boxes[i, c] = pts
                if upper_face[c] > 0:
                    upper[i] += pts
                capped[i] = bonus_step(capped[i], pts, c, rules)[0]
                group[i] = next_group(u, group[i], c, pts, extra, rules, n_groups[u | (1 << c)])
                used[i] = u | (1 << c)
                if used[i] == full:  # shown as the protocol's end: no dice, a turn's throws
                    done[i] = 1
                    value[i] = total[i]
                    for d in range(n_dice):
                        dice[i, d] = 0
                    rolls_left[i] = rolls
                    continue
                new_turn = True
        if new_turn:
            roll[i] = throw(i, 0, dice, rng, faces, keep_add, roll_offset)
            rolls_left[i] = rolls - 1
            if judge and rolls > 1:
                buf = np.empty((keep_add.shape[0], 1))
                # inlined, so the literal mode costs no compilation of its own and prunes the other strategies
                policy_stages_inlined(OPTIMAL, used[i], group[i], capped[i], H, values, rules, graph, buf, stages[i],
                                      MEAN)
        if judge:
            if rolls_left[i] > 0:
                value[i] = total[i] + best_keep_value(stages, i, rolls_left[i] - 1, roll[i], roll_sub_ptr,
                                                      roll_sub_idx)
            else:
                value[i] = total[i] + best_category(
                    OPTIMAL, used[i], group[i], capped[i], roll[i], H, values, rules, 0)[1]


@njit(cache=True, parallel=True)
def batch_masks(used, group, roll, rolls_left, done, mask, rules):
    """mask[i, a] = 1 where action a is legal in environment i (a finished game: none)."""
    n_envs, n_actions = mask.shape
    n_cats = rules.scores.shape[1]
    holds = n_actions - n_cats
    for i in prange(n_envs):
        lent = lend(rules)  # in each environment's body: a parallel kernel's threads lend themselves their rules
        for a in range(n_actions):
            mask[i, a] = 0
        if done[i]:
            continue
        if rolls_left[i] > 0:
            for a in range(holds):
                mask[i, a] = 1
        for c in range(n_cats):
            if not (used[i] >> c) & 1:
                ok, pts, extra = score_choice(used[i], group[i], roll[i], c, lent)
                if ok:
                    mask[i, holds + c] = 1
