"""The Yacht Dice notebook's "contender": static hand values refined by simulation.

Start from the expected-value agent. Each round, for every category c and every score s it can hold,
play games that start with c already holding s (the upper total counting it) under the current static
strategy; the new hand value of scoring s in c is s plus those games' mean remaining score. A few rounds
bring in the value of the upper bonus and which boxes are good dumps, as in the notebook.
"""

from __future__ import annotations

import numpy as np

from .kernels import STATIC
from ..game.position import Position
from ..game.rules import ScorecardGame
from .strategies import KernelPlayer, _model, hand_values

_CACHE: dict[tuple, np.ndarray] = {}


def contender_values(game: ScorecardGame, games_per_start: int = 400, rounds: int = 3, seed: int = 0) -> np.ndarray:
    key = (game.fingerprint, games_per_start, rounds, seed)
    if key not in _CACHE:
        _CACHE[key] = _refine(game, games_per_start, rounds, seed)
    return _CACHE[key]


def _refine(game: ScorecardGame, games_per_start: int, rounds: int, seed: int) -> np.ndarray:
    model = _model(game)
    h = hand_values(game, "ev")
    rng = np.random.default_rng(seed)
    scores = game.score_table
    turns = game.n_categories - 1
    for _ in range(rounds):
        player = KernelPlayer("contender", game, STATIC, np.ascontiguousarray(h), np.zeros(1), model)
        throws = rng.integers(1, game.faces + 1, size=(games_per_start, turns, game.rolls, game.n_dice), dtype=np.int8)
        rand = rng.integers(0, 2**62, size=(games_per_start, turns, game.rolls), dtype=np.int64)
        new_h = np.empty_like(h)
        for c in range(game.n_categories):
            for s in np.unique(scores[:, c]):
                card = Position(tuple(int(s) if k == c else None for k in range(game.n_categories)), None, game.rolls)
                gained = game.bonuses_earned(card.boxes)
                totals, _, _, _ = player.play_many(throws, rand,
                                                   start=(1 << c, card.progress(game), card.group(game), 0))
                new_h[scores[:, c] == s, c] = s + gained + totals.mean()
        h = new_h
    return h
