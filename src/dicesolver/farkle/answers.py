"""The answer engine of two-person Farkle: situations (``FarkleEncoding.situations``) in, every legal
option's probability of winning out. Each situation's turn is solved backwards from the table of turn
starts (``kernels.turn``, from its turn total up: a fraction of a millisecond), once for all the
situations of a batch that share a turn start and a Farkle value."""

from __future__ import annotations

from functools import cached_property

import numpy as np

from ..core.answers import Answers, Situations, as_situations
from ..core.errors import InputError
from .encoding import BANK, THROW, take_codes
from .rules import DICE, FACES, UNIT
from .solver import FarkleSolution

KEYS = ("scores", "farkles", "turn_total", "left", "table", "on_turn", "throwing")


class FarkleEngine:
    unit = "p_win"
    judge = "exact"

    def __init__(self, solution: FarkleSolution, tie: float):
        self.solution, self.tie = solution, tie
        g = solution.game
        self.game = g
        self.goal, self.floor = g.goal // UNIT, g.floor // UNIT
        self.size = self.goal - self.floor
        self.width = widest(g)

    def answer(self, situations: Situations, parallel: bool | None = None) -> Answers:
        scores, farkles, turn_total, left, table, on_turn, throwing = as_situations(situations, KEYS)
        n = scores.shape[0]
        shapes = ((scores, 2), (farkles, 2), (turn_total, 1), (left, 1), (table, FACES), (on_turn, 1), (throwing, 1))
        if any(a.ndim != 2 or a.shape[1] != k for a, k in shapes):
            raise InputError("situations of this game are scores, farkles (n, 2), turn_total, left, on_turn, "
                             f"throwing (n, 1) and table (n, {FACES})")
        out = Answers.empty(n, self.width, self.judge, self.unit)
        f, codes = out.buffers
        f[:] = np.nan
        codes[:] = -1
        pre = np.empty((self.size + 1, DICE + 1))
        last: tuple[int, int, int, int] | None = None
        down_to = 0
        first = 0.0
        for row in range(n):
            if on_turn[row, 0] == 0 and max(scores[row]) >= self.game.goal:  # a won game, seen from seat 0
                codes[row, self.width] = 0
                f[row, 2 * self.width] = 1.0 if scores[row, 0] >= self.game.goal else 0.0
                continue
            key = self._check(row, scores[row], farkles[row], int(turn_total[row, 0]), int(left[row, 0]),
                              table[row], int(on_turn[row, 0]), int(throwing[row, 0]))
            i, j, fm, fo, t = key
            if (i, j, fm, fo) != last or t + 1 < down_to:
                down_to = t + 1
                first = self._turn(i, j, fm, fo, pre, down_to)
                last = (i, j, fm, fo)
            self._fill(row, f, codes, pre, first, key, int(left[row, 0]), table[row], int(throwing[row, 0]))
        return out

    def _check(self, row, scores, farkles, total, left, table, on_turn, throwing) -> tuple[int, int, int, int, int]:
        g = self.game
        where = f"situation {row}"
        if on_turn != 1:
            raise InputError(f"{where}: a situation is seen by the player on turn (on_turn 1), not a won game's end")
        for s in scores:
            if not g.floor <= s < g.goal or s % UNIT:
                raise InputError(f"{where}: scores are multiples of {UNIT} from {g.floor} to {g.goal - UNIT}")
        if any(not 0 <= x < g.farkle_limit for x in farkles):
            raise InputError(f"{where}: Farkles in a row are 0 to {g.farkle_limit - 1}")
        if total < 0 or total % UNIT or scores[0] + total >= g.goal:
            raise InputError(f"{where}: the turn total is a multiple of {UNIT} short of the goal")
        shown = int(table.sum())
        if not 1 <= left <= DICE or (table < 0).any() or (shown and (shown != left or throwing)):
            raise InputError(f"{where}: 1 to 6 dice are left, and the table shows them all or none (while a "
                             "throw is due)")
        if not throwing and not shown and total == 0:
            raise InputError(f"{where}: a turn starts with a throw (throwing 1)")
        return ((int(scores[0]) - g.floor) // UNIT, (int(scores[1]) - g.floor) // UNIT, int(farkles[0]),
                int(farkles[1]), total // UNIT)

    def _turn(self, i: int, j: int, fm: int, fo: int, pre: np.ndarray, down_to: int) -> float:
        g = self.game
        farkle = float(self._farkle_value(i, j, fm, fo, self.solution.starts, self.floor, g.farkle_limit,
                                          g.penalty // UNIT))
        self._farkle = farkle
        return float(self._turn_kernel(i, j, fo, farkle, self.solution.starts, self.goal, self.floor,
                                       g.min_bank // UNIT, pre, *g.classes.arrays(), down_to))

    def _fill(self, row, f, codes, pre, first, key, left, table, throwing) -> None:
        i, j, fm, fo, t = key
        w = self.width
        to_goal = self.goal - (i + self.floor)
        if throwing:
            value = first if t == 0 else self._roll(t, left, to_goal, pre)
            codes[row, w] = 0
            f[row, 2 * w] = value
            return
        options: list[tuple[int, float]]
        if table.sum():
            dice = tuple(face + 1 for face in range(FACES) for _ in range(int(table[face])))
            options = []
            for code, k, points in take_codes(self.game, dice):
                total = t + points // UNIT
                options.append((code, 1.0 if total >= to_goal else float(pre[total, left - k or DICE])))
            if not options:
                raise InputError(f"situation {row}: the table has nothing to set aside (a Farkle ends the turn)")
        else:
            options = [(THROW, self._roll(t, left, to_goal, pre))]
            if t >= self.game.min_bank // UNIT:
                options.append((BANK, 1.0 - float(self.solution.starts[j, i + t, fo, 0])))
        best = max(v for _, v in options)
        for col, (code, v) in enumerate(options):
            codes[row, col] = code
            f[row, col] = v
            cost = best - v
            f[row, w + col] = 0.0 if cost <= self.tie else cost
        codes[row, w] = len(options)
        f[row, 2 * w] = best

    def _roll(self, t: int, n: int, to_goal: int, pre: np.ndarray) -> float:
        return float(self._roll_kernel(t, n, to_goal, self._farkle, pre, *self.game.classes.arrays()))

    @cached_property
    def _turn_kernel(self):
        from .kernels import turn

        return turn

    @cached_property
    def _roll_kernel(self):
        from .kernels import roll_value

        return roll_value

    @cached_property
    def _farkle_value(self):
        from .kernels import farkle_value

        return farkle_value


def widest(game) -> int:
    """The most set-asides any throw offers (at least the two of bank or throw)."""
    import itertools

    most = 2
    for dice in itertools.combinations_with_replacement(range(1, FACES + 1), DICE):
        most = max(most, len(take_codes(game, dice)))
    return most
