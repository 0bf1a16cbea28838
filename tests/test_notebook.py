"""In a notebook: advice, answers, reviews, simulations, solutions and games show as small HTML tables (dice
drawn as dice) with short reprs, and their tables come as pandas DataFrames."""

import json

import numpy as np
import pytest
from fuzzing import record_lines

import dicesolver as ds


def test_advice_shows_as_a_table_and_as_a_frame():
    advice = ds.advise("yacht", "/11345/1")
    page = advice._repr_html_()
    assert page.startswith("<table>") and "/11345/1" in page and "keep ⚀⚂⚃⚄" in page  # the position as text, keeps as dice
    assert page.count("<tr>") == 1 + 12 + 1  # the header, the best twelve, "… N more"
    frame = advice.to_pandas()
    assert list(frame.columns) == ["action", "option", "kind", "points", "value", "cost"]
    assert len(frame) == len(advice.options) and frame["cost"].iloc[0] == 0


def test_answers_repr_and_frame():
    answers = ds.advise_many("yacht", ["/11345/1", "/66666/0", "yacht=50/12345/2"])
    assert repr(answers).startswith("Answers(3 situations") and "<table>" in answers._repr_html_()
    frame = answers.to_pandas()
    assert len(frame) == int(answers.counts.sum())
    first = frame[frame.situation == 1]
    assert np.allclose(first["value"], answers.values[1, : answers.counts[1]])


def test_a_review_shows_its_costliest_decisions(tmp_path):
    record = tmp_path / "game.jsonl"
    record.write_text("".join(json.dumps(line) + "\n" for line in record_lines("yacht", 3)))
    review = ds.review(record, 0)
    page = review._repr_html_()
    assert "<table>" in page and "baseline" in page
    frame = review.to_pandas()
    assert len(frame) == len(review.decisions) and {"loss", "label", "chosen", "best"} <= set(frame.columns)


def test_games_solutions_and_simulations_have_short_reprs():
    game = ds.load_game("yahtzee(joker=free)")
    assert repr(game) == "<ScorecardGame 'yahtzee(joker=free)': Yahtzee, 1 player>"
    assert "<li>" in game._repr_html_()
    for spec in ("pig", "despirala", "kcd"):
        assert len(repr(ds.load_game(spec))) < 80
    solution = ds.solve("yacht")
    assert repr(solution).startswith("<") and "yacht" in repr(solution) and len(repr(solution)) < 120
    from dicesolver.analysis.simulate import simulate

    run = simulate(ds.load_game("yacht"), ["optimal"], n=300, seed=1)[0]
    assert "300 games" in repr(run) and "<table>" in run._repr_html_()
    frame = run.to_pandas()
    assert frame["games"].sum() == 300


def test_a_frame_without_pandas_names_the_extra(monkeypatch):
    from dicesolver.core import display, extras

    monkeypatch.setattr(extras, "_found", lambda module: module != "pandas")
    with pytest.raises(extras.MissingExtra, match=r"pip install 'dicesolver\[notebook\]'"):
        display.frame({"a": [1]})
