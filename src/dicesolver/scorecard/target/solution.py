"""The target judge behind the protocol (``core.solved.TargetChance``): one player's own card played for a
goal on its final score (a target T, a score S to beat, a blind field; ``core.aims.FinalScoreGoal``), the
best chance of it from the table of needs built for that goal."""

from __future__ import annotations

from ...core.aims import FinalScoreGoal
from ...core.results import SolveInfo
from ...core.solved import TargetChance
from ..game.encoding import ScorecardEncoding
from ..game.rules import ScorecardGame
from ..game.state import ScorecardState
from ..solitaire.answers import SolitaireEngine
from ..solitaire.table import TurnState
from .table import TargetTable


class ScorecardTargetChance(SolitaireEngine, TargetChance[ScorecardGame, ScorecardState]):
    """The best chance of ``goal`` on the player's own final score, whatever the other cards hold: the
    solitaire engine on the goal's table of needs."""

    encoding: ScorecardEncoding

    def __init__(self, game: ScorecardGame, table: TargetTable, goal: FinalScoreGoal, info: SolveInfo):
        SolitaireEngine.__init__(self, table.model, table.V, self.tie, self.judge,
                                 aim=(goal.aim(), table.N, table.tie))
        TargetChance.__init__(self, game, table, goal, info)
        self.encoding = ScorecardEncoding(game)

    def state(self, position: ScorecardState | str) -> ScorecardState:
        """As ``SolvedGame.state``; a card with more points than any game has with its boxes filled is refused
        (a goal's table holds chances only for the points games reach)."""
        state = super().state(position)
        card = state.cards[0 if state.player is None else state.player]
        self.table.check_reached(TurnState.of(self.game, card), card.total(self.game))
        return state

    def score_so_far(self, state: ScorecardState) -> int:
        return state.cards[0 if state.player is None else state.player].total(self.game)

    def seat_value(self, state: ScorecardState, seat: int) -> float:
        """Another seat's chance: its own card at the start of its turn."""
        return float(self.answer(self.encoding.turn_start(state, seat)).value[0])
