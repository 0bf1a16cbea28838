"""The answer engine of two-person Farkle: situations (``FarkleEncoding.situations``) in, every legal
option's probability of winning out. Each situation's turn is solved backwards from the table of turn
starts (``kernels.turn``, from the goal down to its turn total: a fraction of a millisecond), once for all
the situations of a batch that share a turn start, and, for games played in step
(``answer_in_step``), once for all the decisions of a game's turn."""

from __future__ import annotations

import threading
from functools import cached_property, partial
from typing import Callable

import numpy as np

from ..core.answers import Answers, Situations, as_situations
from ..core.errors import InputError
from ..core.protocol import Unit
from .encoding import BANK, THROW, take_codes
from .rules import DICE, FACES, UNIT
from .solver import FarkleTable

KEYS = ("scores", "farkles", "turn_total", "left", "table", "on_turn", "throwing")


class FarkleEngine:
    unit: Unit = "p_win"
    judge = "exact"

    def __init__(self, table: FarkleTable, tie: float):
        self.table, self.tie = table, tie
        g = table.game
        self.game = g
        self._rules, self._throws = g.kernel_rules, g.classes.arrays()
        self._goal, self._floor = self._rules.goal, self._rules.floor
        self._size = self._goal - self._floor
        self._width = widest(g)
        self._single_lock = threading.Lock()

    def answer(self, situations: Situations, parallel: bool | None = None, memo: TurnMemo | None = None
               ) -> Answers:
        """Every legal option of every situation (InputError naming the first that cannot be). ``memo``
        (``memo_for``): where each game of a batch played in step keeps its turn's solution, so that the
        turn's later decisions, in later calls, solve nothing."""
        scores, farkles, turn_total, left, table, on_turn, throwing = as_situations(situations, KEYS)
        n = scores.shape[0]
        shapes = ((scores, 2), (farkles, 2), (turn_total, 1), (left, 1), (table, FACES), (on_turn, 1), (throwing, 1))
        if any(a.ndim != 2 or a.shape[1] != k for a, k in shapes):
            raise InputError("situations of this game are scores, farkles (n, 2), turn_total, left, on_turn, "
                             f"throwing (n, 1) and table (n, {FACES})")
        out = Answers.empty(n, self._width, self.judge, self.unit)
        f, codes = out.buffers
        f[:] = np.nan
        codes[:] = -1
        keys: dict[int, tuple[int, int, int, int, int]] = {}
        for row in range(n):
            if on_turn[row, 0] == 0 and max(scores[row]) >= self.game.goal:  # a won game, seen from seat 0
                codes[row, self._width] = 0
                f[row, 2 * self._width] = 1.0 if scores[row, 0] >= self.game.goal else 0.0
                continue
            keys[row] = self._check(row, scores[row], farkles[row], int(turn_total[row, 0]), int(left[row, 0]),
                                    table[row], int(on_turn[row, 0]), int(throwing[row, 0]))
        if memo is not None:
            self._solve_and_fill(list(keys), {row: row for row in keys}, keys, memo, f, codes, left, table, throwing)
        else:
            # a turn is solved from the goal down to the lowest turn total asked: the rows of one turn start,
            # lowest total first, share one solution
            order, slots = sorted(keys, key=keys.__getitem__), dict.fromkeys(keys, 0)
            if n == 1:  # one situation at a time (hints, the web, an environment's steps) carries its turn
                with self._single_lock:
                    self._solve_and_fill(order, slots, keys, self._single, f, codes, left, table, throwing)
            else:
                self._solve_and_fill(order, slots, keys, self.memo_for(1), f, codes, left, table, throwing)
        return out

    def memo_for(self, size: int) -> TurnMemo:
        """A memo for ``size`` games played in step (row j of every call: game j's situation)."""
        return TurnMemo(size, self._size + 1)

    def answer_in_step(self, size: int) -> Callable[[Situations], Answers]:
        """``answer`` for ``size`` games played in step: each game's turn solved once, in ``memo_for(size)``."""
        return partial(self.answer, memo=self.memo_for(size))

    @cached_property
    def _single(self) -> TurnMemo:
        """The last single situation's turn: a turn's decisions asked one by one solve it once. Threads take
        turns with it (``_single_lock``): the engine runs Python between its kernels."""
        return self.memo_for(1)

    def _solve_and_fill(self, order, slots, keys, memo, f, codes, left, table, throwing) -> None:
        """Answer the rows of ``order``, each from its turn in its slot of ``memo`` (solved there unless the
        slot holds it)."""
        for row in order:
            key = keys[row]
            slot = slots[row]
            i, j, fm, fo, t = key
            if not memo.holds(slot, key):
                memo.keys[slot] = (i, j, fm, fo, t + 1)
                memo.farkle[slot] = self._farkle_value(i, j, fm, fo, self.table.starts, self._rules)
                memo.first[slot] = self._turn_kernel(i, j, fo, memo.farkle[slot], self.table.starts, self._rules,
                                                     memo.pre[slot], self._throws, t + 1)
            self._fill(row, f, codes, memo.pre[slot], float(memo.first[slot]), float(memo.farkle[slot]), key,
                       int(left[row, 0]), table[row], int(throwing[row, 0]))

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
        if total < 0 or total % UNIT or total >= g.wins_from(int(scores[0])):
            least = f" or, below {g.min_bank}, that cannot be banked" if g.min_bank else ""
            raise InputError(f"{where}: the turn total is a multiple of {UNIT} short of the goal{least}")
        shown = int(table.sum())
        if not 1 <= left <= DICE or (table < 0).any() or (shown and (shown != left or throwing)):
            raise InputError(f"{where}: 1 to 6 dice are left, and the table shows them all or none (while a "
                             "throw is due)")
        if not throwing and not shown and total == 0:
            raise InputError(f"{where}: a turn starts with a throw (throwing 1)")
        return ((int(scores[0]) - g.floor) // UNIT, (int(scores[1]) - g.floor) // UNIT, int(farkles[0]),
                int(farkles[1]), total // UNIT)

    def _fill(self, row, f, codes, pre, first, farkle, key, left, table, throwing) -> None:
        i, j, fm, fo, t = key
        w = self._width
        wins_from = self.game.wins_from(self.game.floor + i * UNIT) // UNIT
        if throwing:
            value = first if t == 0 else self._roll(t, left, wins_from, farkle, pre)
            codes[row, w] = 0
            f[row, 2 * w] = value
            return
        options: list[tuple[int, float]]
        if table.sum():
            dice = tuple(face + 1 for face in range(FACES) for _ in range(int(table[face])))
            options = []
            for code, k, points in take_codes(self.game, dice):
                total = t + points // UNIT
                options.append((code, 1.0 if total >= wins_from else float(pre[total, left - k or DICE])))
            if not options:
                raise InputError(f"situation {row}: the table has nothing to set aside (a Farkle ends the turn)")
        else:
            options = [(THROW, self._roll(t, left, wins_from, farkle, pre))]
            if t >= self.game.min_bank // UNIT:
                options.append((BANK, 1.0 - float(self.table.starts[j, i + t, fo, 0])))
        best = max(v for _, v in options)
        for col, (code, v) in enumerate(options):
            codes[row, col] = code
            f[row, col] = v
            cost = best - v
            f[row, w + col] = 0.0 if cost <= self.tie else cost
        codes[row, w] = len(options)
        f[row, 2 * w] = best

    def _roll(self, t: int, n: int, wins_from: int, farkle: float, pre: np.ndarray) -> float:
        return float(self._roll_kernel(t, n, wins_from, farkle, pre, self._throws))

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


class TurnMemo:
    """Solved turns, one a slot: ``keys[s]`` the turn start (my score, theirs, my Farkles in a row, theirs,
    as indices) and the lowest turn total solved, -1 for none; ``pre[s]`` the turn's values
    (``kernels.turn``), ``first`` its first throw's, ``farkle`` what a Farkle is worth in it."""

    def __init__(self, slots: int, totals: int):
        self.keys = np.full((slots, 5), -1, dtype=np.int64)
        self.first, self.farkle = np.zeros(slots), np.zeros(slots)
        self.pre = np.empty((slots, totals, DICE + 1))

    def holds(self, slot: int, key: tuple[int, int, int, int, int]) -> bool:
        """Whether slot holds the turn of ``key`` (its turn start and turn total) solved far enough down."""
        have = self.keys[slot]
        return bool(have[0] == key[0] and have[1] == key[1] and have[2] == key[2] and have[3] == key[3]
                    and 0 <= have[4] <= key[4] + 1)


def widest(game) -> int:
    """The most set-asides any throw offers (at least the two of bank or throw)."""
    import itertools

    most = 2
    for dice in itertools.combinations_with_replacement(range(1, FACES + 1), DICE):
        most = max(most, len(take_codes(game, dice)))
    return most
