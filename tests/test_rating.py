"""The rating (``core.rating``): a mean loss per decision placed on a named scale per game, calibrated on the
game's own bots; the bots land in their own bands on games they did not calibrate on; a review and a training
session say it; ``dicesolver rating GAME`` shows the scale."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from test_cli import run
from tinygames import BONUS_GAME, tiny

import dicesolver as ds
from dicesolver.core import calibration, rating, training
from dicesolver.core.errors import InputError


def test_levels_are_equally_spaced_in_log_loss_between_the_anchors():
    bands = rating.bands([("expert", 0.01), ("intermediate", 0.1), ("beginner", 1.0)])
    assert [b.level for b in bands] == list(rating.LEVELS)
    scale = rating.RatingScale("g", "points", bands, (), 1e-9)
    # expert at 0.01, advanced at 10 ** -1.5, intermediate at 0.1: each band half a step either side
    expert, advanced = bands[1].below, bands[2].below
    assert expert == pytest.approx(10 ** -1.75) and advanced == pytest.approx(10 ** -1.25)
    assert [scale.rate(x) for x in (0.0, 0.001, 0.01, 10 ** -1.5, 0.1, 0.3, 1.0, 100.0)] == [
        "perfect", "world class", "expert", "advanced", "intermediate", "casual", "beginner", "beginner"]
    assert math.isinf(bands[-1].below)
    extended = rating.bands([("expert", 0.0), ("intermediate", 0.1), ("beginner", 1.0)])  # the strong bot perfect
    assert extended[1].below == pytest.approx(10 ** -1.75)
    with pytest.raises(InputError, match="do not rank"):
        rating.bands([("expert", 0.1), ("intermediate", 0.01), ("beginner", 1.0)])


@pytest.mark.parametrize("game", ["pig", "bonus"])
def test_each_anchor_bot_lands_in_its_own_band_on_other_games(game):
    """Measured on other dice than the calibration's, each bot's median mean loss is rated at its own level."""
    solution = ds.solve(tiny(BONUS_GAME) if game == "bonus" else game)
    scale = calibration.scale(solution)
    assert [level for _, level, _ in scale.anchors] == ["expert", "intermediate", "beginner"]
    for i, (bot, level, measured) in enumerate(scale.anchors):
        loss = float(np.median(calibration.bot_losses(solution, bot, rating.CALIBRATION_GAMES, 777 + i)))
        # a bot that plays a small game perfectly is perfect there (its level placed by the others' spacing)
        assert scale.rate(loss) == level or loss == measured == 0.0, (bot, loss)
    assert scale.rate(0.0) == "perfect"


def test_the_shipped_anchors_are_what_a_measurement_finds():
    """The built-in games' anchors ship with the package; the first is measured again here, as on first use."""
    shipped = rating.published()
    assert {"yacht", "yahtzee", "pig"} <= set(shipped)
    solution = ds.solve("pig")
    entry = shipped["pig"][f"{solution.judge}:{solution.unit}"]
    assert entry["root"] == pytest.approx(solution.root_value, abs=1e-12)
    bots = ds.load_game("pig")
    from dicesolver.core import registry
    anchors = registry.family_of(bots).rating_bots
    assert calibration.measure(solution, anchors) == pytest.approx(entry["medians"], rel=1e-9)


def test_a_review_and_a_training_session_are_rated():
    game = tiny(BONUS_GAME)
    solution = ds.solve(game)
    scale = calibration.scale(solution)
    states = training.sample_positions(game, solution, 12, seed=3)
    answers = solution.answers(states)
    best = [0.0] * len(states)
    result = training.session_result(solution, states, best)
    assert result.rating == "perfect" and result.compared == 0.0
    # every answer the worst option: rated as its loss over the positions' difficulty
    worst = [float(answers.costs[i, :int(answers.counts[i])].max()) for i in range(len(states))]
    result = training.session_result(solution, states, worst)
    hardness = calibration.difficulty(solution, states, scale)
    assert hardness > 0 and result.compared == pytest.approx(np.mean(worst) / hardness)
    assert result.rating == scale.rate(result.compared)
    # a review: its summary's rating is its mean loss's level
    from dicesolver.core.playthrough import Playthrough

    state, steps = game.start(), []
    rng = np.random.default_rng(4)
    while not state.is_terminal():
        options = state.chance_outcomes() if state.is_chance() else [(a, 1.0) for a in state.legal_actions()]
        step = options[int(rng.integers(len(options)))][0]
        steps.append(step)
        state = state.apply(step)
    review = solution.review(Playthrough(game, ["you"], steps))
    assert review.summary.rating == scale.rate(review.summary.mean_loss) and review.summary.rating != "perfect"


def test_the_rating_command_shows_the_scale(capsys):
    code, out, _ = run(capsys, "rating", "pig")
    assert code == 0, out
    text = " ".join(out.split())
    assert "world class" in text and "expert (keep-pace)" in text and "intermediate (hold-at-20)" in text
    assert "placed by keep-pace" in text
    code, out, _ = run(capsys, "rating", "pig", "--json")
    shown = json.loads(out)
    assert [b["level"] for b in shown["bands"]][:2] == ["perfect", "world class"] and shown["bands"][-1]["below"] is None
    assert [a["bot"] for a in shown["anchors"]] == ["keep-pace", "hold-at-20", "hold-at-10"]
