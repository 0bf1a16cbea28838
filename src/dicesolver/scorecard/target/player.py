"""The target player, ``target:T``, and every goal's player (``field:N``): plays for the best chance of a goal
on its own final score, from the goal's table of needs (``scorecard.target``), deciding in the kernels
(``kernels``) one decision at a time in play and many games at once in simulations, so both always
agree."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.jit import Stripes
from ...core.dice import Dice
from ...core.aims import AtLeast, FinalScoreGoal, table_needs
from ..game.kernels.played import PlayedGames
from .kernels import decide_target_box, decide_target_keep, target_games
from ..game.position import Position
from ..game.rules import ScorecardGame
from .table import TargetTable, load_or_build, load_or_build_goal

@dataclass
class TargetPlayer:
    """Plays one's own card for ``goal`` (at least ``aim`` points for a target; opponents' cards are not looked
    at), its needs counted from ``aim``."""

    game: ScorecardGame
    aim: int
    table: TargetTable
    goal: FinalScoreGoal

    @classmethod
    def build(cls, game: ScorecardGame, aim: int, progress=None) -> TargetPlayer:
        return cls(game, aim, load_or_build(game.with_players(1), table_needs(aim), progress)[0], AtLeast(aim))

    @classmethod
    def for_goal(cls, game: ScorecardGame, goal: FinalScoreGoal, progress=None) -> TargetPlayer:
        """The player of any goal on the final score (a field against the mean-players resolved here)."""
        if isinstance(goal, AtLeast):
            return cls.build(game, goal.score, progress)
        table, goal, _, _ = load_or_build_goal(game.with_players(1), goal, progress)
        return cls(game, goal.aim(), table, goal)

    @property
    def name(self) -> str:
        return self.goal.text()

    def _state(self, position: Position) -> tuple[int, int, int, int]:
        m = self.table.model
        u = position.used
        t, g = position.progress(self.game), position.group(self.game)
        return u, g, t, self.aim - position.total(self.game)

    def _rules(self) -> tuple:
        m = self.table.model
        return (self.table.V, self.table.N + 1, m.rules)

    def choose_keep(self, position: Position, rng: np.random.Generator, opponents=()) -> Dice:
        u, g, t, need = self._state(position)
        dice = self.game.dice
        k = decide_target_keep(u, g, t, dice.roll_index(position.showing), position.rolls_left, need,
                               *self._rules(), dice.graph)
        return dice.keeps[k]

    def choose_category(self, position: Position, rng: np.random.Generator, opponents=()) -> int:
        u, g, t, need = self._state(position)
        return int(decide_target_box(u, g, t, self.game.dice.roll_index(position.showing), need, *self._rules()))

    def play_many(self, throws: np.ndarray, rand: np.ndarray, start: tuple[int, int, int, int] = (0, 0, 0, 0)):
        """As ``KernelPlayer.play_many``: (totals, boxes, upper bonus reached, extra bonuses)."""
        out = PlayedGames.empty(throws.shape[0], self.game.n_categories)
        with Stripes() as stripes:
            stripes.each(target_games, self.aim, tuple(int(x) for x in start), throws, *self._rules(),
                         self.game.dice.graph, out)
        return out.results()
