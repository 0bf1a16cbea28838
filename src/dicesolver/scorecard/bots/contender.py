"""The Yacht Dice notebook's "contender": static hand values refined by simulation.

Start from the expected-value agent. Each round, for every category c and every score s it can hold,
play games that start with c already holding s (the upper total counting it) under the current static
strategy; the new hand value of scoring s in c is s plus those games' mean remaining score. A few rounds
bring in the value of the upper bonus and which boxes are good dumps, as in the notebook.
"""

from __future__ import annotations

import numpy as np

from .kernels.strategies import STATIC
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
        for c, cat in enumerate(game.categories):
            for s in np.unique(scores[:, c]):
                upper = min(int(s), model.rules.threshold) if (cat.is_upper and model.rules.threshold) else 0
                gained = model.rules.upper_points if (cat.is_upper and model.rules.threshold and s >= model.rules.threshold) else 0
                flag = 1 if (game.tracks_yacht_flag and c == model.rules.yacht_cat and s > 0) else 0
                totals, _, _, _ = player.play_many(throws, rand, start=(1 << c, upper, flag, 0))
                new_h[scores[:, c] == s, c] = s + gained + totals.mean()
        h = new_h
    return h
