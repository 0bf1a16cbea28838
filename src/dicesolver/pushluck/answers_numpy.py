"""The push-your-luck answer kernel (``kernels.answer_push``) in Python, for a few situations while a process
has not loaded numba: the same options, values and refusals, each value's sums in the kernel's order, so the
same answers to the bit (``tests/test_pushluck.py`` compares the two on thousands of situations). A one-shot
``advise skunk`` then answers without loading numba and the compiled kernel (most of its time)."""

from __future__ import annotations

import numpy as np

from .rules import Outcomes

BAD_SCORES, NOT_ON_TURN, BAD_TOTAL, NO_CHOICE = 1, 2, 3, 4  # the kernel's reasons (tested equal)


def throw_value(m: int, o: int, t: int, goal: int, table: np.ndarray, outcomes: Outcomes) -> float:
    """``kernels.throw_value``: the mover's chance of winning when throwing at (m, o, t)."""
    adds, probs, p_bust, p_reset = outcomes
    roll = p_bust * (1.0 - table[o, m, 0]) + p_reset * (1.0 - table[o, 0, 0])
    for e in range(adds.shape[0]):
        u = t + adds[e]
        roll += probs[e] * (table[m, o, u] if m + u < goal else 1.0)
    return roll


def answer_push(scores: np.ndarray, turn_total: np.ndarray, on_turn: np.ndarray, throwing: np.ndarray,
                table: np.ndarray, outcomes: Outcomes, most: int, tie: float, out_f: np.ndarray,
                out_i: np.ndarray) -> int:
    """``kernels.answer_push``, line for line: every situation's options and value; returns how many were
    refused (their count: minus the reason)."""
    goal = table.shape[0]
    width = out_i.shape[1] - 1
    refused = 0
    for i in range(scores.shape[0]):
        m, o, t = int(scores[i, 0]), int(scores[i, 1]), int(turn_total[i, 0])
        out_i[i, width] = 0
        out_i[i, :width] = -1
        out_f[i, :2 * width] = np.nan
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
