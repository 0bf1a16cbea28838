"""Despirala with a risk appetite theta: the strategy of the best certainty equivalent ln E[exp(theta X)] / theta
of the final score X, against a slow reference that applies that definition throw by throw on late games,
its Python values against the kernels' to the bit, its exact distribution against its table, and the public
calls (ds.solve, ds.advise, the bot theta:X, simulate) with theta = 0 the mean's own solution."""

import math
from functools import lru_cache

import numpy as np
import pytest

import dicesolver as ds
from dicesolver.core import registry
from dicesolver.core.errors import InputError
from dicesolver.despirala.rules import COMBINATIONS, six_dice_throws
from dicesolver.despirala.solver import (H, binomial_table, certainty, collect_table, completion_odds, load_or_solve,
                                         pick_value, throw_moves)

FAMILY = registry.family_of(ds.load_game("despirala"))
THETAS = (0.05, -0.05)
BIT = {c.name: 1 << c.index for c in COMBINATIONS}
# late games of two or three combinations: collects, a pick completed by rethrows, and Four of a kind's own shapes
LATE = (BIT["Collect 5"] | BIT["Collect 6"], BIT["Collect 2"] | BIT["Straight"],
        BIT["Collect 6"] | BIT["Four of a kind"] | BIT["Three pairs"])


@lru_cache(maxsize=None)
def throws():
    """The 462 throws of six dice with their probabilities."""
    return list(zip(*six_dice_throws()))


def reference(theta):
    """E[exp(theta * what is still to come)] at a turn start, by the definition: the mean over the throws of the
    best option (largest for theta > 0, smallest for theta < 0), each option's own expectation spelled out."""
    best = max if theta > 0 else min
    q, qcum = completion_odds()
    binom = binomial_table()

    def end(free, goods):
        return math.exp(theta * goods) if free == 0 else turn(free, min(goods + 5, H - 1))

    @lru_cache(maxsize=None)
    def collect(after, face, have, goods):
        stop = math.exp(theta * face * have) * end(after, goods)
        if goods == 0 or have == 6:
            return stop
        go = sum(binom[6 - have, j] * collect(after, face, have + j, goods - 1) for j in range(7 - have))
        return best(stop, go)

    @lru_cache(maxsize=None)
    def turn(free, goods):
        total = 0.0
        for throw, p in throws():
            options = []
            for move, after, shape_or_have, points_or_face in throw_moves(free, goods, throw, True):
                if move.kind == "reroll":
                    options.append(turn(free, goods - 1))
                elif COMBINATIONS[move.combination].is_collect:
                    options.append(collect(after, points_or_face, shape_or_have, goods))
                else:
                    s, gain = shape_or_have, math.exp(theta * points_or_face)
                    done = sum(q[s, t] * gain * end(after, goods - t) for t in range(goods + 1))
                    options.append(done + (1 - qcum[s, goods]) * end(after, 0))
            total += p * best(options)
        return total

    return turn


@pytest.fixture(scope="module", params=THETAS)
def bold_or_cautious(request):
    return load_or_solve("normal", theta=request.param)[0]


def test_the_table_is_the_definition_on_late_games(bold_or_cautious):
    table, theta = bold_or_cautious, bold_or_cautious.theta
    turn = reference(theta)
    for free in LATE:
        for goods in (0, 1, 2, 5, 8):
            assert table.W[free, goods] == pytest.approx(turn(free, goods), rel=1e-12), (free, goods)


def test_python_values_are_the_kernels_to_the_bit(bold_or_cautious):
    """Advice's Python values (no numba loaded) against the kernels' at random states, and the best option the
    same, ranked by the certainty equivalent."""
    import random

    from dicesolver.despirala.kernels.expected import _collect_table, _pick_value

    table, theta = bold_or_cautious, bold_or_cautious.theta
    W = np.asarray(table.W)
    rng = random.Random(5)
    q, qcum = completion_odds()
    for _ in range(150):
        after, goods = rng.randrange(W.shape[0]), rng.randrange(W.shape[1] - 5)
        s, pts = rng.randrange(q.shape[0]), float(rng.randrange(60))
        assert pick_value(W, after, s, goods, pts, q, qcum, theta=theta) == \
            _pick_value(W, after, s, goods, pts, q, qcum, theta)
        face = rng.randrange(1, 7)
        want = np.empty((7, goods + 1))
        _collect_table(W, after, face, binomial_table(), table.sign, want, theta)
        assert np.array_equal(collect_table(W, after, face, goods + 1, table.sign, theta), want)


