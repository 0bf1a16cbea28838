"""Despirala's solution behind the protocol: every player's expected final score (normal play: higher is
better; misere: lower)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..core.aims import AtLeast, Beat, FinalScoreGoal, Percentile
from ..core.family import TableSize
from ..core.protocol import Unit
from ..core.results import Explanation, SolveInfo
from ..core.solved import CertaintyEquivalent, SolvedGame, TargetChance
from .answers import DespiralaEngine
from .encoding import DespiralaEncoding
from .rules import DespiralaGame
from .solver import DespiralaTable, certainty
from .state import DespiralaState
from .target import TargetTable, layout


class ExpectedFinalScore(DespiralaEngine, SolvedGame[DespiralaGame, DespiralaState]):
    """Expected final score (points + goods left) with expected-score play from here, for any seat."""

    unit: Unit = "points"
    tie = 1e-9

    judge = "points"

    def __init__(self, game: DespiralaGame, table: DespiralaTable, info: SolveInfo):
        DespiralaEngine.__init__(self, table.mode, self.tie, W=np.asarray(table.W))  # higher_is_better: in normal play
        SolvedGame.__init__(self, game, info)
        self.table = table
        self.encoding = DespiralaEncoding(game)
        self._breakdown: Any = None  # the breakdown table, when first asked why

    def headline(self) -> str:
        goal = "highest" if self.higher_is_better else "lowest"
        return f"expected final score {self.root_value:.3f} playing for the {goal} score"

    explains = True

    def explain(self, position: DespiralaState | str, versus: str | None = None,
                progress: Callable[[int, int], None] | None = None) -> Explanation:
        """Each option's expected final score split over the combinations' points to come, the goods left at
        the end and the points so far, with its standard deviation (the breakdown table: built once, with
        ``progress``, and cached)."""
        from ..core.why import explanation
        from .breakdown import aspect_names, aspect_titles, turn_split

        state = self.state(position)
        self.prepare_explain(progress)
        here, options = turn_split(self.table, self._breakdown, state)
        return explanation(self, state, aspect_names(), aspect_titles(), here, options, versus)

    def explain_size(self) -> TableSize:
        from .breakdown import breakdown_size

        return breakdown_size()

    def prepare_explain(self, progress: Callable[[int, int], None] | None = None) -> None:
        if self._breakdown is None:
            from .breakdown import load_or_build

            self._breakdown = load_or_build(self.table, progress)

    def seat_value(self, state: DespiralaState, seat: int) -> float:
        """Another seat's expected final score: its points and what its own turns to come are worth."""
        me = state.seats[seat]
        return float(me.final) if state.over else me.points + self.table.end_value(me.free, me.goods)


class DespiralaCertaintyEquivalent(CertaintyEquivalent[DespiralaGame, DespiralaState], ExpectedFinalScore):
    """Normal play's expected final score with a risk appetite (``core.solved.CertaintyEquivalent``), its table
    solved by ``solver``."""

    headline_digits = 3

    def __init__(self, game: DespiralaGame, table: DespiralaTable, info: SolveInfo):
        DespiralaEngine.__init__(self, table.mode, self.tie, W=np.asarray(table.W), theta=table.theta)
        SolvedGame.__init__(self, game, info)
        self.table, self.theta = table, table.theta
        self.encoding = DespiralaEncoding(game)
        self._breakdown = None

    def seat_value(self, state: DespiralaState, seat: int) -> float:
        """Another seat's certainty equivalent: its points and its own turns to come."""
        me = state.seats[seat]
        if state.over:
            return float(me.final)
        return me.points + certainty(self.table.end_value(me.free, me.goods), self.theta)


class DespiralaTargetChance(DespiralaEngine, TargetChance[DespiralaGame, DespiralaState]):
    """The best chance that a player's own final score reaches a target (at least it; at most it in misere
    play), or passes a score to beat (a tie counting half), or the best expected worth of another goal on it
    (a blind field, a percentile: normal play), whatever the others do."""

    def __init__(self, game: DespiralaGame, table: TargetTable, goal: FinalScoreGoal, info: SolveInfo):
        offset, rows, _ = layout(table.N, table.within)
        DespiralaEngine.__init__(self, table.mode, self.tie, V=np.asarray(table.V), offset=offset, rows=rows,
                                 target=(goal.aim(), table.N, table.tie, table.within), row=table.row)
        TargetChance.__init__(self, game, table, goal, info)
        self.encoding = DespiralaEncoding(game)

    def goal(self) -> str:
        if isinstance(self.final_goal, Beat):
            return f"{'beating' if self.table.normal else 'finishing under'} {self.score} (a tie counts half)"
        if isinstance(self.final_goal, AtLeast) and not isinstance(self.final_goal, Percentile):
            return f"finishing with {'at least' if self.table.normal else 'at most'} {self.score} points"
        return self.final_goal.words()

    def score_so_far(self, state: DespiralaState) -> int:
        return state.seat.points

    def seat_value(self, state: DespiralaState, seat: int) -> float:
        """Another seat's chance: its own sheet when its turn ends as it stands."""
        me = state.seats[seat]
        need = self.score - me.points
        return self.table.end(0 if state.over else me.free, me.goods, need)
