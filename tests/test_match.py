"""Matches of several bots played in the kernel (analysis/match.py): statistics and seating, the CLI, and
the kernel's Mindful Maximus and Malina checked against the exact evaluation.

Apart from test_mindful.py because the match kernel takes minutes to compile: the two test workers
compile it and the exact-evaluation kernel at the same time."""

import json

import numpy as np
import pytest
from tinygames import PAIRS_GAME, tiny

from dicesolver import load_game
from dicesolver.analysis.match import match, summarize
from dicesolver.core.errors import InputError
from dicesolver.core.family import MatchGames
from dicesolver.scorecard.duel.compare import compare_exact
from dicesolver.scorecard.duel.table import DuelModel, DuelTable
from dicesolver.scorecard.match.play import MatchSetup


def play_match(game, names, n, seed):
    return match(game, names, n=n, seed=seed)[0]


@pytest.fixture(scope="module")
def tiny_duel():
    game = tiny(PAIRS_GAME)
    model = DuelModel(game)
    return game, DuelTable(model, model.solve())


def test_the_match_kernel_agrees_with_the_exact_evaluation(tiny_duel, monkeypatch):
    """The kernel's Mindful Maximus and Malina play the policies the exact evaluator scores."""
    game, solution = tiny_duel
    import dicesolver.scorecard.duel.table as duel_mod

    monkeypatch.setattr(duel_mod, "load_or_solve", lambda g, **kw: (solution, None, None))
    for a, b in (("mindful", "maximus"), ("malina", "mindful"), ("malina", "joe")):
        exact = compare_exact(solution, game, a, b).average
        result = play_match(game, [a, b], n=40_000, seed=3)
        p = result.players[0]
        assert abs(p.points_per_game - exact) < 1.3 * p.points_ci95, (a, b, exact, p)


@pytest.mark.parametrize("name, n", [("yacht", 20_000),
                                     pytest.param("yahtzee", 4_000, marks=pytest.mark.essay)])  # its table: 25 s
def test_mindful_beats_maximus(name, n):
    result = play_match(load_game(name), ["mindful", "maximus"], n=n, seed=11)
    mm = result.players[0]
    assert mm.points_per_game - mm.points_ci95 > 0, (name, mm)
    assert mm.mean_score < result.players[1].mean_score  # it wins more by scoring less


def test_match_statistics_and_seating():
    game = load_game("yacht")
    result = play_match(game, ["greedy", "optimal", "whatever"], n=300, seed=1)
    assert result.games == 300 and result.deals == 100 and result.rotations == 3
    ppg = [p.points_per_game for p in result.players]
    assert sum(ppg) == pytest.approx(0.0, abs=1e-9)  # the results of every game add up to 0
    assert ppg[1] > ppg[0] > ppg[2]
    # identical players split everything evenly deal by deal
    twins = play_match(game, ["optimal", "optimal"], n=100, seed=2)
    assert [p.player for p in twins.players] == ["optimal A", "optimal B"]
    assert twins.players[0].points_per_game == 0.0 and twins.players[0].points_ci95 == 0.0
    # summarize: results by deal
    totals = np.array([[10, 5], [5, 10], [7, 7], [7, 7]])
    res = np.array([[1.0, -1.0], [-1.0, 1.0], [0.0, 0.0], [0.0, 0.0]])
    seats = np.array([[0, 1], [1, 0], [0, 1], [1, 0]])
    a, b = summarize(MatchGames(["a", "b"], totals, res, seats, 2, 0.0))
    assert a.win_rate == 0.25 and a.tie_rate == 0.5 and a.points_per_game == 0.0


def test_match_rejects_bad_players():
    game = load_game("yacht")
    with pytest.raises(InputError, match="2 to 6"):
        MatchSetup(game, ["optimal"])
    with pytest.raises(InputError, match="unknown player"):
        MatchSetup(game, ["optimal", "wizard"])
    with pytest.raises(InputError, match="upper bonus"):
        MatchSetup(load_game("yahtzee"), ["malina", "optimal"])


def test_cli_match(capsys, tmp_path):
    from test_cli import run

    plot = tmp_path / "m.png"
    code, out, _ = run(capsys, "match", "yacht", "mindful", "greedy", "joe", "-n", "300", "--json",
                       "--plot", str(plot))
    data = json.loads(out)
    assert code == 0 and data["games"] == 300 and [p["player"] for p in data["players"]] == ["mindful", "greedy", "joe"]
    assert plot.stat().st_size > 10_000
    code, out, _ = run(capsys, "match", "yacht", "optimal", "random", "-n", "50")
    assert code == 0 and "optimal" in out and "seating orders" in out
    code, _, err = run(capsys, "match", "yacht", "optimal")
    assert code == 2 and "2 to 6" in err
    code, _, err = run(capsys, "match", "nosuchgame", "optimal", "joe")
    assert code == 2
