"""Scorecard games' solutions behind the protocol (``core.solved.SolvedGame``): values of any state.

* ``ExpectedScore``: the solitaire table (expected final score with best play). With several players it
  judges each player by their own card alone (a review "in points").
* ``DuelEquity``: the exact two-player table of a game without bonuses (equity of the player to move).
* ``MindfulModel``: any number of players, every game: the expected result (win n - 1, k tied leaders
  (n - k)/k, loss -1) of each option when everyone plays Maximus from then on (the future-score
  distribution tables).
* ``ScorecardTargetChance``: one player's own card played for a score (``core.solved.TargetChance``): the
  best chance of finishing with at least T points, or of beating a known score S (exactly S counts half),
  from the target tables.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ..core.answers import Answers, Situations
from ..core.errors import InputError
from ..core.family import TableSize
from ..core.results import Explanation, SolveInfo
from ..core.solved import SolvedGame, TargetChance
from .answers import DuelEngine, MindfulEngine, SolitaireEngine
from .encoding import ScorecardEncoding
from .position import Position
from .rules import ScorecardGame
from .solitaire import SolitaireTable, TurnState
from .state import ScorecardState

if TYPE_CHECKING:  # each loads its own kernels: the one-player solution should not wait for them
    from .duel import DuelTable
    from .players.mindful import MindfulPlayer
    from .target import TargetTable


def _turn_state(game: ScorecardGame, card: Position) -> TurnState:
    return TurnState(card.used, card.upper_total(game), card.yacht_flag(game))


def _at_turn_start(state: ScorecardState) -> bool:
    return state.dice is None and not state.held and state.rolls_left == state.game.rolls


class ExpectedScore(SolvedGame[ScorecardGame, ScorecardState]):
    """Expected final score under optimal play of the player's own card (the solitaire table)."""

    unit = "points"
    tie = 1e-9
    judge = "points"
    explains = True

    def __init__(self, game: ScorecardGame, table: SolitaireTable, info: SolveInfo):
        super().__init__(game, info)
        self.table = table
        self.encoding = ScorecardEncoding(game)
        self.engine = SolitaireEngine(table.model, table.values, self.tie, self.judge)
        self._turn_why: Any = None  # the breakdown table and its widget, when first asked why

    def headline(self) -> str:
        return f"optimal expected score {self.root_value:.6f}"

    def answer(self, situations: Situations, parallel: bool | None = None) -> Answers:
        return self.engine.answer(situations, parallel)

    def answer_in_step(self, size: int) -> Callable[[Situations], Answers]:
        return partial(self.engine.answer, memo=self.engine.memo_for(size))

    def warm_up(self) -> None:
        """The answer kernels, and the solve's parallel kernel (a first solve compiles only its serial part)."""
        super().warm_up()
        self.table.model.compile_parallel_solve()

    def explain(self, position: ScorecardState | str, versus: str | None = None,
                progress: Callable[[int, int], None] | None = None) -> Explanation:
        """Each option's expected final score split over the boxes, the upper bonus and the extra bonuses, with
        its standard deviation (the breakdown table: built once, with ``progress``, and cached)."""
        from ..core.why import Split, explanation
        from . import breakdown

        state = self.state(position)
        why = self._why(progress)
        situation = self.encoding.situations([state])
        answers = self.answers([state])  # a position the engine refuses is refused here, with its reason
        card = situation["cards"][0, 0].tolist()
        total = int(situation["totals"][0, 0])
        facts = why.explain(card, total, situation["dice"][0].tolist(), situation["held"][0].tolist(),
                            int(situation["rolls_left"][0, 0]))
        if facts.codes != answers.codes[0, :int(answers.counts[0])].tolist():
            raise AssertionError(f"the breakdown's options differ from the engine's at {state}")
        n = why.n_aspects

        def split(row: np.ndarray) -> Split:
            return Split(facts.so_far + row[:n], float(np.sqrt(max(row[n + 1], 0.0))))

        game = self.game
        return explanation(self, state, breakdown.aspect_names(game), breakdown.aspect_titles(game),
                           split(facts.position), [split(row) for row in facts.rows], versus)

    def explain_size(self) -> TableSize:
        from .breakdown import breakdown_size

        return breakdown_size(self.game, self.table.model.size)

    def prepare_explain(self, progress: Callable[[int, int], None] | None = None) -> None:
        self._why(progress)

    def _why(self, progress: Callable[[int, int], None] | None) -> Any:
        if self._turn_why is None:
            from .breakdown import TurnWhy, load_or_build

            self._turn_why = TurnWhy(load_or_build(self.game, lambda: self.table, progress), self.engine.numpy_form)
        return self._turn_why

    def seat_value(self, state: ScorecardState, seat: int) -> float:
        """Another seat's card, judged alone: its points and what its own turns to come are worth."""
        card = state.cards[seat]
        return float(card.total(self.game)) + (0.0 if card.is_over() else self.table.value(_turn_state(self.game, card)))

    def details(self, state: ScorecardState) -> dict[str, Any]:
        if state.player is None:
            return {"score_so_far": state.cards[0].facts(self.game).total}
        return {"score_so_far": state.card.facts(self.game).total, "rolls_left": state.rolls_left}


