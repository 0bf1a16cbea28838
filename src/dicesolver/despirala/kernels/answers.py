"""The batch answer engine's kernel for Despirala: every legal option of many situations at once, valued by
the expected-score table (expected final score: points + what is still to come) or, with an aim, by the
target table (the best chance of finishing above the need, below it in misere play).

A situation is every sheet (row 0: the player on turn; at the end, the first seat): free combinations,
goods, points; the six dice; the moment of the turn (``PHASES``); the combination being completed or
collected and the dice of its face held; and the pick being completed (its action code). Options come in
the order of ``legal_moves`` with the encoding's action codes (0 Reroll, 1 Continue, 2 Stop, 3 + p pick
p). The sums are those of the solves (``expected._collect_table``; ``target.pick_chance`` and
``target.collect_chances``), and pick values are summed in the order of ``solver.pick_value``. With a risk
appetite ``theta`` the table holds E[exp(theta * what is still to come)] (``expected``): options are
compared in it and shown as certainty equivalents in points (``shown``), best first.
"""

import math

import numpy as np

from ...core.jit import njit
from .expected import _collect_table, then
from .target import collect_chances, end_chance, pick_chance, turn_chance

THROW, DECIDE, COMPLETE, COLLECT, HITS, OVER = range(6)
GOODS_PER_TURN = 5
N_COMBOS = 14
N_COLLECTS = 6
# why a situation is refused (its count is minus the reason); despirala/answers.py words them
BAD_SHEET, BAD_DICE, BAD_MOMENT, BAD_COMBINATION, NEED_BEYOND_TABLE, OUTSIDE_TABLE = range(1, 7)


@njit(cache=True, nogil=True, inline="always")
def end_value(W, mask, g, theta):
    """The table's value when a turn ends leaving ``mask`` free and ``g`` goods."""
    if mask == 0:
        return float(g) if theta == 0.0 else math.exp(theta * g)
    return W[mask, min(g + GOODS_PER_TURN, W.shape[1] - 1)]


@njit(cache=True, nogil=True, inline="always")
def pick_value(W, after, s, h, pts, q, qcum, theta):
    """``solver.pick_value``: picking a combination missing shape ``s`` with ``pts`` points at ``h`` goods."""
    acc = 0.0
    for t in range(h + 1):
        acc += q[s, t] * end_value(W, after, h - t, theta)
    out_of_goods = (1.0 - qcum[s, h]) * end_value(W, after, np.int64(0), theta)
    if theta == 0.0:
        return pts * qcum[s, h] + acc + out_of_goods
    return math.exp(theta * pts) * acc + out_of_goods


@njit(cache=True, nogil=True, inline="always")
def shown(theta, points, value):
    """A value of the table with ``points`` so far, in points: their sum, or the certainty equivalent."""
    if theta == 0.0:
        return points + value
    return points + math.log(value) / theta


@njit(cache=True, nogil=True, inline="always")
def throw_index(dice, i, keep_add, roll_offset):
    """The index of the six dice of row i among the throws (-1: not six dice of 1..6)."""
    k = 0
    for d in range(dice.shape[1]):
        f = dice[i, d]
        if f < 1 or f > 6:
            return -1
        k = keep_add[k, f - 1]
    return k - roll_offset


