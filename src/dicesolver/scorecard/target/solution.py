"""The target judge behind the protocol (``core.solved.TargetChance``): one player's own card played for a
score, the best chance of finishing with at least T points, or of beating a known score S (exactly S counts
half), from the target tables."""

from __future__ import annotations

from ...core.results import SolveInfo
from ...core.solved import TargetChance
from ..game.encoding import ScorecardEncoding
from ..game.rules import ScorecardGame
from ..game.state import ScorecardState
from ..solitaire.answers import SolitaireEngine
from .table import TargetTable


class ScorecardTargetChance(SolitaireEngine, TargetChance[ScorecardGame, ScorecardState]):
    """The best chance that the player's own final score reaches ``score`` (``beat``: exceeds it, a tie
    counting half), whatever the other cards hold: the solitaire engine on the target table."""

    encoding: ScorecardEncoding

    def __init__(self, game: ScorecardGame, table: TargetTable, score: int, beat: bool, info: SolveInfo):
        SolitaireEngine.__init__(self, table.model, table.V, self.tie, self.judge, aim=(score, table.N, table.tie))
        TargetChance.__init__(self, game, table, score, beat, info)
        self.encoding = ScorecardEncoding(game)

    def goal(self) -> str:
        return f"beating {self.score} (a tie counts half)" if self.beat else f"reaching {self.score} points"

    def score_so_far(self, state: ScorecardState) -> int:
        return state.cards[0 if state.player is None else state.player].total(self.game)

    def seat_value(self, state: ScorecardState, seat: int) -> float:
        """Another seat's chance: its own card at the start of its turn."""
        return float(self.answer(self.encoding.turn_start(state, seat)).value[0])
