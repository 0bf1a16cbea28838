"""The exact two-person judge's answer engine: two-player situations in, the mover's equity for each option
out, from the equity table (``kernels/answers.py``)."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.answers import Answers
from ...core.arrays import frozen, pack
from ..turn.engine import CardEngine, hold_masks, padded_subs, possible_scores, table_pair

if TYPE_CHECKING:
    from .table import DuelTable

DUEL_REASONS = {
    1: "a box holds a score it cannot hold",
    2: "the dice are not all showing, or one is not a face of the dice",
    3: "the throws left do not fit the moment (0..rolls-1 with dice showing, 1..rolls-1 for a re-throw)",
    4: "dice are held while dice are showing",
    5: "every box is filled: the game is over",
    6: "a total is not its card's points",
    7: "not a position of this table (the mover has filled as many boxes as the other player or one fewer; a "
       "sub-game's table holds only the positions that follow its start)",
}


class DuelEngine(CardEngine):
    """Answers two-player situations from the exact equity table (the mover's equity)."""

    unit = "equity"
    _reasons = DUEL_REASONS
    _players = 2
    judge = "exact"

    def __init__(self, table: DuelTable, tie: float):
        super().__init__(table.game, tie)
        self.table = table
        self._pair = table_pair(table.values)
        self._pair_offset = frozen(table.model.pair_offset)

    @cached_property
    def _blob(self) -> np.ndarray:
        """The layout's and the dice's integer arrays in one (the order of ``duel.kernels.answers``)."""
        game = self.game
        dice = game.dice
        ptr, idx = dice.roll_sub_keeps
        sub_pad = padded_subs(game)
        possible = possible_scores(game)
        scalars = [dice.n_rolls, game.n_categories, game.n_dice, game.faces, game.rolls, dice.n_keeps,
                   dice.roll_offset, possible.shape[1] - 1, sub_pad.shape[1]]
        arrays = [self.table.model.maxsum, self.table.model.scores, dice.keep_add, sub_pad, ptr, idx, hold_masks(game),
                  possible]
        return pack(scalars, arrays)

    @cached_property
    def _tables(self) -> tuple[Any, ...]:
        return (*self._pair, self._pair_offset, self._blob)

    def answer_positions(self, mover: int, other: int, diff: int, dice: np.ndarray, rolls_left: int) -> Answers:
        """The same answers for one table position given as (mover's used boxes, other's, score difference)
        with the sorted ``dice`` (1, n_dice) showing: the two-player solver's own questions."""
        from .kernels.answers import answer_positions

        out = Answers.empty(1, self._width, self.judge, self.unit)
        f, i = out.buffers
        one = np.array([mover], dtype=np.int64), np.array([other], dtype=np.int64), np.array([diff], dtype=np.int64)
        refused = answer_positions(*one, dice, np.zeros_like(dice), np.array([[rolls_left]], dtype=np.int64),
                                   *self._tables, self.tie, f, i)
        return out.check(self._reasons) if refused else out

    @cached_property
    def _kernels(self):
        from .kernels.answers import FIELDS, answer_parts, answer_serial

        return answer_serial, answer_parts, FIELDS
