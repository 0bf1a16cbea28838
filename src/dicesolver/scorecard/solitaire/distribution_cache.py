"""The exact final-score distribution of optimal play, cached like every table (``dicesolver distribution``):
computed once from the expected-score table, then read back in moments without loading the table or
the kernels."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import numpy as np

from ...core import tables
from .score_stats import ScoreDistribution

if TYPE_CHECKING:
    from ..game.rules import ScorecardGame
    from .table import SolitaireTable

DISTRIBUTION_KIND = "score-distribution"


def load_or_build(game: ScorecardGame, solution: Callable[[], SolitaireTable],
                  progress: Callable[[int, int], None] | None = None,
                  theta: float = 0.0) -> tuple[ScoreDistribution, float]:
    """(distribution, chance of a perfect game) of a one-player game: from the cache, or computed now from
    ``solution()`` (with ``progress``) and cached; ``theta``: the strategy of that risk appetite, whose table
    ``solution()`` is."""
    key = tables.TableKey(DISTRIBUTION_KIND, game.canonical, game.fingerprint)
    if theta:
        from .table import table_key

        risky = table_key(game, theta)
        key = tables.TableKey(DISTRIBUTION_KIND, risky.game, risky.fingerprint)

    def build():
        from .distribution import perfect_game_probability, score_distribution

        table = solution()
        dist = score_distribution(table, progress=progress)
        arrays = {"probabilities": dist.probabilities, "category_probabilities": dist.category_probabilities}
        extra = {"bonus_probability": dist.bonus_probability, "extra_bonus_mean": dist.extra_bonus_mean,
                 "perfect_game_probability": perfect_game_probability(table)}
        return arrays, dist.mean, extra

    table, _ = tables.load_or_build(key, build)
    m = table.manifest
    dist = ScoreDistribution(np.asarray(table.arrays["probabilities"]), m["bonus_probability"],
                             np.asarray(table.arrays["category_probabilities"]), m["extra_bonus_mean"])
    return dist, float(m["perfect_game_probability"])