@njit(cache=True, nogil=True)
def answer_despirala(free, goods, points, dice, phase, combination, have, picked, W, targets, aim, normal, theta, picks,
                     tie, out_f, out_i):
    """Every situation's options and value; returns how many were refused (their count: minus the reason).
    ``aim`` = (the score needs count from, N, unused, the sets the table holds): < 0 for expected scores
    (``W``); else chances from the ``targets`` (``arrays.Targets``). ``picks``: ``arrays.Picks``."""
    pick_combo, pick_points, pick_shape, keep_add, roll_offset, q, qcum, binom = picks
    n = free.shape[0]
    width = out_i.shape[1] - 1
    H = W.shape[1] if aim[0] < 0 else q.shape[1]
    chance = aim[0] >= 0
    N = int(aim[1])
    within = int(aim[3])
    sign = 1.0 if (normal or chance) else -1.0
    rank = sign  # the values shown are best at their largest with a risk appetite, whatever theta's sign
    if theta < 0.0:
        sign = -1.0
    col = np.empty((7, H + 1))
    refused = 0
    for i in range(n):
        for k in range(width):
            out_i[i, k] = -1
            out_f[i, k] = np.nan
            out_f[i, width + k] = np.nan
        out_i[i, width] = 0
        mask = 0
        bad = False
        for c in range(N_COMBOS):
            if free[i, 0, c] == 1:
                mask |= 1 << c
            elif free[i, 0, c] != 0:
                bad = True
        h, pts, ph = goods[i, 0], points[i, 0], phase[i, 0]
        combo, held, code = combination[i, 0] - 1, have[i, 0], picked[i, 0]
        if bad or h < 0 or h >= H or pts < 0:
            out_i[i, width] = -BAD_SHEET
            refused += 1
            continue
        if ph < 0 or ph > OVER or (ph == OVER) != (mask == 0) or held < 0 or held > 6:
            out_i[i, width] = -BAD_MOMENT
            refused += 1
            continue
        if chance and mask & ~within:
            out_i[i, width] = -OUTSIDE_TABLE
            refused += 1
            continue
        need = int(aim[0]) - pts
        if chance and need > N:
            out_i[i, width] = -NEED_BEYOND_TABLE
            refused += 1
            continue
        base = 0.0 if chance else float(pts)
        if ph == OVER:
            if chance:
                out_f[i, 2 * width] = end_chance(targets, np.int64(0), h, need, normal)
            else:
                out_f[i, 2 * width] = float(pts + h)
            continue
        if ph == THROW:
            out_f[i, 2 * width] = turn_chance(targets, mask, h, need, normal) if chance \
                else shown(theta, base, W[mask, h])
            continue
        r = -1
        if ph == DECIDE or ph == COMPLETE:
            r = throw_index(dice, i, keep_add, roll_offset)
            if r < 0:
                out_i[i, width] = -BAD_DICE
                refused += 1
                continue
        if ph == COLLECT or ph == HITS or ph == COMPLETE:
            ok = 0 <= combo < N_COMBOS and (mask >> combo) & 1 == 1
            if ph == COMPLETE:
                ok = ok and combo >= N_COLLECTS and code >= 3 and pick_combo[code - 3] == combo
            else:
                ok = ok and combo < N_COLLECTS
            if not ok:
                out_i[i, width] = -BAD_COMBINATION
                refused += 1
                continue
        if ph == COMPLETE:
            after = mask & ~(1 << combo)
            s, p = pick_shape[code - 3, r], pick_points[code - 3]
            if chance:
                out_f[i, 2 * width] = pick_chance(targets, after, s, h, p, need, normal, q, qcum)
            else:
                out_f[i, 2 * width] = shown(theta, base, pick_value(W, after, s, h, float(p), q, qcum, theta))
            continue
        count = 0
        if ph == COLLECT or ph == HITS:
            g = h + 1 if ph == HITS else h  # after Continue the good for the rethrow is paid already
            after, face = mask & ~(1 << combo), combo + 1
            table = col[:, : g + 1]
            if chance:
                collect_chances(targets, after, face, g, need, normal, binom, table)
            else:
                _collect_table(W, after, face, binom, sign, table, theta)
            go = np.nan
            if g > 0 and held < 6:
                go = 0.0
                for j in range(6 - held + 1):
                    go += binom[6 - held, j] * table[held + j, g - 1]
            if ph == HITS:
                out_f[i, 2 * width] = shown(theta, base, go)
                continue
            if not np.isnan(go):
                out_i[i, count], out_f[i, count] = 1, shown(theta, base, go)
                count += 1
            stop = end_chance(targets, after, h, need - face * held, normal) if chance \
                else then(theta, float(face * held), end_value(W, after, h, theta))
            out_i[i, count], out_f[i, count] = 2, shown(theta, base, stop)
            count += 1
        else:  # DECIDE: Reroll, then every free combination with every argument
            if normal and h > 0:
                out_i[i, count] = 0
                out_f[i, count] = turn_chance(targets, mask, h - 1, need, normal) if chance \
                    else shown(theta, base, W[mask, h - 1])
                count += 1
            for p in range(pick_combo.shape[0]):
                c = pick_combo[p]
                if not (mask >> c) & 1:
                    continue
                after = mask & ~(1 << c)
                if c < N_COLLECTS:
                    face, showing = pick_points[p], pick_shape[p, r]
                    table = col[:, : h + 1]
                    if chance:
                        collect_chances(targets, after, face, h, need, normal, binom, table)
                    else:
                        _collect_table(W, after, face, binom, sign, table, theta)
                    stop = end_chance(targets, after, h, need - face * showing, normal) \
                        if chance else then(theta, float(face * showing), end_value(W, after, h, theta))
                    best = stop
                    if h > 0 and showing < 6:
                        go = 0.0
                        for j in range(6 - showing + 1):
                            go += binom[6 - showing, j] * table[showing + j, h - 1]
                        if sign * go > sign * best:
                            best = go
                    value = best
                elif chance:
                    value = pick_chance(targets, after, pick_shape[p, r], h, pick_points[p], need, normal,
                                        q, qcum)
                else:
                    value = pick_value(W, after, pick_shape[p, r], h, float(pick_points[p]), q, qcum, theta)
                out_i[i, count] = 3 + p
                out_f[i, count] = value if chance else shown(theta, base, value)
                count += 1
        best = out_f[i, 0]
        for k in range(1, count):
            if rank * out_f[i, k] > rank * best:
                best = out_f[i, k]
        for k in range(count):
            cost = rank * (best - out_f[i, k])
            out_f[i, width + k] = cost if cost > tie else 0.0
        out_f[i, 2 * width] = best
        out_i[i, width] = count
    return refused
