"""Simulation of one-player strategies in any game that has them: many games, the same dice for every
strategy (common random numbers), reproducible from a seed, summarised the same way for every family."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core import registry
from ..core.counts import ScoreCounts
from ..core.errors import InputError
from ..core.family import Progress, Simulated
from ..core.protocol import Game
from ..core.results import SimulationSummary

PERCENTILES = (5, 25, 50, 75, 95)
MAX_GAMES = 100_000_000


@dataclass(repr=False)
class SimulationRun:
    summary: SimulationSummary
    scores: ScoreCounts  # how many games ended on each final score
    details: dict = field(default_factory=dict)  # the family's counts for figures (each box's points, ...)

    def __repr__(self) -> str:
        s = self.summary
        return f"<SimulationRun {s.game} {s.player}: {s.games:,} games, mean {s.mean:.3f}, sd {s.sd:.3f}>"

    def _repr_html_(self) -> str:
        from ..core.display import table

        s = self.summary
        rows = [(s.player, s.games, s.mean, s.sd, s.min, s.percentiles["50"], s.max)]
        return table(f"{s.game}: {s.games:,} games, seed {s.seed}", ["player", "games", "mean", "sd", "min",
                                                                     "median", "max"], rows)

    def to_pandas(self) -> Any:
        """The final scores as a DataFrame: score, games ending on it (pandas: the notebook extra)."""
        from ..core.display import frame

        return frame({"score": self.scores.scores, "games": self.scores.counts})


def summarize(game: str, seed: int, run: Simulated) -> SimulationSummary:
    """The statistics of one strategy's final scores, with the family's own facts."""
    scores = run.scores
    n = scores.n
    sd = scores.sd
    return SimulationSummary(
        game=game, player=run.player, games=n, seed=seed, mean=scores.mean, sd=sd,
        stderr=sd / float(np.sqrt(n)) if n else 0.0,
        percentiles={str(p): scores.percentile(p) for p in PERCENTILES}, mode=scores.mode, min=scores.min,
        max=scores.max, seconds=run.seconds, **run.facts)


def simulate(game: Game, players: list[str], n: int = 10_000, seed: int = 0, samples: int = 0,
             progress: Progress | None = None) -> list[SimulationRun]:
    """``n`` games for each named strategy (the same dice for all); one run per strategy. Memory does not
    grow with ``n`` where the family streams its games (the scorecard games: 100 million fit)."""
    if not 1 <= n <= MAX_GAMES:
        raise InputError(f"the number of games is between 1 and {MAX_GAMES:,}")
    if not players:
        raise InputError("name at least one player")
    runs = registry.family_of(game).simulate(game, players, n, seed, samples=samples, progress=progress)
    return [SimulationRun(summarize(game.canonical, seed, r), r.scores, r.details) for r in runs]
