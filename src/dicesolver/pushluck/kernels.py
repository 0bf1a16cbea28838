"""Numba kernels for push-your-luck games (Pig, Skunk, Big Pig).

A value table ``V[m, o, t]`` holds the probability that the player to move wins, with banked score
``m``, the opponent's ``o`` and turn total ``t`` (only ``m + t < goal`` is used: reaching the goal wins).
A throw adds ``adds[e]`` with probability ``probs[e]``, busts (turn total lost) with ``p_bust`` or resets
(banked score lost too) with ``p_reset``; either ends the turn.

Order: a hold or a throw that adds points leads to a larger sum of all points, so layers of equal
``m + o`` are solved from the top down. Inside a layer, (m, o, 0) and the opponent's (o, m, 0) depend
on each other through busts: each such pair is solved to machine precision by safeguarded Newton on
the piecewise-linear equation x = f(g(x)). Resets jump to a lower layer; with resets the whole sweep is
repeated (value iteration on those values) until no start-of-turn value moves by more than ``tol``.

The same kernels evaluate fixed policies (``policy[m, o, t]``: 1 throw, 0 hold) for two different
players exactly; "optimize" takes the better action everywhere instead.
"""

import numpy as np

from ..core.jit import borrowed, njit
from .rules import Outcomes

ALWAYS = dict(cache=True, nogil=True, inline="always")
KERNEL = dict(cache=True, nogil=True)


@njit(**ALWAYS)
def lend(outcomes):
    """The throw's outcomes (``rules.Outcomes``) with their arrays borrowed (``core.jit.borrowed``): for the length
    of the call that holds ``outcomes``."""
    return Outcomes(borrowed(outcomes.adds), borrowed(outcomes.probs), outcomes.p_bust, outcomes.p_reset)


@njit(**ALWAYS)
def _turn(i, j, goal, mine, theirs, policy, optimize, partner, outcomes, out, slope):
    """Values of the mover's turn at (i, j, t) for every t, given ``partner`` = the opponent's value at
    (j, i, 0), the start of their turn after a bust. Writes ``out[t]`` and d out[t] / d partner into
    ``slope[t]``; returns the start-of-turn value and its slope."""
    adds, probs, p_bust, p_reset = outcomes
    reset_value = partner if i == 0 else theirs[j, 0, 0]
    reset_slope = 1.0 if i == 0 else 0.0
    for t in range(goal - i - 1, -1, -1):
        roll = p_bust * (1.0 - partner) + p_reset * (1.0 - reset_value)
        droll = -p_bust - p_reset * reset_slope
        for e in range(adds.shape[0]):
            u = t + adds[e]
            if i + u < goal:
                roll += probs[e] * out[u]
                droll += probs[e] * slope[u]
            else:
                roll += probs[e]
        if t == 0:
            out[t] = roll
            slope[t] = droll
            continue
        hold = 1.0 - theirs[j, i + t, 0]
        if optimize:
            throw = roll > hold
        else:
            throw = policy[i, j, t] == 1
        if throw:
            out[t] = roll
            slope[t] = droll
        else:
            out[t] = hold
            slope[t] = 0.0
    return out[0], slope[0]


@njit(**ALWAYS)
def _solve_pair(i, j, goal, first, second, policy1, policy2, optimize, outcomes, scratch1, dscratch1, scratch2,
                dscratch2):
    """Solve x = first[i, j, 0] and y = second[j, i, 0] together; write both turns' rows (the scratch: each
    turn's row and its slope, the first's then the second's)."""
    x = first[i, j, 0]
    lo, hi = 0.0, 1.0
    for _ in range(200):
        y, gy = _turn(j, i, goal, second, first, policy2, optimize, x, outcomes, scratch2, dscratch2)
        fx, fy = _turn(i, j, goal, first, second, policy1, optimize, y, outcomes, scratch1, dscratch1)
        h = fx - x
        if abs(h) <= 1e-16:
            break
        if h > 0.0:
            lo = x
        else:
            hi = x
        step = fy * gy - 1.0  # h'(x) < 0: f(g(x)) rises by less than x
        nxt = x - h / step
        if not (lo < nxt < hi):
            nxt = 0.5 * (lo + hi)
        if abs(nxt - x) <= 1e-17:
            x = nxt
            break
        x = nxt
    y, gy = _turn(j, i, goal, second, first, policy2, optimize, x, outcomes, scratch2, dscratch2)
    for t in range(goal - j):
        second[j, i, t] = scratch2[t]
    _turn(i, j, goal, first, second, policy1, optimize, y, outcomes, scratch1, dscratch1)
    for t in range(goal - i):
        first[i, j, t] = scratch1[t]


