"""Farkle's kernels: one turn as a dynamic programme, and the two-person win probabilities by value
iteration over turn starts.

Scores are in units of 50 points. A turn start is (my banked score, theirs, my Farkles in a row, theirs);
``starts[i, j, f, g]`` is the mover's probability of winning there, with ``i = mine - floor`` and
``j = theirs - floor``. Within a turn only the turn total ``t`` and the dice left ``n`` change, and every
exit leads to a turn start of the opponent: banking to ``(theirs, mine + t, g, 0)``, a Farkle to
``(theirs, mine, g, f + 1)``, or, at the limit of Farkles in a row, ``(theirs, mine - penalty, g, 0)``. So
a turn is solved backwards over ``t`` from the values of turn starts (``turn``), and only the turn starts
are stored: 562,500 numbers for Facebook Farkle, where the full state space has hundreds of millions.

The throw of ``n`` dice is summarised by *classes*: throws that offer the same best points for each number
of dice set aside (more turn points are never worse, so no other set-aside is worth a look) are merged,
with their probability. Six dice have 119 classes and 503 options in all.
"""

from __future__ import annotations

import numpy as np

from ..core.jit import borrowed, njit, prange
from .rules import Throws


@njit(cache=True, inline="always")
def lend_throws(throws):
    """The throw classes (``rules.Throws``) with their arrays borrowed (``core.jit.borrowed``): a kernel lends
    itself its classes once, so that its helpers read arrays that cost no reference counts. Only for the length
    of the call that holds ``throws``."""
    return Throws(borrowed(throws.class_start), borrowed(throws.class_prob), borrowed(throws.option_start),
                  borrowed(throws.option_left), borrowed(throws.option_units))


@njit(cache=True)
def finish(rules, i):
    """The least turn total that wins for the mover at score index ``i`` (``FarkleGame.wins_from`` in units):
    it reaches the goal and may be banked (with a least bank, reaching the goal with less at risk does not
    end the game)."""
    left_to_goal = rules.goal - (i + rules.floor)
    return left_to_goal if left_to_goal > rules.min_bank else rules.min_bank


@njit(cache=True)
def roll_value(t, n, wins_from, farkle, pre, throws):
    """The mover's value of throwing ``n`` dice with ``t`` at risk: each class's best set-aside (a turn total of
    ``wins_from`` or more wins), the Farkle (worth ``farkle``) for the rest."""
    class_start, class_prob, option_start, option_left, option_units = throws
    value = 0.0
    p_scoring = 0.0
    for c in range(class_start[n], class_start[n + 1]):
        best = 0.0
        for o in range(option_start[c], option_start[c + 1]):
            total = t + option_units[o]
            v = 1.0 if total >= wins_from else pre[total, option_left[o]]
            if v > best:
                best = v
        value += class_prob[c] * best
        p_scoring += class_prob[c]
    return value + (1.0 - p_scoring) * farkle


@njit(cache=True)
def turn(i, j, g, farkle, starts, rules, pre, throws, down_to):
    """Solve the turn of the mover at ``(i, j, ·, g)`` whose Farkle is worth ``farkle``: ``pre[t, n]`` is
    the value of deciding (bank or throw) with ``t`` at risk and ``n`` dice, for every ``t >= down_to``
    (``pre[·, 0]`` unused). Returns the value of the turn's first throw of six dice."""
    throws = lend_throws(throws)
    min_bank = rules.min_bank
    wins_from = finish(rules, i)
    for t in range(wins_from - 1, down_to - 1, -1):
        bank = -1.0
        if t > 0 and t >= min_bank:  # below wins_from, a total that may be banked is short of the goal
            bank = 1.0 - starts[j, i + t, g, 0]
        for n in range(1, 7):
            v = roll_value(t, n, wins_from, farkle, pre, throws)
            pre[t, n] = v if v > bank else bank
    zero, six = np.int64(0), np.int64(6)  # typed, not literal: roll_value is compiled once for every caller
    return roll_value(zero, six, wins_from, farkle, pre, throws)


@njit(cache=True)
def banks_where(i, j, g, farkle, starts, rules, pre, throws, banks):
    """After ``turn`` filled ``pre`` for this turn start: ``banks[n - 1, t]`` whether banking ``t`` at risk
    with ``n`` dice left is best (at least as good as throwing them) in the mover's turn at ``(i, j)``."""
    throws = lend_throws(throws)
    min_bank = rules.min_bank
    wins_from = finish(rules, i)
    for t in range(wins_from):
        for n in range(1, 7):
            banks[n - 1, t] = False
            if t > 0 and t >= min_bank:
                bank = 1.0 - starts[j, i + t, g, 0]
                throw = roll_value(t, n, wins_from, farkle, pre, throws)
                banks[n - 1, t] = bank >= throw


@njit(cache=True)
def farkle_value(i, j, f, g, starts, rules):
    """The mover's value of a Farkle at ``(i, j, f, g)``: the opponent's turn start after it."""
    if f + 1 < rules.limit:
        return 1.0 - starts[j, i, g, f + 1]
    dropped = i - rules.penalty
    if dropped < 0:
        dropped = 0  # the floor
    return 1.0 - starts[j, dropped, g, 0]


