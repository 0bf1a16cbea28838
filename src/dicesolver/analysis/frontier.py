"""The trade-offs of a risk appetite (``dicesolver frontier``): for a sweep of theta, each strategy's exact
final-score distribution (``Family.distribution(game, theta=...)``), read for its mean, spread, percentiles and
its chance of finishing first in a blind field of N players who each play for the mean on their own cards
(``core.aims.Field``), and, as a check, the same figures from simulated games of each strategy."""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from ..core import registry
from ..core.aims import Field, theta_player
from ..core.errors import InputError
from ..core.protocol import Game
from ..core.results import Frontier, FrontierCheck, FrontierRow

THETAS = (-0.05, -0.02, -0.01, -0.005, 0.0, 0.005, 0.01, 0.02, 0.05)
PERCENTILES = ("5", "50", "95", "99")
FIELDS = (2, 10, 100)


def frontier(game: Game, thetas: Sequence[float] = THETAS, progress: Callable[[int, int], None] | None = None,
             simulate: int = 0, seed: int = 0) -> Frontier:
    """Each theta's row from its strategy's exact distribution; ``simulate``: that many games of each strategy
    (the bot ``theta:X``, the same dice for all) beside it, as a check."""
    family = registry.family_of(game)
    if simulate < 0:
        raise InputError("--simulate is a number of games, 0 or more")
    mean_player = np.array(family.distribution(game, progress=progress).pmf())
    fields = {n: Field(n).against(mean_player, "players who play for the mean") for n in FIELDS}
    played = family.simulate(game, [theta_player(t) for t in thetas], n=simulate, seed=seed, progress=progress) \
        if simulate else [None] * len(thetas)
    rows = []
    for theta, games in zip(thetas, played):
        d = family.distribution(game, progress=progress, theta=theta)
        p = np.array(d.pmf())
        scores = np.arange(len(p))
        if theta:
            top = (theta * scores[p > 0]).max()
            ce = float((top + np.log(np.sum(p * np.exp(theta * scores - top)))) / theta)
        else:
            ce = d.mean
        wins = {str(n): float(p @ field.utility(scores)) for n, field in fields.items()}
        check = None
        if games is not None:
            seen, counts = games.scores.nonzero()
            check = FrontierCheck(games=games.scores.n, mean=games.scores.mean, sd=games.scores.sd,
                                  percentiles={q: int(games.scores.percentile(float(q))) for q in PERCENTILES},
                                  field_wins={str(n): float(counts @ field.utility(seen)) / games.scores.n
                                              for n, field in fields.items()})
        rows.append(FrontierRow(theta=float(theta), certainty_equivalent=ce, mean=d.mean, sd=d.sd,
                                percentiles={q: d.percentiles[q] for q in PERCENTILES}, field_wins=wins,
                                simulated=check))
    measures: dict[str, list[float]] = {"mean": [r.mean for r in rows]}
    measures |= {f"p{q}": [float(r.percentiles[q]) for r in rows] for q in PERCENTILES}
    measures |= {f"field of {n}": [r.field_wins[str(n)] for r in rows] for n in FIELDS}
    best = {name: rows[int(np.argmax(values))].theta for name, values in measures.items()}  # the first on a tie
    return Frontier(game=game.canonical, rows=rows, best=best)