@njit(**KERNEL)
def _sweep(goal, first, second, policy1, policy2, optimize, outcomes):
    """One top-down pass over all layers; returns the largest change of a start-of-turn value."""
    outcomes = lend(outcomes)
    scratch1, dscratch1, scratch2, dscratch2 = np.zeros(goal + 1), np.zeros(goal + 1), np.zeros(goal + 1), \
        np.zeros(goal + 1)
    change = 0.0
    for s in range(2 * goal - 2, -1, -1):
        for i in range(max(0, s - goal + 1), min(s, goal - 1) + 1):
            j = s - i
            if optimize and i > j:
                continue  # one table: the pair (i, j), (j, i) is solved once
            before1 = first[i, j, 0]
            before2 = second[j, i, 0]
            _solve_pair(i, j, goal, first, second, policy1, policy2, optimize, outcomes, scratch1, dscratch1,
                        scratch2, dscratch2)
            change = max(change, abs(first[i, j, 0] - before1), abs(second[j, i, 0] - before2))
    return change


@njit(**KERNEL)
def solve_tables(goal, first, second, policy1, policy2, optimize, outcomes, tol, max_sweeps, changes):
    """Sweep until converged (without resets the first sweep is already exact). ``changes[k]`` gets each sweep's
    largest change; returns the number of sweeps."""
    for k in range(max_sweeps):
        change = _sweep(goal, first, second, policy1, policy2, optimize, outcomes)
        changes[k] = change
        if change <= tol:  # without resets the second sweep only confirms the first
            return k + 1
    return max_sweeps


@njit(**KERNEL)
def roll_values(goal, table, outcomes):
    """The value of throwing at every state (m, o, t) with m + t < goal (NaN elsewhere)."""
    adds, probs, p_bust, p_reset = lend(outcomes)
    out = np.full(table.shape, np.nan)
    for i in range(goal):
        for j in range(goal):
            partner = table[j, i, 0]
            reset_value = table[j, 0, 0]
            for t in range(goal - i):
                roll = p_bust * (1.0 - partner) + p_reset * (1.0 - reset_value)
                for e in range(adds.shape[0]):
                    u = t + adds[e]
                    roll += probs[e] * (table[i, j, u] if i + u < goal else 1.0)
                out[i, j, t] = roll
    return out


# -- the batch answer engine (pushluck/answers.py) ----------------------------------------------------
# A situation: the banked scores (observer's, then the opponent's), the turn total, whether the observer is
# on turn and whether a throw is due. Options at a decision: throw (code 0) and hold (code 1), each
# valued as the mover's probability of winning; a throw's value is the mean over its outcomes, as above.
BAD_SCORES, NOT_ON_TURN, BAD_TOTAL, NO_CHOICE = 1, 2, 3, 4


@njit(**ALWAYS)
def throw_value(m, o, t, goal, table, outcomes):
    adds, probs, p_bust, p_reset = outcomes
    roll = p_bust * (1.0 - table[o, m, 0]) + p_reset * (1.0 - table[o, 0, 0])
    for e in range(adds.shape[0]):
        u = t + adds[e]
        roll += probs[e] * (table[m, o, u] if m + u < goal else 1.0)
    return roll


@njit(**KERNEL)
def answer_push(scores, turn_total, on_turn, throwing, table, outcomes, most, tie, out_f, out_i):
    """Every situation's options and value (``most``: the highest score a winning throw can reach); returns
    how many were refused (their count: minus the reason)."""
    outcomes = lend(outcomes)
    goal = table.shape[0]
    width = out_i.shape[1] - 1
    refused = 0
    for i in range(scores.shape[0]):
        m, o, t = scores[i, 0], scores[i, 1], turn_total[i, 0]
        out_i[i, width] = 0
        for k in range(width):
            out_i[i, k] = -1
            out_f[i, k] = np.nan
            out_f[i, width + k] = np.nan
        if m < 0 or o < 0 or t < 0:
            out_i[i, width] = -BAD_SCORES
        elif on_turn[i, 0] == 0:  # the end: the observer's win or loss
            if t != 0 or not ((m >= goal) != (o >= goal)) or max(m, o) > most:
                out_i[i, width] = -NOT_ON_TURN
            else:
                out_f[i, 2 * width] = 1.0 if m >= goal else 0.0
        elif m >= goal or o >= goal:
            out_i[i, width] = -BAD_SCORES
        elif m + t >= goal:
            out_i[i, width] = -BAD_TOTAL
        elif throwing[i, 0] == 1:
            out_f[i, 2 * width] = throw_value(m, o, t, goal, table, outcomes)
        elif t == 0:
            out_i[i, width] = -NO_CHOICE
        else:
            throw = throw_value(m, o, t, goal, table, outcomes)
            hold = 1.0 - table[o, m + t, 0]
            best = max(throw, hold)
            out_i[i, 0], out_i[i, 1], out_i[i, width] = 0, 1, 2
            out_f[i, 0], out_f[i, 1] = throw, hold
            out_f[i, width] = best - throw if best - throw > tie else 0.0
            out_f[i, width + 1] = best - hold if best - hold > tie else 0.0
            out_f[i, 2 * width] = best
        if out_i[i, width] < 0:
            refused += 1
    return refused
