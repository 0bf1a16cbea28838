"""The batch answer engine of push-your-luck games (``kernels.answer_push``): situations (the arrays of
``PushEncoding.situations``) in, the mover's probability of winning after throwing and after holding out.
The one path behind ``WinProbability``'s values, advice and reviews; a few situations are answered by its
Python form (``answers_numpy``, the same to the bit) until the process has loaded the kernel."""

from __future__ import annotations

from functools import cached_property

from ..core.answers import Answers, NumpyFirst, Situations, as_situations
from ..core.arrays import frozen
from ..core.errors import InputError
from ..core.protocol import Unit
from . import answers_numpy
from .solver import PushTable, game_arrays

KEYS = ("scores", "turn_total", "on_turn", "throwing")
REASONS = {
    1: "a score is negative, or at the goal while the game goes on",
    2: "a situation is seen by the player on turn (on_turn 1), or is a won game's end",
    3: "the turn total has reached the goal: the game is over",
    4: "nothing is at risk: the turn starts with a throw (throwing 1)",
}


class PushEngine:
    _width = 2
    unit: Unit = "p_win"
    judge = "exact"

    def __init__(self, table: PushTable, tie: float):
        self.table, self.tie = table, tie
        self._chances = frozen(table.table)  # the table's array: the mover's chance at each turn's state
        self._outcomes = game_arrays(table.game)
        self._most = table.game.goal - 1 + max(int(self._outcomes.adds.max(initial=0)), 0)
        self._numpy_first = NumpyFirst(lambda: self._kernel, table.game.canonical)  # in Python until numba loads

    def answer(self, situations: Situations, parallel: bool | None = None) -> Answers:
        scores, turn_total, on_turn, throwing = as_situations(situations, KEYS)
        if (scores.ndim != 2 or scores.shape[1] != 2 or any(a.ndim != 2 or a.shape[1] != 1
                                                             for a in (turn_total, on_turn, throwing))):
            raise InputError("situations of this game are scores (n, 2), turn_total, on_turn and throwing (n, 1)")
        out = Answers.empty(scores.shape[0], self._width, self.judge, self.unit)
        f, i = out.buffers
        form = answers_numpy.answer_push if self._numpy_first.takes(scores.shape[0]) else self._kernel
        refused = form(scores, turn_total, on_turn, throwing, self._chances, self._outcomes, self._most, self.tie, f, i)
        return out.check(REASONS) if refused else out

    @cached_property
    def _kernel(self):
        from .kernels import answer_push

        return answer_push
