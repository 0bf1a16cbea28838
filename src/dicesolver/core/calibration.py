"""The rating scale's anchors measured (``core.rating``): a game's three anchor bots play their games on fixed
dice, judged by the solution whose scale it is, and a training session's positions are weighed by what the
same bots lose on them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

import numpy as np

from . import registry, tables
from .errors import InputError, TableError
from .playthrough import decisions
from .protocol import seat_on_turn
from .rating import (CALIBRATION_GAMES, CALIBRATION_SEED, RatingScale, known_scale, make_scale, scale_key)

if TYPE_CHECKING:
    from .protocol import State
    from .solved import SolvedGame


def bot_losses(solution: SolvedGame, bot: str, games: int, seed: int) -> np.ndarray:
    """The mean loss per decision with a choice of each of ``games`` games ``bot`` plays in every seat (on the
    seed's dice), judged by ``solution``."""
    game = solution.game
    family = registry.family_of(game)
    players = [family.player(game, bot, seed=seed + s) for s in range(game.n_players)]
    rng = np.random.default_rng([seed & 0xFFFFFFFF, 61])
    out = np.zeros(games)
    s = solution.sign
    for g in range(games):
        played = list(decisions(game, lambda state: players[seat_on_turn(state)].choose(state, rng), rng))
        if not played:
            continue
        states, steps = [state for state, _ in played], [step for _, step in played]
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


def measure(solution: SolvedGame, anchors: Sequence[tuple[str, str]]) -> list[float]:
    """Each anchor bot's median mean loss per decision over its CALIBRATION_GAMES games."""
    return [float(np.median(bot_losses(solution, bot, CALIBRATION_GAMES, CALIBRATION_SEED + 1000 * i)))
            for i, (bot, _) in enumerate(anchors)]


def scale(solution: SolvedGame) -> RatingScale:
    """The rating scale of ``solution``'s game and judge: as shipped or measured already, else measured now
    (seconds to minutes: a judge of several players answers slowly) and kept in the table cache. InputError
    where the family has no anchor bots."""
    found = known_scale(solution)
    if found is not None:
        return found
    game = solution.game
    anchors = registry.family_of(game).rating_bots
    if len(anchors) != 3:
        raise InputError(f"{game.canonical}: no rating scale for this family")

    def build():
        return {"medians": np.array(measure(solution, anchors))}, 0.0, {
            "game": game.canonical, "judge": solution.judge, "bots": [bot for bot, _ in anchors],
            "levels": [level for _, level in anchors]}

    def check(loaded: tables.LoadedTable) -> None:
        medians = loaded.arrays.get("medians")
        if medians is None or medians.shape != (3,) or len(loaded.manifest.get("bots", ())) != 3:
            raise TableError("the rating scale's anchors have the wrong shape")

    loaded, _ = tables.load_or_build(scale_key(solution), build, check)
    return make_scale(solution, list(zip(loaded.manifest["bots"], loaded.manifest["levels"],
                                         loaded.arrays["medians"])))


def difficulty(solution: SolvedGame, states: Sequence[State], scale: RatingScale) -> float:
    """How much harder these positions are than a whole game's decisions: what the scale's middling and weak
    bots lose on them, against what they lose a decision in their own games (1: as hard; where neither bot
    loses anything on them, 1, as nothing tells). A trainer's positions are the ones that matter, so a
    session's mean loss is divided by this before it is rated or compared."""
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
    mean loss divided by the positions' ``difficulty``, rated on the game's scale ((None, None) where the scale
    is neither shipped nor measured yet: ``dicesolver rating`` measures it)."""
    game_scale = known_scale(solution)
    if game_scale is None:
        return None, None
    mean = float(np.mean(losses)) if len(losses) else 0.0
    normalised = mean / difficulty(solution, states, game_scale)
    return game_scale.rate(normalised), normalised
