"""Despirala's answer kernel (``kernels.answers.answer_despirala``) in Python, for a few situations valued by
the expected-score table while a process has not loaded numba: the same options, values and refusals, each
value's sums in the kernel's order, so the same answers to the bit (``tests/test_despirala.py`` compares the
two on thousands of situations). A one-shot ``advise despirala`` then answers without loading numba and the
compiled kernel. Chances of a target are the kernel's alone."""

from __future__ import annotations

import numpy as np

from .arrays import Picks

# the kernel's moments, sizes and reasons (tested equal to ``kernels.answers``'s)
THROW, DECIDE, COMPLETE, COLLECT, HITS, OVER = range(6)
GOODS_PER_TURN = 5
N_COMBOS = 14
N_COLLECTS = 6
BAD_SHEET, BAD_DICE, BAD_MOMENT, BAD_COMBINATION = 1, 2, 3, 4


def end_value(W: np.ndarray, mask: int, g: int) -> float:
    """``kernels.answers.end_value``: the expected value when a turn ends leaving ``mask`` free, ``g`` goods."""
    if mask == 0:
        return float(g)
    return W[mask, min(g + GOODS_PER_TURN, W.shape[1] - 1)]


def pick_value(W: np.ndarray, after: int, s: int, h: int, pts: float, q: np.ndarray, qcum: np.ndarray) -> float:
    """``kernels.answers.pick_value``."""
    acc = 0.0
    for t in range(h + 1):
        acc += q[s, t] * end_value(W, after, h - t)
    return pts * qcum[s, h] + acc + (1.0 - qcum[s, h]) * end_value(W, after, 0)


def collect_table(W: np.ndarray, after: int, face: int, binom: np.ndarray, sign: float, out: np.ndarray) -> None:
    """``kernels.expected._collect_table``: out[c, h], the best value of collecting ``face`` holding ``c`` of
    it with ``h`` goods."""
    for h in range(out.shape[1]):
        for c in range(6, -1, -1):
            stop = face * c + end_value(W, after, h)
            best = stop
            if h > 0 and c < 6:
                go = 0.0
                n = 6 - c
                for j in range(n + 1):
                    go += binom[n, j] * out[c + j, h - 1]
                if sign * go > sign * best:
                    best = go
            out[c, h] = best


def throw_index(dice: np.ndarray, i: int, keep_add: np.ndarray, roll_offset: int) -> int:
    """``kernels.answers.throw_index``: the index of the six dice of row i among the throws (-1: not six dice
    of 1..6)."""
    k = 0
    for d in range(dice.shape[1]):
        f = dice[i, d]
        if f < 1 or f > 6:
            return -1
        k = keep_add[k, f - 1]
    return int(k) - roll_offset


def answer_despirala(free, goods, points, dice, phase, combination, have, picked, W, normal, picks: Picks, tie, out_f,
                     out_i) -> int:
    """The kernel's expected-score path, line for line; returns how many situations were refused."""
    pick_combo, pick_points, pick_shape, keep_add, roll_offset, q, qcum, binom = picks
    n = free.shape[0]
    width = out_i.shape[1] - 1
    H = W.shape[1]
    sign = 1.0 if normal else -1.0
    col = np.empty((7, H + 1))
    refused = 0
    for i in range(n):
        out_i[i, :width] = -1
        out_f[i, :2 * width] = np.nan
        out_i[i, width] = 0
        mask = 0
        bad = False
        for c in range(N_COMBOS):
            if free[i, 0, c] == 1:
                mask |= 1 << c
            elif free[i, 0, c] != 0:
                bad = True
        h, pts, ph = int(goods[i, 0]), int(points[i, 0]), int(phase[i, 0])
        combo, held, code = int(combination[i, 0]) - 1, int(have[i, 0]), int(picked[i, 0])
        if bad or h < 0 or h >= H or pts < 0:
            out_i[i, width] = -BAD_SHEET
            refused += 1
            continue
        if ph < 0 or ph > OVER or (ph == OVER) != (mask == 0) or held < 0 or held > 6:
            out_i[i, width] = -BAD_MOMENT
            refused += 1
            continue
        base = float(pts)
        if ph == OVER:
            out_f[i, 2 * width] = float(pts + h)
            continue
        if ph == THROW:
            out_f[i, 2 * width] = base + W[mask, h]
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
            s, p = int(pick_shape[code - 3, r]), pick_points[code - 3]
            out_f[i, 2 * width] = base + pick_value(W, after, s, h, float(p), q, qcum)
            continue
        count = 0
        if ph == COLLECT or ph == HITS:
            g = h + 1 if ph == HITS else h  # after Continue the good for the rethrow is paid already
            after, face = mask & ~(1 << combo), combo + 1
            table = col[:, : g + 1]
            collect_table(W, after, face, binom, sign, table)
            go = np.nan
            if g > 0 and held < 6:
                go = 0.0
                for j in range(6 - held + 1):
                    go += binom[6 - held, j] * table[held + j, g - 1]
            if ph == HITS:
                out_f[i, 2 * width] = base + go
                continue
            if not np.isnan(go):
                out_i[i, count], out_f[i, count] = 1, base + go
                count += 1
            stop = face * held + end_value(W, after, h)
            out_i[i, count], out_f[i, count] = 2, base + stop
            count += 1
        else:  # DECIDE: Reroll, then every free combination with every argument
            if normal and h > 0:
                out_i[i, count] = 0
                out_f[i, count] = base + W[mask, h - 1]
                count += 1
            for p in range(pick_combo.shape[0]):
                c = int(pick_combo[p])
                if not (mask >> c) & 1:
                    continue
                after = mask & ~(1 << c)
                if c < N_COLLECTS:
                    face, showing = int(pick_points[p]), int(pick_shape[p, r])
                    table = col[:, : h + 1]
                    collect_table(W, after, face, binom, sign, table)
                    stop = face * showing + end_value(W, after, h)
                    best = stop
                    if h > 0 and showing < 6:
                        go = 0.0
                        for j in range(6 - showing + 1):
                            go += binom[6 - showing, j] * table[showing + j, h - 1]
                        if sign * go > sign * best:
                            best = go
                    value = best
                else:
                    value = pick_value(W, after, int(pick_shape[p, r]), h, float(pick_points[p]), q, qcum)
                out_i[i, count] = 3 + p
                out_f[i, count] = base + value
                count += 1
        best = out_f[i, 0]
        for k in range(1, count):
            if sign * out_f[i, k] > sign * best:
                best = out_f[i, k]
        for k in range(count):
            cost = sign * (best - out_f[i, k])
            out_f[i, width + k] = cost if cost > tie else 0.0
        out_f[i, 2 * width] = best
        out_i[i, width] = count
    return refused
