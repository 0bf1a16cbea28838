"""A risk appetite theta (``turn.kernels.risk``): the strategy of the best certainty equivalent
ln E[exp(theta X)] / theta of the final score X, against a slow reference that applies that definition
throw by throw (``reference.solve_reference``), with theta = 0 the mean's own solution."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from reference import solve_reference
from test_solitaire import TINY_CASES, assert_turn_starts_as_reference
from tinygames import BONUS_GAME, tiny

import dicesolver as ds
from dicesolver.core import registry
from dicesolver.core.errors import InputError
from dicesolver.scorecard.solitaire.table import SolitaireModel

THETAS = [0.3, -0.3, -0.001]


# every theta on the small games; one each on the games with bonuses, whose reference takes seconds
RISK_CASES = [(TINY_CASES[k], theta) for k in (0, 1) for theta in THETAS] + [(TINY_CASES[3], 0.3), (TINY_CASES[7], -0.3)]


@pytest.mark.parametrize("case,theta", RISK_CASES)
def test_the_certainty_equivalents_equal_the_slow_reference(case, theta):
    definition, choices = case
    game = tiny(definition, **choices)
    model = SolitaireModel(game)
    values = model.solve(theta=theta)
    assert np.array_equal(model.solve(theta=theta, parallel=False), values)  # the stripes: the same table
    assert_turn_starts_as_reference(game, model, values, solve_reference(game, theta), 80, seed=2, rel=1e-10)


def decisions(game, n: int, seed: int):
    """Decision states met in random playouts of a solitaire game."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        state = game.start()
        while not state.is_terminal():
            if state.is_chance():
                outcomes = state.chance_outcomes()
                state = state.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                out.append(state)
                state = state.apply(rng.choice(state.legal_actions()))
    return out[:n]


@pytest.mark.parametrize("definition,choices,theta", [(BONUS_GAME, {"joker": "free"}, 0.3), (*TINY_CASES[1], -0.3)])
def test_advice_with_a_risk_appetite_values_every_position_as_the_reference(definition, choices, theta):
    """Each decision's value is the reference's certainty equivalent of the final score from there, every
    option's value at most it; the numpy form (a first process) answers as the kernel does (to the last bit or
    two: numpy's exp and log are not the C library's the kernel calls)."""
    game = tiny(definition, **choices)
    solution = registry.family_of(game).risk_solution(game, theta)
    assert solution.unit == "ce" and solution.info.details["theta"] == theta
    reference = solve_reference(game, theta)
    x = game.extra_yacht
    states = decisions(game, 120, 3)
    for state in states:
        card = state.cards[0]
        advice = ds.advise(game, state, theta=theta)
        paid = card.extra_bonus // x.points if x else 0
        expected = sum(v or 0 for v in card.boxes) + card.extra_bonus + reference.after_roll(
            card.boxes, tuple(sorted(state.dice)), state.rolls_left, paid)
        assert advice.value == pytest.approx(expected, rel=1e-10, abs=1e-9), str(state)
        # options within 1e-9 of each other tie, and keep the order of the legal actions
        assert advice.options[0].value == pytest.approx(advice.value, abs=1e-9)
        assert all(o.value <= advice.value + 1e-12 for o in advice.options)
    situations = solution.encoding.situations(states)
    kernel = solution.answer(situations, memo=solution.memo_for(len(states)))
    for i in range(len(states)):
        one = {k: v[i: i + 1] for k, v in situations.items()}
        np.testing.assert_allclose(solution._numpy.answer(one).buffers[0][0], kernel.buffers[0][i], rtol=1e-13,
                                   atol=1e-12)


def test_theta_zero_is_the_mean_and_the_certainty_equivalent_grows_with_theta():
    mean = ds.solve("yacht")
    assert ds.solve("yacht", theta=0) is mean or np.array_equal(ds.solve("yacht", theta=0).table.values,
                                                                 mean.table.values)
    game = tiny(BONUS_GAME)
    family = registry.family_of(game)
    roots = [family.risk_solution(game, t).root_value for t in (-0.5, -0.05, -0.001, 0.0, 0.001, 0.05, 0.5)]
    assert roots == sorted(roots) and len(set(roots)) == len(roots)
    small = family.risk_solution(game, 1e-6).root_value  # theta -> 0: the mean, smoothly
    assert small == pytest.approx(roots[3], abs=1e-3) and small > roots[3]


@pytest.mark.parametrize("theta", [1.5, -2, float("nan"), float("inf"), "bold"])
def test_a_risk_appetite_out_of_range_is_one_clear_error(theta):
    with pytest.raises(InputError, match="risk appetite"):
        ds.solve("yacht", theta=theta)


def test_families_without_a_risk_appetite_say_so():
    with pytest.raises(InputError, match="risk appetite"):
        ds.solve("pig", theta=0.01)


