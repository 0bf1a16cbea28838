"""The Mindful Maximus judge behind the protocol: any number of players, every game; the expected result (win
n - 1, k tied leaders (n - k)/k, loss -1) of each option when everyone plays Maximus from then on."""

from __future__ import annotations

from ...core.errors import InputError
from ...core.results import SolveInfo
from ...core.solved import SolvedGame
from ..game.encoding import ScorecardEncoding
from ..game.rules import ScorecardGame
from ..game.state import ScorecardState
from .answers import MindfulEngine
from .player import MindfulPlayer


def _at_turn_start(state: ScorecardState) -> bool:
    return state.dice is None and not state.held and state.rolls_left == state.game.rolls


class MindfulModel(MindfulEngine, SolvedGame[ScorecardGame, ScorecardState]):
    """Any number of players: each option's expected result when every player plays Maximus from then on."""

    unit = "equity"
    tie = 1e-9
    exact = False  # a model of the others' play, not a solution of the game
    judge = "mindful"
    encoding: ScorecardEncoding
    unit_words = "expected result in the mindful model (win n - 1, tie shared, loss -1; everyone playing Maximus after)"

    def __init__(self, game: ScorecardGame, player: MindfulPlayer, info: SolveInfo):
        MindfulEngine.__init__(self, player.table, self.tie)
        SolvedGame.__init__(self, game, info)
        self.model = player
        self.encoding = ScorecardEncoding(game)

    def headline(self) -> str:
        return f"the first player's expected result in the mindful model: {self.root_value:+.6f}"

    def seat_value(self, state: ScorecardState, seat: int) -> float:
        """Anyone's value at the start of a turn (as if it were theirs; a finished card: its total against
        the others' futures)."""
        if state.is_terminal():
            return state.returns()[seat]
        if not _at_turn_start(state):
            raise InputError("the mindful model values the player on turn, or anyone at the start of a turn")
        return float(self.answer(self.encoding.turn_start(state, seat)).value[0])

    def notes(self, state: ScorecardState) -> list[str]:
        n = len(state.cards)
        return [f"win {n - 1}, loss -1; everyone playing Maximus after"]
