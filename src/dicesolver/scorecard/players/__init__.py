"""Players: the ``Player`` protocol and the named strategies a user can pick.

A scorecard player answers two questions about a position (``games.position.Position``): which dice to
keep, and which category to score. Randomness is injected (a numpy ``Generator``) so that games are
reproducible. In games with opponents, their positions are passed as ``opponents`` (solitaire
strategies ignore them; Malina needs them). Built-in strategies make their decisions in the numba kernels, so the fast simulator and
these Python objects always agree.
"""

from __future__ import annotations

from typing import Protocol, Sequence, runtime_checkable

import numpy as np

from ...core.dice import Dice
from ..position import Position


@runtime_checkable
class Player(Protocol):
    name: str

    def choose_keep(self, position: Position, rng: np.random.Generator, opponents: Sequence[Position] = ()) -> Dice:
        """The dice to hold (a sub-multiset of ``position.dice``); the rest are thrown again."""

    def choose_category(self, position: Position, rng: np.random.Generator, opponents: Sequence[Position] = ()) -> int:
        """The index of the category to score ``position.dice`` in (``position.rolls_left == 0``)."""


from .strategies import STRATEGIES, KernelPlayer, make_player  # noqa: E402

__all__ = ["Player", "KernelPlayer", "STRATEGIES", "make_player"]
