"""A push-your-luck game's solution behind the protocol: every state's probability of winning."""

from __future__ import annotations

from typing import Any

from ..core.results import SolveInfo
from ..core.solved import SolvedGame
from .rules import PushGame
from .solver import PushSolution
from .state import Hold, PushState, Throw


class WinProbability(SolvedGame[PushGame, PushState]):
    """The probability that a player wins under optimal play by both (the exact table)."""

    unit = "p_win"
    tie = 1e-12

    def __init__(self, game: PushGame, table: PushSolution, info: SolveInfo):
        super().__init__(game, info)
        self.table = table

    def headline(self) -> str:
        return f"the first player wins with probability {self.root_value:.7f} under optimal play by both"


    def state_value(self, state: PushState, seat: int | None = None) -> float:
        if state.winner is not None:
            return 1.0 if state.winner == (seat or 0) else 0.0
        t = self.table
        if state.throwing:
            v = t.roll_value(state.mine, state.theirs, state.turn_total)
        else:
            v = t.win(state.mine, state.theirs, state.turn_total)
        return v if seat is None or seat == state.mover else 1.0 - v

    def action_values(self, state: PushState) -> list[tuple[Any, float]]:
        t = self.table
        return [(Throw(), t.roll_value(state.mine, state.theirs, state.turn_total)),
                (Hold(), t.hold_value(state.mine, state.theirs, state.turn_total))]

    def details(self, state: PushState) -> dict[str, Any]:
        if state.winner is not None:
            return {}
        return {"thresholds": self.table.thresholds(state.mine, state.theirs)}

    def notes(self, state: PushState) -> list[str]:
        if state.winner is not None:
            return []
        stops = self.table.thresholds(state.mine, state.theirs)
        return [f"this turn's stop/go turn totals: {' '.join(map(str, stops)) or '-'}"]
