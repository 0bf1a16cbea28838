"""Two-person Farkle's solution behind the protocol: every state's probability of winning."""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

from ..core.answers import Answers, Situations
from ..core.results import SolveInfo
from ..core.solved import WinChance
from .answers import FarkleEngine
from .encoding import FarkleEncoding
from .rules import FarkleGame
from .solver import FarkleTable
from .state import FarkleState


class FarkleWinProbability(WinChance[FarkleGame, FarkleState]):
    """The probability that a player wins under optimal play by both (the exact table)."""

    tie = 1e-9  # the table converges to 1e-10
    engine: FarkleEngine

    def __init__(self, game: FarkleGame, solution: FarkleTable, info: SolveInfo):
        super().__init__(game, info)
        self.solution = solution
        self.encoding = FarkleEncoding(game)
        self.engine = FarkleEngine(solution, self.tie)

    def headline(self) -> str:
        return f"the first player wins with probability {self.root_value:.6f} under optimal play by both"

    def answer_in_step(self, size: int) -> Callable[[Situations], Answers]:
        return partial(self.engine.answer, memo=self.engine.memo_for(size))

    def details(self, state: FarkleState) -> dict[str, Any]:
        return {} if state.winner is not None else {"farkles": list(state.farkles)}
