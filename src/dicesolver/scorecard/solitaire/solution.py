"""The expected-score judge: the solitaire table's expected final score with best play, answered by its
engine (``answers.SolitaireEngine``) and valued, advised and explained by the protocol (``core.solved``).
With several players it judges each player by their own card alone (a review "in points")."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ...core.family import TableSize
from ...core.protocol import Unit
from ...core.results import Explanation, SolveInfo
from ...core.solved import CertaintyEquivalent, SolvedGame
from ..game.encoding import ScorecardEncoding
from ..game.rules import ScorecardGame
from ..game.state import ScorecardState
from .answers import SolitaireEngine
from .table import SolitaireTable, TurnState


class ExpectedScore(SolitaireEngine, SolvedGame[ScorecardGame, ScorecardState]):
    """Expected final score under optimal play of the player's own card (the solitaire table)."""

    unit: Unit = "points"
    tie = 1e-9
    judge = "points"

    def __init__(self, game: ScorecardGame, table: SolitaireTable, info: SolveInfo):
        SolitaireEngine.__init__(self, table.model, table.values, self.tie, self.judge)
        SolvedGame.__init__(self, game, info)
        self.table = table
        self.encoding = ScorecardEncoding(game)
        self._turn_why: Any = None  # the breakdown table and its widget, when first asked why
        from .breakdown import explainable

        # whether the trainer and the pages ask why: its table on disk, or quick to build in memory (Maxi Yatzy's is
        # built on disk when `advise --explain` asks for it)
        self.explains = explainable(game, table.model.size)

    def headline(self) -> str:
        return f"optimal expected score {self.root_value:.6f}"

    def warm_up(self, single: bool = False) -> None:
        """The answer kernels, and the solve's parallel kernel (a first solve compiles only its serial part)."""
        super().warm_up(single)
        if not single:
            self.table.model.compile_parallel_solve()

    def explain(self, position: ScorecardState | str, versus: str | None = None,
                progress: Callable[[int, int], None] | None = None) -> Explanation:
        """Each option's expected final score split over the boxes, the upper bonus and the extra bonuses, with
        its standard deviation (the breakdown table: built once, with ``progress``, and cached)."""
        from ...core.why import Split, explanation
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
                           split(facts.position), [split(row) for row in facts.rows], versus,
                           prizes=breakdown.aspect_prizes(game))

    def explain_size(self) -> TableSize:
        from .breakdown import breakdown_size

        return breakdown_size(self.game, self.table.model.size)

    def prepare_explain(self, progress: Callable[[int, int], None] | None = None) -> None:
        self._why(progress)

    def _why(self, progress: Callable[[int, int], None] | None) -> Any:
        if self._turn_why is None:
            from .breakdown import TurnWhy, load_or_build

            self._turn_why = TurnWhy(load_or_build(self.game, lambda: self.table, progress), self.numpy_form)
        return self._turn_why

    def seat_value(self, state: ScorecardState, seat: int) -> float:
        """Another seat's card, judged alone: its points and what its own turns to come are worth."""
        card = state.cards[seat]
        to_come = 0.0 if card.is_over() else self.table.value(TurnState.of(self.game, card))
        return float(card.total(self.game)) + to_come

    def details(self, state: ScorecardState) -> dict[str, Any]:
        if state.player is None:
            return {"score_so_far": state.cards[0].facts(self.game).total}
        return {"score_so_far": state.card.facts(self.game).total, "rolls_left": state.rolls_left}


class ScorecardCertaintyEquivalent(CertaintyEquivalent[ScorecardGame, ScorecardState], ExpectedScore):
    """The expected-score judge with a risk appetite (``core.solved.CertaintyEquivalent``), its table solved by
    ``turn.kernels.risk``."""

    def __init__(self, game: ScorecardGame, table: SolitaireTable, info: SolveInfo, theta: float):
        SolitaireEngine.__init__(self, table.model, table.values, self.tie, self.judge, theta=theta)
        SolvedGame.__init__(self, game, info)
        self.table, self.theta = table, theta
        self.encoding = ScorecardEncoding(game)
        self._turn_why = None
