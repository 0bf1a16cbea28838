"""Mindful Maximus: plays every decision for the best expected result (win n - 1, k tied leaders
(n - k) / k each, loss -1) computed on the fly by assuming that every player, itself included, plays
Maximus (max expected score) from here on. The opponents' final totals are their scores plus their
future-score distributions; they are combined into the distribution of the best opponent total and
how many share it (``result_curve``). Works for any number of players in every scorecard game; alone,
it plays exactly like Maximus.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ...core.dice import Dice
from .future import FutureTable, load_or_build
from .kernels.mindful import mindful_values, result_curve
from ..turn.kernels.widget import NEG
from ..game.position import Position
from ..game.rules import ScorecardGame
from ..solitaire.table import TurnState


def opponent_curve(table: FutureTable, opponents: Sequence[Position]) -> tuple[int, np.ndarray]:
    """(lowest total, G(total) from there on): the expected result of finishing with each total
    against these opponents (each at the start of a turn, or finished)."""
    game = table.game
    n_players = len(opponents) + 1
    if not opponents:
        return 0, np.zeros(1)
    los, probs = [], []
    for o in opponents:
        lo, p = table.distribution(TurnState.of(game, o))
        los.append(o.total(game) + lo)
        probs.append(p)
    lo_arr = np.array(los, dtype=np.int64)
    len_arr = np.array([len(p) for p in probs], dtype=np.int64)
    off = np.concatenate([[0], np.cumsum(len_arr)[:-1]]).astype(np.int64)
    top = int((lo_arr + len_arr - 1).max())
    curve = np.empty(top - int(lo_arr.max()) + 1)
    glo = result_curve(n_players, lo_arr, len_arr, off, np.concatenate(probs), curve)
    return int(glo), curve


@dataclass
class MindfulEquities:
    """Mindful equities of one position: every keep (with ``rolls_left`` > 0) and every category."""

    keeps: np.ndarray  # value of each keep index (meaningful for sub-keeps of the roll)
    categories: np.ndarray  # categories[r, c]: final roll r scored in c (NEG where not allowed)


class MindfulPlayer:
    """Mindful Maximus as a ``Player``."""

    def __init__(self, game: ScorecardGame, table: FutureTable | None = None, name: str = "mindful"):
        self.game = game
        self.table = table if table is not None else load_or_build(game)[0]
        self.name = name

    def equities(self, position: Position, opponents: Sequence[Position]) -> MindfulEquities:
        game, model = self.game, self.table.model
        glo, curve = opponent_curve(self.table, opponents)
        state = TurnState.of(game, position)
        lane = model.lane(state)
        lu = int(model.n_bonus_lanes[state.used])
        dice = game.dice
        keeps = np.full(dice.n_keeps, NEG)
        cats = np.empty((dice.n_rolls, game.n_categories))
        mindful_values(state.used, lane // lu, lane % lu, position.total(game), glo, curve, len(opponents) + 1,
                       self.table.arrays, model.rules, dice.graph, position.rolls_left - 1, keeps, cats)
        return MindfulEquities(keeps, cats)

    def finished_value(self, total: int, opponents: Sequence[Position]) -> float:
        """The expected result of a finished card's total against opponents at the start of a turn."""
        glo, curve = opponent_curve(self.table, opponents)
        i = total - glo
        if i < 0:
            return -1.0
        return float(curve[i]) if i < len(curve) else float(len(opponents))

    def keep_values(self, position: Position, opponents: Sequence[Position] = ()) -> dict[Dice, float]:
        """Equity of every keep from the current roll (``rolls_left`` > 0), in the order tried."""
        dice = self.game.dice
        eq = self.equities(position, opponents)
        r = dice.roll_index(position.showing)
        ptr, idx = dice.roll_sub_keeps
        return {dice.keeps[int(k)]: float(eq.keeps[k]) for k in idx[ptr[r]:ptr[r + 1]]}

    def category_values(self, position: Position, opponents: Sequence[Position] = ()) -> dict[int, float]:
        eq = self.equities(position, opponents)
        row = eq.categories[self.game.dice.roll_index(position.showing)]
        return {c: float(v) for c, v in enumerate(row) if v > NEG / 2}

    def choose_keep(self, position: Position, rng: np.random.Generator, opponents: Sequence[Position] = ()) -> Dice:
        values = self.keep_values(position, opponents)
        return max(values, key=values.__getitem__)  # the first of the best, as the match kernel decides

    def choose_category(self, position: Position, rng: np.random.Generator, opponents: Sequence[Position] = ()) -> int:
        values = self.category_values(position, opponents)
        return max(values, key=values.__getitem__)  # the first of the best
