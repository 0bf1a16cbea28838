"""Two-person Farkle's solution behind the protocol: every state's probability of winning."""

from __future__ import annotations

from typing import Any

from ..core.results import SolveInfo
from ..core.solved import WinChance
from .answers import FarkleEngine
from .encoding import FarkleEncoding
from .rules import FarkleGame
from .solver import FarkleTable
from .state import FarkleState


class FarkleWinProbability(FarkleEngine, WinChance[FarkleGame, FarkleState]):
    """The probability that a player wins under optimal play by both (the exact table)."""

    tie = 1e-9  # the table converges to 1e-10

    def __init__(self, game: FarkleGame, table: FarkleTable, info: SolveInfo):
        FarkleEngine.__init__(self, table, self.tie)
        WinChance.__init__(self, game, info)
        self.encoding = FarkleEncoding(game)

    def headline(self) -> str:
        return f"the first player wins with probability {self.root_value:.6f} under optimal play by both"

    def details(self, state: FarkleState) -> dict[str, Any]:
        return {} if state.winner is not None else {"farkles": list(state.farkles)}
