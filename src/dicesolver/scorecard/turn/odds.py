"""One-turn odds (the Yacht Dice notebook's table): for each category, playing a whole turn only for it, the expected
points and the probability of reaching its maximum. Floating point through the numba widget; exact
fractions through a pure-Python widget (also the slow reference the kernel is tested against)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .oneturn import exact_turn_value, turn_values
from ..game.rules import ScorecardGame
from ..game.size import check_odds


@dataclass(frozen=True)
class CategoryOdds:
    category: str
    max_points: int
    expected_points: float
    p_max: float
    p_max_exact: str | None = None  # "a/b" when computed exactly


def one_turn_odds(game: ScorecardGame, exact: bool = False) -> list[CategoryOdds]:
    check_odds(game, exact)  # a game too big for this machine is refused before anything is built
    table = game.score_table.astype(np.float64)
    maxima = table.max(axis=0)
    hits = (table == maxima).astype(np.float64)
    values = turn_values(game.dice, game.rolls, np.hstack([table, hits]))
    n = game.n_categories
    result = []
    for c, cat in enumerate(game.categories):
        exact_text = None
        if exact:
            p = exact_turn_value(game.dice, game.rolls, [Fraction(int(h)) for h in hits[:, c]])
            exact_text = f"{p.numerator}/{p.denominator}"
        result.append(CategoryOdds(cat.name, int(maxima[c]), float(values[c]), float(values[n + c]), exact_text))
    return result
