"""Simulation of scorecard strategies: many games, reproducible from a seed, with statistics.

All players in one call see the same dice (common random numbers): the dice of game i are the same
for every strategy, which makes their comparison much sharper than independent runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..core.errors import InputError
from .players import KernelPlayer, make_player
from .rules import ScorecardGame

CHUNK = 200_000  # games per batch of pre-drawn dice (about 100 MB for 5 dice, 13 turns)
PERCENTILES = (5, 25, 50, 75, 95)


@dataclass(frozen=True)
class CategoryStats:
    category: str
    scored_rate: float  # fraction of games in which the box got more than 0 points
    mean: float  # mean points in the box


@dataclass(frozen=True)
class SimulationSummary:
    game: str
    player: str
    games: int
    seed: int
    mean: float
    sd: float
    stderr: float
    percentiles: dict[str, float]
    mode: int
    min: int
    max: int
    bonus_rate: float | None  # upper bonus, where the game has one
    extra_bonus_mean: float | None  # extra-yacht bonuses per game, where the game has them
    categories: list[CategoryStats] = field(default_factory=list)


@dataclass
class SimulationRun:
    summary: SimulationSummary
    totals: np.ndarray
    boxes: np.ndarray
    bonus: np.ndarray


def random_numbers(game: ScorecardGame, n: int, rng: np.random.Generator, turns: int | None = None):
    """Dice and decision random numbers for ``n`` games: (throws, rand)."""
    turns = game.n_categories if turns is None else turns
    throws = rng.integers(1, game.faces + 1, size=(n, turns, game.rolls, game.n_dice), dtype=np.int8)
    rand = rng.integers(0, 2**62, size=(n, turns, game.rolls), dtype=np.int64)
    return throws, rand


def summarize(game: ScorecardGame, player: str, seed: int, totals, boxes, bonus, extra) -> SimulationSummary:
    n = len(totals)
    values, counts = np.unique(totals, return_counts=True)
    cats = [
        CategoryStats(cat.name, float(np.mean(boxes[:, c] > 0)), float(np.mean(boxes[:, c])))
        for c, cat in enumerate(game.categories)
    ]
    sd = float(np.std(totals, ddof=1)) if n > 1 else 0.0
    return SimulationSummary(
        game=game.canonical,
        player=player,
        games=n,
        seed=seed,
        mean=float(np.mean(totals)),
        sd=sd,
        stderr=sd / np.sqrt(n) if n else 0.0,
        percentiles={str(p): float(np.percentile(totals, p)) for p in PERCENTILES},
        mode=int(values[np.argmax(counts)]),
        min=int(totals.min()),
        max=int(totals.max()),
        bonus_rate=float(np.mean(bonus)) if game.has_upper_bonus else None,
        extra_bonus_mean=float(np.mean(extra)) if game.tracks_yacht_flag else None,
        categories=cats,
    )


def simulate(
    game: ScorecardGame,
    players: list[str],
    n: int = 10_000,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> list[SimulationRun]:
    """Play ``n`` games with each named strategy (same dice for all); one run per strategy."""
    if n < 1:
        raise InputError("the number of games must be at least 1")
    if not players:
        raise InputError("name at least one player")
    built: list[KernelPlayer] = [make_player(p, game, seed=seed) for p in players]
    rng = np.random.default_rng(seed)
    parts: list[list[tuple]] = [[] for _ in built]
    done = 0
    while done < n:
        size = min(CHUNK, n - done)
        throws, rand = random_numbers(game, size, rng)
        for i, player in enumerate(built):
            parts[i].append(player.play_many(throws, rand))
            if progress:
                progress(done * len(built) + (i + 1) * size, n * len(built))
        done += size
    runs = []
    for player, chunks in zip(built, parts):
        totals, boxes, bonus, extra = (np.concatenate([c[j] for c in chunks]) for j in range(4))
        runs.append(SimulationRun(summarize(game, player.name, seed, totals, boxes, bonus, extra), totals, boxes, bonus))
    return runs