@njit(cache=True)
def solve_group(a, b, starts, rules, pre, throws, tol):
    """The turn starts of scores ``{a, b}`` (both seats' views), given every higher total: in order of
    Farkles in a row, most first, so that each reads the one its Farkle leads to; repeated while a Farkle
    leads back into the group (no penalty, or a score on the floor). Returns the largest change."""
    limit, penalty = rules.limit, rules.penalty
    cyclic = limit == 1 or penalty == 0 or a == 0 or b == 0
    largest = 0.0
    while True:
        change = 0.0
        for total in range(2 * (limit - 1), -1, -1):
            for f in range(limit):
                g = total - f
                if g < 0 or g >= limit:
                    continue
                for side in range(2):
                    i, j = (a, b) if side == 0 else (b, a)
                    if side == 1 and a == b:
                        continue
                    farkle = farkle_value(i, j, f, g, starts, rules)
                    v = turn(i, j, g, farkle, starts, rules, pre, throws, np.int64(1))
                    d = abs(v - starts[i, j, f, g])
                    if d > change:
                        change = d
                    starts[i, j, f, g] = v
        if change > largest:
            largest = change
        if not cyclic or change <= tol:
            return largest


@njit(cache=True, parallel=True)
def sweep(starts, rules, throws, tol):
    """One pass over every turn start, highest total of scores first (banking only raises the total, so
    each group reads finished values; the penalty's lower totals are last sweep's). Returns the largest
    change."""
    size = starts.shape[0]
    largest = np.zeros(size)
    for total in range(2 * (size - 1), -1, -1):
        low = max(0, total - (size - 1))
        count = total // 2 - low + 1
        for k in prange(count):
            a = low + k
            b = total - a
            pre = np.empty((rules.goal - rules.floor + 1, 7))
            d = solve_group(a, b, starts, rules, pre, lend_throws(throws), tol)
            if d > largest[a]:
                largest[a] = d
    return largest.max()


# -- Farkle alone: the most points per turn, and the fewest turns to the goal -------------------------------


@njit(cache=True)
def expected_turn(cap, min_bank, farkle, tail, throws):
    """``E[t, n]``: the worth (units) of the rest of a turn with ``t`` at risk and ``n`` dice, banking or
    throwing to make it most: the points it banks, or ``farkle`` for a Farkle (what the Farkle costs in later
    turns, with the penalty). From ``cap`` on the player banks unless the throw cannot be a Farkle, which adds
    ``tail[n]`` (checked by the caller: the strategy banks well below it)."""
    class_start, class_prob, option_start, option_left, option_units = lend_throws(throws)
    e = np.zeros((cap + 1, 7))
    for t in range(cap, -1, -1):
        for n in range(1, 7):
            if t == cap:
                e[t, n] = t + tail[n]
                continue
            roll = 0.0
            p_scoring = 0.0
            for c in range(class_start[n], class_start[n + 1]):
                best = -np.inf
                for o in range(option_start[c], option_start[c + 1]):
                    u = t + option_units[o]
                    v = u + tail[option_left[o]] if u >= cap else e[u, option_left[o]]
                    if v > best:
                        best = v
                roll += class_prob[c] * best
                p_scoring += class_prob[c]
            roll += (1.0 - p_scoring) * farkle
            bank = float(t) if t > 0 and t >= min_bank else -np.inf
            e[t, n] = roll if roll > bank else bank
    return e


@njit(cache=True)
def turns_turn(b, f, turns, rules, pre, throws):
    """One turn of the solitaire race from banked ``b`` (index above the floor) with ``f`` Farkles in a row:
    ``pre[t, n]`` the expected turns still needed after this one (banking or throwing to make it fewest);
    returns the expected turns from the turn's start, this one included."""
    class_start, class_prob, option_start, option_left, option_units = lend_throws(throws)
    min_bank = rules.min_bank
    wins_from = finish(rules, b)
    if f + 1 < rules.limit:
        farkle = turns[b, f + 1]
    else:
        dropped = b - rules.penalty
        farkle = turns[dropped if dropped > 0 else 0, 0]
    for t in range(wins_from - 1, -1, -1):
        for n in range(1, 7):
            roll = 0.0
            p = 0.0
            for c in range(class_start[n], class_start[n + 1]):
                best = 1e300
                for o in range(option_start[c], option_start[c + 1]):
                    u = t + option_units[o]
                    v = 0.0 if u >= wins_from else pre[u, option_left[o]]
                    if v < best:
                        best = v
                roll += class_prob[c] * best
                p += class_prob[c]
            roll += (1.0 - p) * farkle
            if t > 0 and t >= min_bank:
                bank = turns[b + t, 0]
                pre[t, n] = roll if roll < bank else bank
            else:
                pre[t, n] = roll
    return 1.0 + pre[0, 6]


@njit(cache=True)
def turns_sweep(turns, rules, throws):
    """One pass of the solitaire race's value iteration, from the highest banked score down (a bank only
    raises it); returns the largest change."""
    size = turns.shape[0]
    pre = np.empty((size + 1, 7))
    largest = 0.0
    throws = lend_throws(throws)
    for b in range(size - 1, -1, -1):
        for f in range(rules.limit - 1, -1, -1):
            v = turns_turn(b, f, turns, rules, pre, throws)
            d = abs(v - turns[b, f])
            if d > largest:
                largest = d
            turns[b, f] = v
    return largest