class DuelEquity(SolvedGame[ScorecardGame, ScorecardState]):
    """The exact equity of the player to move in a two-player game without bonuses (+1 win, 0 draw, -1
    loss), from the full table or a sub-game's (every position reachable from some position)."""

    unit = "equity"
    tie = 1e-7  # the full table is float32
    judge = "exact"

    def __init__(self, game: ScorecardGame, table: DuelTable, info: SolveInfo):
        super().__init__(game.with_players(2), info)
        self.table = table
        if table.values.dtype == np.float64:
            self.tie = 1e-9
        self.encoding = ScorecardEncoding(self.game)
        self.engine = DuelEngine(table, self.tie)

    def headline(self) -> str:
        return (f"the first player's equity under optimal play by both is {self.root_value:+.6f} "
                "(+1 win, 0 draw, -1 loss)")

    def answer(self, situations: Situations, parallel: bool | None = None) -> Answers:
        return self.engine.answer(situations, parallel)

    def seat_value(self, state: ScorecardState, seat: int) -> float:
        """The other player's equity: minus the mover's (at the end, minus the first player's)."""
        return -self.state_value(state)

    def details(self, state: ScorecardState) -> dict[str, Any]:
        if state.player is None:
            return {}
        me, other = state.card, state.opponents()[0]
        return {"lead": me.total(self.game) - other.total(self.game), "rolls_left": state.rolls_left}


class MindfulModel(SolvedGame[ScorecardGame, ScorecardState]):
    """Any number of players: each option's expected result when every player plays Maximus from then on."""

    unit = "equity"
    tie = 1e-9
    exact = False  # a model of the others' play, not a solution of the game
    judge = "mindful"
    encoding: ScorecardEncoding
    unit_words = "expected result in the mindful model (win n - 1, tie shared, loss -1; everyone playing Maximus after)"

    def __init__(self, game: ScorecardGame, player: MindfulPlayer, info: SolveInfo):
        super().__init__(game, info)
        self.model = player
        self.encoding = ScorecardEncoding(game)
        self.engine = MindfulEngine(player.table, self.tie)

    def headline(self) -> str:
        return f"the first player's expected result in the mindful model: {self.root_value:+.6f}"

    def answer(self, situations: Situations, parallel: bool | None = None) -> Answers:
        return self.engine.answer(situations, parallel)

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


class ScorecardTargetChance(TargetChance[ScorecardGame, ScorecardState]):
    """The best chance that the player's own final score reaches ``score`` (``beat``: exceeds it, a tie
    counting half), whatever the other cards hold."""

    encoding: ScorecardEncoding

    def __init__(self, game: ScorecardGame, table: TargetTable, score: int, beat: bool, info: SolveInfo):
        super().__init__(game, table, score, beat, info)
        self.encoding = ScorecardEncoding(game)
        self.engine = SolitaireEngine(table.model, table.V, self.tie, self.judge, aim=(score, table.N, table.tie))

    def goal(self) -> str:
        return f"beating {self.score} (a tie counts half)" if self.beat else f"reaching {self.score} points"

    def score_so_far(self, state: ScorecardState) -> int:
        return state.cards[0 if state.player is None else state.player].total(self.game)

    def answer_in_step(self, size: int) -> Callable[[Situations], Answers]:
        return partial(self.engine.answer, memo=self.engine.memo_for(size))

    def seat_value(self, state: ScorecardState, seat: int) -> float:
        """Another seat's chance: its own card at the start of its turn."""
        return float(self.answer(self.encoding.turn_start(state, seat)).value[0])
