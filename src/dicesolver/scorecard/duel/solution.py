"""The exact two-person judge behind the protocol: the equity of the player to move in a two-player game
without bonuses, from the full table or a sub-game's."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.results import SolveInfo
from ...core.solved import SolvedGame
from ..game.encoding import ScorecardEncoding
from ..game.rules import ScorecardGame
from ..game.state import ScorecardState
from .answers import DuelEngine
from .table import DuelTable


class DuelEquity(DuelEngine, SolvedGame[ScorecardGame, ScorecardState]):
    """The exact equity of the player to move in a two-player game without bonuses (+1 win, 0 draw, -1
    loss), from the full table or a sub-game's (every position reachable from some position)."""

    unit = "equity"
    tie = 1e-7  # the full table is float32
    judge = "exact"

    def __init__(self, game: ScorecardGame, table: DuelTable, info: SolveInfo):
        if table.values.dtype == np.float64:
            self.tie = 1e-9
        DuelEngine.__init__(self, table, self.tie)
        SolvedGame.__init__(self, game.with_players(2), info)
        self.encoding = ScorecardEncoding(self.game)

    def headline(self) -> str:
        return (f"the first player's equity under optimal play by both is {self.root_value:+.6f} "
                "(+1 win, 0 draw, -1 loss)")

    def seat_value(self, state: ScorecardState, seat: int) -> float:
        """The other player's equity: minus the mover's (at the end, minus the first player's)."""
        return -self.state_value(state)

    def details(self, state: ScorecardState) -> dict[str, Any]:
        if state.player is None:
            return {}
        me, other = state.card, state.opponents()[0]
        return {"lead": me.total(self.game) - other.total(self.game), "rolls_left": state.rolls_left}
