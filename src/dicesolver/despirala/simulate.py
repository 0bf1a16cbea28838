"""Despirala simulated: many games played with the decisions of a table (the exact model or a Monte
Carlo one), with the seed's statistics (mean, stdev, percentiles, mode)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..core.arrays import frozen
from ..core.errors import InputError
from .kernels.expected import simulate_games
from .rules import ALL_FREE
from .solver import check_mode, kernel_throws, value_sign
from .target import TargetTable

MAX_GAMES = 100_000_000


@dataclass
class DespiralaStats:
    mode: str
    model: str  # "exact" or "N samples"
    expected: float  # the model's own value of the start
    games: int
    mean: float
    stdev: float
    stderr: float
    percentiles: dict[str, int]
    mode_score: int
    seconds: float
    histogram: dict[str, list] = field(default_factory=dict)


def play_games(W: np.ndarray, mode: str, n: int, seed: int, start: tuple[int, int, int] = (ALL_FREE, 0, 0),
               theta: float = 0.0) -> np.ndarray:
    """Final scores of ``n`` games played with table ``W``'s decisions (reproducible from ``seed``), from
    the start of a turn: ``start`` = (free combinations, goods before this turn's 5, points); ``theta``: the
    risk appetite ``W`` was solved for."""
    mode = check_mode(mode)
    if not 1 <= n <= MAX_GAMES:
        raise InputError(f"the number of games is between 1 and {MAX_GAMES:,}")
    scores = np.zeros(n, dtype=np.int64)
    # W in one type, cached or new
    simulate_games(frozen(W), value_sign(mode, theta), float(theta), kernel_throws(mode), tuple(int(x) for x in start),
                   int(seed) % 2**31, scores)
    return scores


def statistics(mode: str, model: str, expected: float, scores: np.ndarray, seconds: float) -> DespiralaStats:
    pct = {str(p): int(np.percentile(scores, p, method="inverted_cdf")) for p in (5, 25, 50, 75, 95)}
    values, freq = np.unique(scores, return_counts=True)
    hist_counts, edges = np.histogram(scores, bins=min(60, max(1, int(values[-1] - values[0] + 1))))
    return DespiralaStats(mode, model, expected, len(scores), float(scores.mean()), float(scores.std(ddof=1)),
                          float(scores.std(ddof=1) / np.sqrt(len(scores))), pct, int(values[np.argmax(freq)]),
                          seconds, {"edges": edges.tolist(), "counts": hist_counts.tolist()})


def simulate_despirala(mode: str, n: int, seed: int, samples: int = 0) -> tuple[DespiralaStats, np.ndarray]:
    """Statistics of ``n`` games played by the exact model (``samples`` = 0) or a Monte Carlo model."""
    from .solver import load_or_solve, solve

    mode = check_mode(mode)
    if samples:
        W = solve(mode, samples=samples, seed=seed)
        model = f"{samples} sample{'s' if samples != 1 else ''}"
    else:
        W = np.asarray(load_or_solve(mode)[0].W)
        model = "exact"
    start = time.perf_counter()
    scores = play_games(W, mode, n, seed)
    return statistics(mode, model, float(W[ALL_FREE, 5]), scores, time.perf_counter() - start), scores


def play_target_games(table: TargetTable, aim: int, n: int, seed: int,
                      start: tuple[int, int, int] = (ALL_FREE, 0, 0)) -> np.ndarray:
    """Final scores of ``n`` games played for the best chance of ``aim`` (``TargetPlayer``'s decisions, in
    the kernels), reproducible from ``seed``, from the start of a turn: ``start`` = (free combinations,
    goods before this turn's 5, points)."""
    from .kernels.target import target_games

    if not 1 <= n <= MAX_GAMES:
        raise InputError(f"the number of games is between 1 and {MAX_GAMES:,}")
    free, goods, scored = start
    if free & ~table.within or not 0 <= aim - scored <= table.N:
        raise InputError("the target table does not hold this start or this aim")
    scores = np.zeros(n, dtype=np.int64)
    target_games(table.arrays, aim, kernel_throws(table.mode), tuple(int(x) for x in start), int(seed) % 2**31, scores)
    return scores
