"""A player's rating: where a game's (or a training session's) mean loss per decision stands on a named scale,
calibrated per game on the project's own bots.

GNU Backgammon names a player's error rate ("Expert", "World class"); a mean loss of 0.9 points a decision
says nothing to a Yahtzee player until it is placed. The scale is placed by three bots of the family
(``Family.rating_bots``: a strong one, a middling one, a weak one, each named by the level it plays at),
whose mean losses per decision are measured by the same judge on games they play on fixed dice. On a
logarithmic scale of the loss, the levels are equally spaced between those three anchors (one level per
step from the strong bot's to the middling bot's, and again to the weak bot's); each level's band reaches
half a step either side of it. "Perfect" is no loss at all. A player's games vary: one game's rating is a
sample, a session of many a fair measure.

Measuring the anchors takes a few seconds to a minute (the strong bots think); the built-in games' figures ship
in ``rating_anchors.json`` (``scripts/rating_anchors.py`` writes it, with the same games and dice), used while
the game's solution is the one they were measured with. Any other game's are measured on first use and kept in
the table cache.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Sequence

import numpy as np

from . import tables
from .errors import InputError, TableError

if TYPE_CHECKING:
    from .protocol import Game, State
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


def bands(anchors: list[tuple[str, float]]) -> tuple[Band, ...]:
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


def bot_losses(solution: SolvedGame, bot: str, games: int, seed: int) -> np.ndarray:
    """The mean loss per decision with a choice of each of ``games`` games ``bot`` plays in every seat (on the
    seed's dice), judged by ``solution``."""
    from . import registry
    from .protocol import seat_on_turn

    game = solution.game
    family = registry.family_of(game)
    players = [family.player(game, bot, seed=seed + s) for s in range(game.n_players)]
    rng = np.random.default_rng([seed & 0xFFFFFFFF, 61])
    out = np.zeros(games)
    s = solution.sign
    for g in range(games):
        states, steps = [], []
        state = game.start()
        while not state.is_terminal():
            if state.is_chance():
                outcomes = state.chance_outcomes()
                p = np.array([q for _, q in outcomes])
                state = state.apply(outcomes[int(rng.choice(len(outcomes), p=p / p.sum()))][0])
                continue
            step = players[seat_on_turn(state)].choose(state, rng)
            if len(state.legal_actions()) > 1:
                states.append(state)
                steps.append(step)
            state = state.apply(step)
        if not states:
            continue
        answers = solution.answers(states)
        losses = []
        for i, step in enumerate(steps):
            pairs = solution.pairs(states[i], answers, i)
            values = [v for _, v in pairs]
            if max(values) - min(values) <= solution.tie:  # as the review counts: a decision with a choice
                continue
            loss = max(s * v for v in values) - s * dict(pairs)[step]
            losses.append(loss if loss > solution.tie else 0.0)
        out[g] = float(np.mean(losses)) if losses else 0.0
    return out


@lru_cache(maxsize=1)
def published() -> dict[str, dict[str, dict[str, object]]]:
    """The built-in games' anchors as shipped: {game: {"judge:unit": {"root": value, "bots": [...],
    "medians": [...]}}}."""
    return json.loads(resources.files(__package__).joinpath("rating_anchors.json").read_text())


def measure(solution: SolvedGame, anchors: Sequence[tuple[str, str]]) -> list[float]:
    """Each anchor bot's median mean loss per decision over its CALIBRATION_GAMES games."""
    return [float(np.median(bot_losses(solution, bot, CALIBRATION_GAMES, CALIBRATION_SEED + 1000 * i)))
            for i, (bot, _) in enumerate(anchors)]


def scale(solution: SolvedGame, measure_now: bool = True) -> RatingScale:
    """The rating scale of ``solution``'s game and judge: its anchors as published for a built-in game, else
    measured once (seconds to minutes: a judge of many players answers slowly) and kept in the table cache.
    ``measure_now`` False: InputError rather than measuring."""
    from . import registry

    game: Game = solution.game
    family = registry.family_of(game)
    anchors = family.rating_bots
    if len(anchors) != 3:
        raise InputError(f"{game.canonical}: no rating scale for this family")
    shipped = published().get(game.canonical, {}).get(f"{solution.judge}:{solution.unit}")
    if (shipped and shipped["bots"] == [bot for bot, _ in anchors]
            and abs(float(shipped["root"]) - solution.root_value) <= 1e-9):  # type: ignore[arg-type]
        return _scale(solution, anchors, [float(m) for m in shipped["medians"]])  # type: ignore[attr-defined]
    identity = (f"{KIND}-v1:{getattr(game, 'fingerprint', game.canonical)}:{game.canonical}:{solution.judge}:"
                f"{solution.unit}:{solution.root_value!r}:{CALIBRATION_GAMES}:{CALIBRATION_SEED}:{anchors}")
    key = tables.TableKey(KIND, game.canonical, hashlib.sha256(identity.encode()).hexdigest())
    if not measure_now:
        try:
            loaded = tables.load(key)
        except TableError:
            raise InputError(f"{game.canonical}: its rating scale is not measured yet (dicesolver rating)") from None
        return _scale(solution, anchors, [float(m) for m in loaded.arrays["medians"]])

    def build():
        return {"medians": np.array(measure(solution, anchors))}, 0.0, {"game": game.canonical,
                                                                        "judge": solution.judge,
                                                                        "bots": [bot for bot, _ in anchors]}

    def check(loaded: tables.LoadedTable) -> None:
        medians = loaded.arrays.get("medians")
        if medians is None or medians.shape != (3,):
            raise TableError("the rating scale's anchors have the wrong shape")

    loaded, _ = tables.load_or_build(key, build, check)
    return _scale(solution, anchors, [float(m) for m in loaded.arrays["medians"]])


def _scale(solution: SolvedGame, anchors: Sequence[tuple[str, str]], medians: list[float]) -> RatingScale:
    return RatingScale(solution.game.canonical, solution.unit,
                       bands([(level, m) for (_, level), m in zip(anchors, medians)]),
                       tuple((bot, level, m) for (bot, level), m in zip(anchors, medians)), solution.tie)


def rating(solution: SolvedGame, mean_loss: float, measure_now: bool = True) -> str | None:
    """The level of a mean loss per decision on ``solution``'s scale (None where the game has none, or with
    ``measure_now`` False, where it is neither shipped nor measured yet)."""
    try:
        return scale(solution, measure_now).rate(mean_loss)
    except InputError:
        return None


def difficulty(solution: SolvedGame, states: Sequence[State], scale: RatingScale) -> float:
    """How much harder these positions are than a whole game's decisions: what the scale's middling and weak
    bots lose on them, against what they lose a decision in their own games (1: as hard; where neither bot
    loses anything on them, 1, as nothing tells). A trainer's positions are the ones that matter, so a
    session's mean loss is divided by this before it is rated or compared."""
    from . import registry

    if not states:
        return 1.0
    family = registry.family_of(solution.game)
    answers = solution.answers(list(states))
    s = solution.sign
    lost = usual = 0.0
    for k, (bot, _, median) in enumerate(scale.anchors[1:]):
        player = family.player(solution.game, bot, seed=CALIBRATION_SEED)
        rng = np.random.default_rng([CALIBRATION_SEED, 67, k])
        losses = []
        for i, state in enumerate(states):
            pairs = solution.pairs(state, answers, i)
            step = player.choose(state, rng)
            losses.append(max(s * v for _, v in pairs) - s * dict(pairs)[step])
        lost += float(np.mean(losses))
        usual += median
    return lost / usual if lost > 0 and usual > 0 else 1.0


def rate_positions(solution: SolvedGame, states: Sequence[State], losses: Sequence[float]
                   ) -> tuple[str | None, float | None]:
    """(level, the mean loss as in a whole game) of a player's losses at ``states`` (a training session): the
    mean loss divided by the positions' ``difficulty``, rated on the game's scale ((None, None) where the game
    has no scale)."""
    try:
        game_scale = scale(solution)
    except InputError:
        return None, None
    mean = float(np.mean(losses)) if len(losses) else 0.0
    normalised = mean / difficulty(solution, states, game_scale)
    return game_scale.rate(normalised), normalised
