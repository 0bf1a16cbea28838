"""A player's rating: where a game's (or a training session's) mean loss per decision stands on a named scale,
calibrated per game on the project's own bots.

GNU Backgammon names a player's error rate ("Expert", "World class"); a mean loss of 0.9 points a decision
says nothing to a Yahtzee player until it is placed. The scale is placed by three bots of the family
(``Family.rating_bots``: a strong one, a middling one, a weak one, each named by the level it plays at),
whose mean losses per decision are measured by the same judge on games they play on fixed dice
(``core.calibration``). On a logarithmic scale of the loss, the levels are equally spaced between those three
anchors (one level per step from the strong bot's to the middling bot's, and again to the weak bot's); each
level's band reaches half a step either side of it. "Perfect" is no loss at all. A player's games vary: one
game's rating is a sample, a session of many a fair measure.

This module reads scales (``known_scale``): the built-in games' anchors ship in ``rating_anchors.json``
(``scripts/rating_anchors.py`` writes it, with the same games and dice), used while the game's solution is the
one they were measured with; any other game's are measured once by ``core.calibration`` and kept in the table
cache, under ``scale_key``.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Sequence

from . import tables
from .errors import InputError, TableError

if TYPE_CHECKING:
    from .solved import SolvedGame

PERFECT = "perfect"
LEVELS = ("world class", "expert", "advanced", "intermediate", "casual", "beginner")  # best first
CALIBRATION_GAMES = 40  # games each anchor bot plays (the same dice for every game and version)
CALIBRATION_SEED = 20261207
KIND = "rating-scales"


@dataclass(frozen=True)
class Band:
    level: str
    below: float  # the band holds mean losses from the band before's bound up to this one (the last: inf)


@dataclass(frozen=True)
class RatingScale:
    """A game's scale under one judge: the bands, best first, and the anchors it was placed by."""

    game: str
    unit: str
    bands: tuple[Band, ...]
    anchors: tuple[tuple[str, str, float], ...]  # (bot, its level, its median mean loss per decision)
    tie: float

    def rate(self, mean_loss: float) -> str:
        """The level of a mean loss per decision."""
        if mean_loss <= self.tie:
            return PERFECT
        return next(band.level for band in self.bands if mean_loss < band.below)

    def rows(self) -> list[tuple[str, float, float | None]]:
        """(level, mean loss per decision from, below: None for no bound) best first, the anchors' bots named
        beside their levels; perfect is no loss at all (from 0 below 0)."""
        anchored = {level: bot for bot, level, _ in self.anchors}
        rows: list[tuple[str, float, float | None]] = [(PERFECT, 0.0, 0.0)]
        low = 0.0
        for band in self.bands:
            level = band.level + (f" ({anchored[band.level]})" if band.level in anchored else "")
            rows.append((level, low, None if math.isinf(band.below) else band.below))
            low = band.below
        return rows


def bands(anchors: Sequence[tuple[str, float]]) -> tuple[Band, ...]:
    """Bands for the LEVELS from three anchors ((level, loss), strong to weak, losses rising): levels equally
    spaced in log(loss) between consecutive anchors, each band half a step either side of its level. Where the
    strong bot loses nothing (a small game it plays perfectly), its level is placed by the middling-to-weak
    spacing carried on."""
    (l1, a1), (l2, a2), (l3, a3) = anchors
    i1, i2, i3 = (LEVELS.index(level) for level in (l1, l2, l3))
    if a1 <= 0 and 0 < a2 < a3 and i1 < i2 < i3:
        a1 = math.exp(math.log(a2) - (i2 - i1) * (math.log(a3) - math.log(a2)) / (i3 - i2))
    if not (i1 < i2 < i3 and 0 < a1 < a2 < a3):
        raise InputError("the bots do not rank as the scale needs (their losses must rise with their level)")
    x1, x2, x3 = (math.log(a) for a in (a1, a2, a3))
    position = []  # log(loss) at each level's centre
    for i in range(len(LEVELS)):
        if i <= i2:
            position.append(x1 + (i - i1) * (x2 - x1) / (i2 - i1))
        else:
            position.append(x2 + (i - i2) * (x3 - x2) / (i3 - i2))
    out = []
    for i, level in enumerate(LEVELS):
        below = math.exp((position[i] + position[i + 1]) / 2) if i + 1 < len(LEVELS) else math.inf
        out.append(Band(level, below))
    return tuple(out)


def make_scale(solution: SolvedGame, anchors: Sequence[tuple[str, str, float]]) -> RatingScale:
    """The scale of ``solution`` from its anchors (bot, level, median mean loss), strong to weak."""
    return RatingScale(solution.game.canonical, solution.unit, bands([(level, m) for _, level, m in anchors]),
                       tuple((bot, level, float(m)) for bot, level, m in anchors), solution.tie)


@lru_cache(maxsize=1)
def published() -> dict[str, dict[str, dict[str, list]]]:
    """The built-in games' anchors as shipped: {game: {"judge:unit": {"root": value, "bots": [...],
    "levels": [...], "medians": [...]}}}."""
    return json.loads(resources.files(__package__).joinpath("rating_anchors.json").read_text())


def scale_key(solution: SolvedGame) -> tables.TableKey:
    """Where a measured scale of ``solution`` is cached: its game, judge and root value (a table that changes
    moves it), and the measurement's games and dice."""
    game = solution.game
    identity = (f"{KIND}-v1:{getattr(game, 'fingerprint', game.canonical)}:{game.canonical}:{solution.judge}:"
                f"{solution.unit}:{solution.root_value!r}:{CALIBRATION_GAMES}:{CALIBRATION_SEED}")
    return tables.TableKey(KIND, game.canonical, hashlib.sha256(identity.encode()).hexdigest())


def known_scale(solution: SolvedGame) -> RatingScale | None:
    """The scale of ``solution``'s game and judge as shipped or measured already (None: neither)."""
    shipped = published().get(solution.game.canonical, {}).get(f"{solution.judge}:{solution.unit}")
    if shipped and abs(float(shipped["root"]) - solution.root_value) <= 1e-9:  # type: ignore[arg-type]
        return make_scale(solution, list(zip(shipped["bots"], shipped["levels"], shipped["medians"])))
    try:
        loaded = tables.load(scale_key(solution))
        return make_scale(solution, list(zip(loaded.manifest["bots"], loaded.manifest["levels"],
                                             loaded.arrays["medians"])))
    except (TableError, KeyError, ValueError, InputError):
        return None


def rating(solution: SolvedGame, mean_loss: float) -> str | None:
    """The level of a mean loss per decision on ``solution``'s scale where it is known (``known_scale``)."""
    found = known_scale(solution)
    return None if found is None else found.rate(mean_loss)
