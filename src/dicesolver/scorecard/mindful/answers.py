"""The Mindful Maximus judge's answer engine: situations of any number of players in, each option's expected
result out, when everyone plays Maximus from then on (the future-score distribution tables,
``kernels/answers.py``)."""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np

from ..solitaire.answers import SOLITAIRE_REASONS, solitaire_blob
from ..turn.engine import CardEngine
from .future import FutureTable


class MindfulEngine(CardEngine):
    """Answers situations of any number of players in the Mindful Maximus model (the future-score
    distribution tables): each option's expected result when everyone plays Maximus from then on."""

    unit = "equity"
    _reasons = SOLITAIRE_REASONS
    _players = 1
    judge = "mindful"

    def __init__(self, table: FutureTable, tie: float = 1e-9):
        super().__init__(table.game, tie)
        self.table = table
        self._future = table.arrays

    @cached_property
    def _blob(self) -> np.ndarray:
        return solitaire_blob(self.table.model)

    @cached_property
    def _tables(self) -> tuple[Any, ...]:
        return (self._future, self._blob)

    @cached_property
    def _kernels(self):
        from .kernels.answers import answer_mindful

        return answer_mindful, None, 0
