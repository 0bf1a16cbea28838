"""Malina, the optimal two-player strategy: every decision maximises the equity (+1 win, 0 draw,
-1 loss) read from the exact two-player table, given both scorecards. With several opponents she
plays against the most dangerous one: the opponent against whom her two-player equity, at the start
of her turn, is lowest (ties: the first in seating order)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ...core.dice import Dice
from ...core.errors import InputError
from .table import DuelPosition, DuelTable
from ..game.position import Position


@dataclass
class MalinaPlayer:
    solution: DuelTable
    name: str = "malina"

    def opponent(self, position: Position, opponents: Sequence[Position]) -> int:
        """Index of the most dangerous opponent."""
        if not opponents:
            raise InputError("Malina needs at least one opponent")
        game = self.solution.game
        equities = [self.solution.equity(DuelPosition(position.used, o.used, position.total(game) - o.total(game)))
                    for o in opponents]
        return min(range(len(opponents)), key=lambda i: (equities[i], i))

    def _duel_position(self, position: Position, opponents: Sequence[Position]) -> DuelPosition:
        game = self.solution.game
        other = opponents[self.opponent(position, opponents)]
        return DuelPosition(position.used, other.used, position.total(game) - other.total(game))

    def choose_keep(self, position: Position, rng: np.random.Generator, opponents: Sequence[Position] = ()) -> Dice:
        pos = self._duel_position(position, opponents)
        equities = self.solution.keep_equities(pos, position.showing, position.rolls_left)
        # the best equity; ties go to keeping more dice (fewer changes), then to the smaller keep
        return max(equities, key=lambda k: (equities[k], len(k), [-d for d in k]))

    def choose_category(self, position: Position, rng: np.random.Generator, opponents: Sequence[Position] = ()) -> int:
        pos = self._duel_position(position, opponents)
        equities = self.solution.category_equities(pos, position.showing)
        return max(equities, key=lambda c: (equities[c], -c))
