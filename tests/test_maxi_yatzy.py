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
    """Tables derived from the solve that would spend the machine's memory (the exact distribution, a target)
    are refused before anything is built, with the limit and its reason; here on the reduced game, with the
    limit set below its tables."""
    from tinygames import REDUCED

    from dicesolver.scorecard.game import size

    monkeypatch.setattr(size, "TABLE_LIMIT_BYTES", 1000)
    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(tmp_path))
    for argv in (["distribution", REDUCED["maxi-yatzy"]], ["solve", REDUCED["maxi-yatzy"], "--target", "60"]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and "over this machine's limit for one table" in err and "DICESOLVER_ALLOW_BIG=1" in err, argv
        assert "Traceback" not in err and err.count("\n") <= 3, err


def test_a_breakdown_over_the_memory_limit_is_built_on_disk_when_asked_and_resumed_after_a_kill(
        capsys, monkeypatch, tmp_path):
    """--explain of a game whose breakdown would not fit in memory (Maxi Yatzy's, 11.3 GB) builds it in place
    on disk, in float32, a level at a time: here the reduced game, with the limit set below its table. The
    trainer and the pages do not ask for it (``explains`` is false until it is on disk); the command does,
    and says the same as the table built in memory, to float32's precision; a build stopped part way carries
    on from its last level."""
    from tinygames import REDUCED

    from dicesolver.scorecard.game import size
    from dicesolver.scorecard.solitaire import breakdown
    from dicesolver.scorecard.solitaire.table import SolitaireModel

    game = ds.load_game(REDUCED["maxi-yatzy"])
    states = SolitaireModel(game).size
    assert breakdown.explainable(game, states) and breakdown.in_memory(game, states)
    expected = ds.explain(game, "/112233/2")  # in memory, float64
    monkeypatch.setattr(size, "TABLE_LIMIT_BYTES", 1000)
    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(tmp_path))
    assert not breakdown.in_memory(game, states) and not breakdown.explainable(game, states)

    calls = []

    def stop_part_way(done, total):
        calls.append(done)
        if len(calls) == 3:
            raise KeyboardInterrupt

    solution = ds.solve(game)
    with pytest.raises(KeyboardInterrupt):
        breakdown.load_or_build(game, lambda: solution.table, stop_part_way)
    partial = next(tmp_path.rglob(".partial-*"))
    assert json.loads((partial / "progress.json").read_text())["done"]  # the levels done before the stop
    resumed = []
    table = breakdown.load_or_build(game, lambda: solution.table, lambda done, total: resumed.append(done))
    assert resumed[0] > calls[0] and table.aspects.dtype == "float32"  # carried on past the levels done
    assert breakdown.explainable(game, states)  # on disk now

    code, out, err = run(capsys, "advise", REDUCED["maxi-yatzy"], "/112233/2", "--explain", "--json")
    assert code == 0, err
    got = json.loads(out)
    assert [o["action"] for o in got["options"]] == [o.action for o in expected.options]
    for mine, want in zip(got["options"], expected.options):
        assert mine["sd"] == pytest.approx(want.sd, abs=1e-3)
        for aspect, part in want.breakdown.items():
            assert mine["breakdown"][aspect] == pytest.approx(part, abs=1e-3)


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