def test_advice_ranks_by_the_certainty_equivalent(bold_or_cautious):
    """ds.advise with theta: every option's value is the points so far plus the certainty equivalent of the
    Python form's value, the best first, costs from it; the bot theta:X takes the best."""
    from dicesolver.despirala.solver import throw_values

    theta = bold_or_cautious.theta
    for position, points in (("none;5;123456", 0), ("Collect 1,Collect 6,Straight,General;7;116626;points 330", 330)):
        advice = ds.advise("despirala", position, theta=theta)
        assert advice.unit == "ce" and advice.judge == "risk"
        state = FAMILY.solve(ds.load_game("despirala")).state(position)
        python = {move.text(): points + certainty(v, theta) for move, v in
                  throw_values(bold_or_cautious, state.seat.free, state.seat.goods, state.dice)}
        values = [o.value for o in advice.options]
        assert values == sorted(values, reverse=True) and advice.options[0].cost == 0
        for option in advice.options:
            assert option.value == pytest.approx(python[option.option], rel=1e-13)
            assert option.cost == pytest.approx(advice.options[0].value - option.value, abs=1e-9)
        bot = FAMILY.player(ds.load_game("despirala"), f"theta:{theta}")
        assert bot.name == f"theta:{theta:g}"
        assert bot.choose(state, np.random.default_rng(0)).text() == advice.options[0].option


def test_the_strategy_s_final_scores_give_back_its_certainty_equivalent(bold_or_cautious):
    """Forward, the exact final-score distribution of the theta strategy over a late game (its decisions from
    its table); backward, its table: ln E[exp(theta X)] / theta over the distribution is the table's value."""
    from dicesolver.despirala.future import build

    table, theta = bold_or_cautious, bold_or_cautious.theta
    within = LATE[2]
    futures = build(table, within=within)
    for goods in (0, 3, 5):
        p = futures.start(within, goods)
        x = np.arange(len(p))
        assert p.sum() == pytest.approx(1, abs=1e-6)
        assert certainty(float(p @ np.exp(theta * x)), theta) == \
            pytest.approx(certainty(float(table.W[within, goods]), theta), abs=1e-4)
    mean = build(load_or_solve("normal")[0], within=within).start(within, 5)
    spread = [float(np.sqrt(d @ (np.arange(len(d)) - d @ np.arange(len(d))) ** 2)) for d in (futures.start(within, 5),
                                                                                            mean)]
    assert (spread[0] > spread[1]) == (theta > 0)  # a taste for risk spreads the scores, a distaste narrows them


def test_theta_zero_is_the_mean_and_the_certainty_equivalent_grows_with_theta():
    game = ds.load_game("despirala")
    mean = FAMILY.solve(game)
    assert np.array_equal(FAMILY.risk_solution(game, 0.0).table.W, mean.table.W)
    values = [FAMILY.risk_solution(game, theta).root_value for theta in (-0.05, -0.001, 0.001, 0.05)]
    assert values == sorted(values) and values[1] < mean.root_value < values[2]
    assert abs(values[1] - mean.root_value) < 5 and abs(values[2] - mean.root_value) < 5  # smoothly through the mean
    solved = ds.solve("despirala", theta=0.05)
    assert solved.unit == "ce" and solved.info.details["theta"] == 0.05 and "theta=0.05" in solved.headline()
    with pytest.raises(InputError, match="why an option is best"):
        solved.explain("none;5;123456")


@pytest.mark.parametrize("game,theta", [("despirala(play=misere)", 0.02), ("despirala", 2), ("despirala", "bold")])
def test_a_risk_appetite_refused_is_one_clear_error(game, theta):
    with pytest.raises(InputError):
        ds.solve(game, theta=theta)


def test_the_command_line_advises_and_simulates_with_a_risk_appetite(capsys):
    """advise --theta ranks by the certainty equivalent; simulate -p theta:X shows the games' certainty
    equivalent beside the exact one; misere is refused with exit 2."""
    import json

    from dicesolver.cli.app import main

    def run(*args):
        with pytest.raises(SystemExit) as info:
            main(list(args))
        return info.value.code, capsys.readouterr()

    code, out = run("advise", "despirala", "none;5;123456", "--theta", "0.05", "--json")
    data = json.loads(out.out)
    assert code == 0 and data["unit"] == "ce" and data["options"][0]["option"] == "Straight"
    code, out = run("simulate", "despirala", "-p", "theta:0.05", "-p", "optimal", "-n", "20000", "--json")
    runs = json.loads(out.out)
    bold = runs[0] if isinstance(runs, list) else runs["runs"][0]
    assert code == 0 and bold["player"] == "theta:0.05"
    assert bold["certainty_equivalent"] == pytest.approx(ds.solve("despirala", theta=0.05).root_value, abs=1e-9)
    # the games' certainty equivalent within a few standard errors of the exact one (heavy upper tail: loose)
    assert abs(bold["simulated_certainty_equivalent"] - bold["certainty_equivalent"]) < 3
    code, out = run("advise", "despirala(play=misere)", "none;5;123456", "--theta", "0.05")
    assert code == 2 and "misere" in out.err and "Traceback" not in out.err
