"""Malina, the optimal two-player strategy: every decision maximises the equity (+1 win, 0 draw,
-1 loss) read from the exact two-player table, given both scorecards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..dice import Dice
from ..errors import InputError
from ..games.position import Position
from ..solvers.duel import DuelPosition, DuelSolution


@dataclass
class MalinaPlayer:
    solution: DuelSolution
    name: str = "malina"

    def _duel_position(self, position: Position, opponents: Sequence[Position]) -> DuelPosition:
        if len(opponents) != 1:
            raise InputError("Malina plays against exactly one opponent")
        game = self.solution.game
        other = opponents[0]
        return DuelPosition(position.used, other.used, position.total(game) - other.total(game))

    def choose_keep(self, position: Position, rng: np.random.Generator, opponents: Sequence[Position] = ()) -> Dice:
        pos = self._duel_position(position, opponents)
        equities = self.solution.keep_equities(pos, position.dice, position.rolls_left)
        # the best equity; ties go to keeping more dice (fewer changes), then to the smaller keep
        return max(equities, key=lambda k: (equities[k], len(k), [-d for d in k]))

    def choose_category(self, position: Position, rng: np.random.Generator, opponents: Sequence[Position] = ()) -> int:
        pos = self._duel_position(position, opponents)
        equities = self.solution.category_equities(pos, position.dice)
        return max(equities, key=lambda c: (equities[c], -c))
