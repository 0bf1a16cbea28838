"""A push-your-luck game's solution behind the protocol: every state's probability of winning."""

from __future__ import annotations

from typing import Any

from ..core.results import SolveInfo
from ..core.solved import WinChance
from .answers import PushEngine
from .encoding import PushEncoding
from .rules import PushGame
from .solver import PushTable
from .state import PushState


class WinProbability(PushEngine, WinChance[PushGame, PushState]):
    """The probability that a player wins under optimal play by both (the exact table)."""

    tie = 1e-12

    def __init__(self, game: PushGame, table: PushTable, info: SolveInfo):
        PushEngine.__init__(self, table, self.tie)
        WinChance.__init__(self, game, info)
        self.encoding = PushEncoding(game)

    def headline(self) -> str:
        return f"the first player wins with probability {self.root_value:.7f} under optimal play by both"

    def details(self, state: PushState) -> dict[str, Any]:
        if state.winner is not None:
            return {}
        return {"thresholds": self.table.thresholds(state.mine, state.theirs)}

    def notes(self, state: PushState) -> list[str]:
        if state.winner is not None:
            return []
        stops = self.table.thresholds(state.mine, state.theirs)
        return [f"this turn's stop/go turn totals: {' '.join(map(str, stops)) or '-'}"]
