"""Maxi Yatzy (six dice, 20 boxes), solved exactly. The default suite checks its rules and its code on the
reduced game (test_conformance, test_solitaire's MAXI_LIKE against the slow reference); the full solve and
a million games of its optimal policy are `make test-essay`'s (about 2.5 minutes to solve on 2 cores, 6 to
simulate)."""

import json

import pytest
from test_cli import run

import dicesolver as ds

MAXI_VALUE = 394.557507  # `dicesolver solve maxi-yatzy`, this project's own figure (no published one)


def test_the_reduced_game_has_maxi_yatzys_boxes_and_answers_through_the_public_calls():
    from tinygames import REDUCED

    game = ds.load_game(REDUCED["maxi-yatzy"])
    assert game.n_dice == 6 and {"three_pairs", "villa", "tower", "full_straight"} <= set(game.category_names)
    advice = ds.advise(game, "/112233/2")
    assert advice.best.cost == 0 and any(o.action == "score three_pairs" for o in advice.options)
    three_pairs = next(o for o in advice.options if o.action == "score three_pairs")
    assert three_pairs.points == 12


def test_what_is_too_big_for_maxi_yatzy_is_refused_in_one_line(capsys, monkeypatch, tmp_path):
    """Tables derived from the solve that would spend the machine (each box's share for --explain, the exact
    distribution, a target) are refused before anything is built, with the limit and its reason; here on
    the reduced game, with the limit set below its tables."""
    from tinygames import REDUCED

    from dicesolver.scorecard.game import size

    from dicesolver.scorecard.solitaire.breakdown import explainable
    from dicesolver.scorecard.solitaire.table import SolitaireModel

    game = ds.load_game(REDUCED["maxi-yatzy"])
    assert explainable(game, SolitaireModel(game).size)
    monkeypatch.setattr(size, "TABLE_LIMIT_BYTES", 1000)
    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(tmp_path))
    assert not explainable(game, SolitaireModel(game).size)  # advice says so: the trainer and the page ask no why
    for argv in (["advise", REDUCED["maxi-yatzy"], "/112233/2", "--explain"], ["distribution", REDUCED["maxi-yatzy"]],
                 ["solve", REDUCED["maxi-yatzy"], "--target", "60"]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and "over this machine's limit for one table" in err and "DICESOLVER_ALLOW_BIG=1" in err, argv
        assert "Traceback" not in err and err.count("\n") <= 3, err


@pytest.mark.essay
def test_maxi_yatzy_is_solved_and_its_optimal_play_scores_its_value(capsys):
    """The full solve's value, and a million games of its optimal policy: their mean within four standard
    errors of it."""
    code, out, _ = run(capsys, "solve", "maxi-yatzy", "--json")
    assert code == 0 and json.loads(out)["value"] == pytest.approx(MAXI_VALUE, abs=1e-6)
    code, out, _ = run(capsys, "simulate", "maxi-yatzy", "-n", "1000000", "--seed", "7", "--json")
    (summary,) = json.loads(out)
    assert summary["expected"] == pytest.approx(MAXI_VALUE, abs=1e-6)
    assert abs(summary["mean"] - MAXI_VALUE) < 4 * summary["stderr"], summary
    advice = ds.advise("maxi-yatzy", "/112345/2")
    assert advice.best.action == "keep 12345" and advice.best.value == pytest.approx(392.9633, abs=1e-4)
