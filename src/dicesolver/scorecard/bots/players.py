"""Players: the ``Player`` protocol and the named strategies a user can pick.

A scorecard player answers two questions about a position (``game.position.Position``): which dice to
keep, and which category to score. Randomness is injected (a numpy ``Generator``) so that games are
reproducible. In games with opponents, their positions are passed as ``opponents`` (solitaire
strategies ignore them; Malina needs them). Built-in strategies make their decisions in the numba kernels, so the fast simulator and
these Python objects always agree.
"""

from __future__ import annotations

from typing import Protocol, Sequence, runtime_checkable

import numpy as np

from ...core.dice import Dice
from ...core.aims import parse_theta_player, theta_player
from ...core.errors import InputError
from .names import ALIASES, BOTS, STRATEGIES
from .kernels import OPTIMAL, STATIC
from ..game.position import Position
from ..game.rules import ScorecardGame
from ..solitaire.table import load_or_solve
from .contender import contender_values
from .strategies import MODES, KernelPlayer, _model, hand_values


@runtime_checkable
class Player(Protocol):
    name: str

    def choose_keep(self, position: Position, rng: np.random.Generator, opponents: Sequence[Position] = ()) -> Dice:
        """The dice to hold (a sub-multiset of the position's dice); the rest are thrown again."""

    def choose_category(self, position: Position, rng: np.random.Generator, opponents: Sequence[Position] = ()) -> int:
        """The index of the category to score the position's dice in (no throw left)."""


def make_player(name: str, game: ScorecardGame, contender_games: int = 400, seed: int = 0) -> KernelPlayer:
    """A built-in strategy by name (see ``STRATEGIES``), or 'theta:X', the optimal one of risk appetite X."""
    theta = parse_theta_player(name)
    if theta is not None:  # the optimal strategy of a risk appetite, on its table of certainty equivalents
        table, _ = load_or_solve(game, theta=theta)
        return KernelPlayer(theta_player(theta), game, OPTIMAL, np.zeros((1, 1)), table.values, _model(game), theta)
    key = name.strip().lower().replace("_", "-")
    if key not in STRATEGIES:
        raise InputError(f"unknown player {name!r} (players: {', '.join(STRATEGIES)})")
    model = _model(game)
    dummy_h = np.zeros((1, 1))
    dummy_values = np.zeros(1)
    if key == "optimal":
        solution, _ = load_or_solve(game)
        return KernelPlayer(key, game, OPTIMAL, dummy_h, solution.values, model)
    if key in MODES:
        return KernelPlayer(key, game, MODES[key], dummy_h, dummy_values, model)
    if key == "contender":
        h = contender_values(game, games_per_start=contender_games, seed=seed)
    else:
        h = hand_values(game, key)
    return KernelPlayer(key, game, STATIC, np.ascontiguousarray(h), dummy_values, model)



__all__ = ["Player", "KernelPlayer", "STRATEGIES", "BOTS", "ALIASES", "make_player"]