def test_the_command_line_solves_and_advises_with_a_risk_appetite(capsys):
    from test_cli import run

    code, out, _ = run(capsys, "solve", "yacht", "--theta", "0.02", "--json")
    info = json.loads(out)
    assert code == 0 and info["unit"] == "ce" and info["judge"] == "risk" and info["details"]["theta"] == 0.02
    assert info["value"] == pytest.approx(ds.solve("yacht", theta=0.02).root_value, abs=1e-9)
    assert info["value"] > ds.solve("yacht").root_value  # a taste for risk values the spread
    assert info["details"]["sd"] > 0 and info["details"]["mean"] < ds.solve("yacht").root_value  # beside it
    code, out, _ = run(capsys, "advise", "yacht", "/11345/2", "--theta", "-0.05", "--top", "3")
    assert code == 0 and "certainty equivalent" in out and "keep 345" in out
    for bad in (["solve", "yacht", "--theta", "3"], ["advise", "yacht", "/11345/2", "--theta", "0.1", "--target", "100"],
                ["advise", "yacht", "/11345/2", "--theta", "0.1", "--explain"], ["solve", "pig", "--theta", "0.1"]):
        code, out, err = run(capsys, *bad)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (bad, err)


@pytest.mark.parametrize("theta", [0.3, -0.3])
def test_the_strategy_s_final_scores_give_back_its_certainty_equivalent(theta):
    """Forward, the exact final-score distribution of the theta strategy (its keeps chosen by utility); backward,
    its table: ln E[exp(theta X)] / theta over the distribution is the table's value at the start."""
    game = tiny(BONUS_GAME, joker="free")
    family = registry.family_of(game)
    d = family.distribution(game, theta=theta)
    scores = np.array(list(d.probabilities), dtype=float)
    p = np.array(list(d.probabilities.values()))
    top = (theta * scores).max()
    ce = (top + np.log(np.sum(p * np.exp(theta * scores - top)))) / theta
    assert d.theta == theta and ce == pytest.approx(family.risk_solution(game, theta).root_value, rel=1e-12)
    mean = family.distribution(game)
    assert d.mean < mean.mean  # the mean's own strategy has the best mean
    assert (d.sd > mean.sd) == (theta > 0)  # a taste for risk spreads the scores, a distaste narrows them


def test_a_game_reviewed_by_a_risk_appetite(capsys, tmp_path):
    """A recorded game judged in certainty-equivalent points: the mean's optimal player loses there (it plays
    for the mean), the losses and the luck still add up to the final score."""
    from records_v1 import write_v1
    from test_cli import run

    from dicesolver.scorecard.bots.players import make_player
    from dicesolver.scorecard.bots.selfplay import play_game

    game = ds.load_game("yacht")
    path = tmp_path / "g.jsonl"
    write_v1(path, play_game(game, make_player("optimal", game), 3))
    review = ds.review(path, theta=0.05)
    s = review.summary
    assert s.unit == "ce" and s.judge == "risk" and s.loss > 0
    assert s.baseline + s.luck - s.loss == pytest.approx(s.result, abs=1e-6)
    assert ds.review(path).summary.loss == pytest.approx(0, abs=1e-6)  # by the mean, optimal play loses nothing
    code, out, _ = run(capsys, "analyze", str(path), "--theta", "0.05")
    assert code == 0 and "certainty equivalent" in out
    code, _, err = run(capsys, "analyze", str(path), "--theta", "0.05", "--points")
    assert code == 2 and err.count("\n") == 1


def test_a_bot_with_a_risk_appetite_plays_its_advice_and_its_distribution():
    """The bot theta:X (play, simulate) takes the option the advice ranks best under X, and its simulated
    games follow the exact distribution of its strategy."""
    from dicesolver.scorecard.bots.simulate import simulate

    game = tiny(BONUS_GAME, joker="free")
    family = registry.family_of(game)
    assert "theta:X" in family.players(game)
    bot = family.player(game, "theta:0.3")
    assert bot.name == "theta:0.3"
    rng = np.random.default_rng(4)
    for state in decisions(game, 80, 5):
        advice = ds.advise(game, state, theta=0.3)
        tied = {o.action for o in advice.options if o.cost == 0}
        assert str(bot.choose(state, rng)) in tied, str(state)
    n = 40_000
    (played,) = simulate(game, ["theta:0.3"], n=n, seed=2)
    exact = family.distribution(game, theta=0.3)
    assert played.player == "theta:0.3"
    assert abs(played.scores.mean - exact.mean) < 4 * exact.sd / n**0.5
    with pytest.raises(InputError, match="risk appetite"):
        family.player(game, "theta:2")


