"""The trade-offs of a risk appetite (``dicesolver frontier``): for a sweep of theta, each strategy's exact
final-score distribution (``Family.distribution(game, theta=...)``), read for its mean, spread, percentiles and
its chance of finishing first in a blind field of N players who each play for the mean on their own cards."""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from ..core import registry
from ..core.protocol import Game
from ..core.results import Distribution, Frontier, FrontierRow

THETAS = (-0.05, -0.02, -0.01, -0.005, 0.0, 0.005, 0.01, 0.02, 0.05)
PERCENTILES = ("5", "50", "95", "99")
FIELDS = (2, 10, 100)


def pmf(d: Distribution) -> np.ndarray:
    """Every final score's probability, from 0 to the largest."""
    out = np.zeros(max(d.probabilities) + 1)
    for score, p in d.probabilities.items():
        out[score] = p
    return out


def field_win(others: np.ndarray, n: int) -> np.ndarray:
    """For each final score x, the chance of finishing first against n - 1 players whose scores are independent
    draws of ``others`` (a pmf), a tie of j + 1 players shared: sum over j of C(n-1, j) f^j G^(n-1-j) / (j + 1)
    with f = P(= x) and G = P(< x), which is (F^n - G^n) / (n f), F = G + f (and G^(n-1) where f = 0)."""
    below = np.concatenate(([0.0], np.cumsum(others)))  # below[x] = P(other < x)
    f, G = others, below[:-1]
    F = G + f
    with np.errstate(divide="ignore", invalid="ignore"):
        shared = (F**n - G**n) / (n * f)
    return np.where(f > 0, shared, G ** (n - 1))


def frontier(game: Game, thetas: Sequence[float] = THETAS,
             progress: Callable[[int, int], None] | None = None) -> Frontier:
    family = registry.family_of(game)
    mean_player = pmf(family.distribution(game, progress=progress))
    rows = []
    for theta in thetas:
        d = family.distribution(game, progress=progress, theta=theta)
        p = pmf(d)
        scores = np.arange(len(p))
        if theta:
            top = (theta * scores[p > 0]).max()
            ce = float((top + np.log(np.sum(p * np.exp(theta * scores - top)))) / theta)
        else:
            ce = d.mean
        wins = {}
        for n in FIELDS:
            u = field_win(mean_player, n)
            width = max(len(u), len(p))
            u = np.concatenate((u, np.ones(width - len(u))))  # beyond every other score: first for certain
            wins[str(n)] = float(np.dot(np.concatenate((p, np.zeros(width - len(p)))), u))
        rows.append(FrontierRow(theta=float(theta), certainty_equivalent=ce, mean=d.mean, sd=d.sd,
                                percentiles={q: d.percentiles[q] for q in PERCENTILES}, field_wins=wins))
    measures: dict[str, list[float]] = {"mean": [r.mean for r in rows]}
    measures |= {f"p{q}": [float(r.percentiles[q]) for r in rows] for q in PERCENTILES}
    measures |= {f"field of {n}": [r.field_wins[str(n)] for r in rows] for n in FIELDS}
    best = {name: rows[int(np.argmax(values))].theta for name, values in measures.items()}  # the first on a tie
    return Frontier(game=game.canonical, rows=rows, best=best)