def test_training_by_a_risk_appetite_keeps_a_history_of_its_own(capsys, monkeypatch):
    """train --theta judges the answers by that certainty equivalent; its sessions and deck are its own (losses
    in another goal's units would not compare with the mean's)."""
    import io

    from test_cli import run

    from dicesolver.core.training import TrainingRecord

    game = ds.load_game("yacht")
    before = len(TrainingRecord.load(game).sessions)
    monkeypatch.setattr("sys.stdin", io.StringIO("keep none\n" * 3 + "quit\n"))
    code, out, err = run(capsys, "train", "yacht", "--theta", "0.05", "-n", "3", "--seed", "7")
    assert code == 0, err
    assert "question 1 of 3" in out
    assert len(TrainingRecord.load(game, goal="theta:0.05").sessions) == 1
    assert len(TrainingRecord.load(game).sessions) == before
    code, out, _ = run(capsys, "train", "yacht", "--theta", "0.05", "--history")
    assert code == 0 and "mean loss" in out
    code, _, err = run(capsys, "train", "yacht", "--theta", "7")
    assert code == 2 and "risk appetite" in err


def test_the_frontier_of_risk_appetites(capsys, tmp_path):
    """frontier: each theta's exact mean, spread, percentiles and blind-field chances. The mean's strategy has
    the best mean and wins a field of N mean-players 1/N of the time (ties shared); each row's certainty
    equivalent is its table's."""
    from test_cli import run

    from dicesolver.analysis.frontier import frontier
    from dicesolver.core.aims import Field

    game = tiny(BONUS_GAME, joker="free")
    f = frontier(game, (-0.3, 0.0, 0.3), simulate=40_000, seed=3)
    mean = next(r for r in f.rows if r.theta == 0.0)
    assert f.best["mean"] == 0.0
    for n in (2, 10, 100):
        assert mean.field_wins[str(n)] == pytest.approx(1 / n, abs=1e-12)
    family = registry.family_of(game)
    for r in f.rows:
        if r.theta:
            assert r.certainty_equivalent == pytest.approx(family.risk_solution(game, r.theta).root_value, rel=1e-12)
    others = np.array([0.2, 0.0, 0.5, 0.3])  # by hand: P(first) against one other, ties shared
    assert Field(2).against(others, "").utility(np.arange(4)) == pytest.approx([0.1, 0.2, 0.45, 0.85])
    for r in f.rows:  # the simulated games of each strategy agree with its exact figures
        s = r.simulated
        assert s is not None and s.games == 40_000
        assert s.mean == pytest.approx(r.mean, abs=4 * r.sd / 200)
        assert s.sd == pytest.approx(r.sd, rel=0.03)
        for q, x in r.percentiles.items():
            assert abs(s.percentiles[q] - x) <= 2
        for n, w in r.field_wins.items():
            assert s.field_wins[n] == pytest.approx(w, abs=4 * (w * (1 - w) / 40_000) ** 0.5 + 1e-9)
    code, out, _ = run(capsys, "frontier", "yacht", "--theta", "-0.02", "--theta", "0.02", "--plot",
                       str(tmp_path / "f.png"), "--simulate", "2000")
    assert code == 0 and "best theta by each measure" in out and (tmp_path / "f.png").stat().st_size > 5000
    assert "checked by 2,000 simulated games" in out


@pytest.mark.essay
def test_a_million_games_of_each_risk_appetite_agree_with_its_exact_figures():
    """Yatzy's strategies of theta -0.02, 0 and 0.02, a million simulated games each (the same dice): the mean,
    the spread, the percentiles and the field chances agree with the exact ones within their intervals."""
    from dicesolver.analysis.frontier import frontier

    game = ds.load_game("yatzy")
    n = 1_000_000
    f = frontier(game, (-0.02, 0.0, 0.02), simulate=n, seed=11)
    for r in f.rows:
        s = r.simulated
        assert s is not None and s.games == n
        assert abs(s.mean - r.mean) < 4 * r.sd / n**0.5
        assert s.sd == pytest.approx(r.sd, rel=4 * 2**-0.5 / n**0.5 * 3)
        for q, x in r.percentiles.items():
            assert abs(s.percentiles[q] - x) <= 1
        for k, w in r.field_wins.items():
            assert abs(s.field_wins[k] - w) < 4 * (w * (1 - w) / n) ** 0.5 + 1e-9


def test_a_bold_appetite_plays_for_the_highest_score():
    """As theta grows, E[exp(theta X)] is ruled by the highest score reachable: the certainty equivalent climbs
    towards that score M, and at theta = 1 it lies between M + ln P*(M) (P*: the best chance of reaching M, the
    target table's) and M."""
    from dicesolver.scorecard.target import table as target

    game = tiny(BONUS_GAME)
    curve = target.build(game, 250).curve()
    top = int(np.nonzero(curve > 0)[0][-1])  # the highest final score any play reaches
    family = registry.family_of(game)
    values = [family.risk_solution(game, theta).root_value for theta in (0.1, 0.3, 0.6, 1.0)]
    assert all(a < b for a, b in zip(values, values[1:])) and values[-1] <= top
    assert values[-1] >= top + np.log(curve[top]) - 1e-6
