"""Despirala: the exact solve against the seed's figures and slow references, the move language."""

import itertools
from collections import Counter
from functools import lru_cache
from math import factorial

import numpy as np
import pytest

from dicesolver.core.errors import InputError
from dicesolver.despirala.rules import ALL_FREE, COMBINATIONS, Move, missing, parse_move, parse_throw, six_dice_throws
from dicesolver.despirala.solver import completion_odds, load_or_solve, shape_index, shape_of, solve


@lru_cache(maxsize=None)
def outcomes(n):
    """The distinct throws of n dice with their probabilities (slow and plain)."""
    counts = Counter(tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=n))
    return [(t, c / 6 ** n) for t, c in counts.items()]


@lru_cache(maxsize=None)
def p_within(need, extra, h):
    """P(the missing faces ``need`` are all thrown within h rethrows), by brute force over the dice."""
    if not need:
        return 1.0
    if h == 0:
        return 0.0
    total = 0.0
    for throw, p in outcomes(len(need) + extra):
        total += p * p_within(missing(need, throw), extra, h - 1)
    return total


@pytest.fixture(scope="module")
def normal():
    return load_or_solve("normal")[0]


@pytest.fixture(scope="module")
def misere():
    return load_or_solve("misere")[0]


def test_seed_expected_scores(normal, misere):
    assert round(normal.root_value, 3) == 443.616
    assert round(misere.root_value, 3) == 105.973


def test_missing_is_the_multiset_difference():
    """What a throw leaves of a target, against Counter's own difference: every target of up to six dice,
    in either order, against throws of every size up to six dice (every one for the smallest targets)."""
    multisets = [t for k in range(7) for t in itertools.combinations_with_replacement(range(1, 7), k)]
    for target in multisets:
        for throw in multisets[:: 1 + len(target)]:  # a sample of every size, thinner for the larger targets
            want = tuple(sorted((Counter(target) - Counter(throw)).elements()))
            assert missing(target, throw) == missing(target[::-1], throw[::-1]) == want, (target, throw)
    assert missing((1, 2, 3, 4, 5, 6), (6, 6, 4, 3, 1, 1)) == (2, 5)


@pytest.mark.parametrize("need", [(6,), (5, 6), (6, 6), (1, 2, 3), (4, 4, 6), (2, 2, 2), (1, 1, 2, 2),
                                  (1, 2, 3, 4, 5, 6), (3, 3, 3, 3, 3, 3), (4, 5, 5, 6, 6, 6)])
def test_completion_odds_match_brute_force(need):
    _, qcum = completion_odds()
    s = shape_of(need)
    for h in range(0, 3 if len(need) >= 5 else 4):
        assert qcum[s, h] == pytest.approx(p_within(tuple(sorted(need)), 0, h), abs=1e-12)


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_four_of_a_kind_odds_with_the_extra_dice(k):
    _, qcum = completion_odds()
    s = shape_index()[("foak", k)]
    for h in range(0, 3):
        assert qcum[s, h] == pytest.approx(p_within((6,) * k, 2, h), abs=1e-12)


def test_completion_odds_are_distributions():
    q, qcum = completion_odds()
    assert np.all(q >= -1e-15) and np.all(qcum <= 1 + 1e-12)
    assert np.all(np.diff(qcum, axis=1) >= -1e-15)
    assert qcum[shape_of((1, 2, 3, 4, 5, 6)), -1] > 0.99


def single_combination_reference(combo, h, sign):
    """The last turn with only ``combo`` free and h goods, by brute force over the dice (no shapes)."""

    @lru_cache(maxsize=None)
    def complete(need, extra, pts, goods):
        if not need:
            return pts + goods
        if goods == 0:
            return 0.0  # out of goods: no points and the goods are lost
        return sum(p * complete(missing(need, t), extra, pts, goods - 1) for t, p in outcomes(len(need) + extra))

    @lru_cache(maxsize=None)
    def collect(face, have, goods):
        stop = face * have + goods
        if goods == 0 or have == 6:
            return stop
        go = sum(p * collect(face, have + t.count(face), goods - 1) for t, p in outcomes(6 - have))
        return max(stop, go) if sign > 0 else min(stop, go)

    def pick(throw, goods):
        if combo.is_collect:
            face = combo.collect_face()
            return collect(face, throw.count(face), goods)
        values = []
        for args in combo.arguments():
            target, pts = combo.target(args)
            if combo.name == "Four of a kind":
                need = (args[0],) * max(0, 4 - throw.count(args[0]))
                values.append(complete(need, 2, pts, goods))
            else:
                values.append(complete(missing(target, throw), 0, pts, goods))
        return max(values) if sign > 0 else min(values)

    @lru_cache(maxsize=None)
    def turn(goods):
        throws, probs = six_dice_throws()
        total = 0.0
        for t, p in zip(throws, probs):
            v = pick(t, goods)
            if sign > 0 and goods > 0:
                v = max(v, turn(goods - 1))
            total += p * v
        return total

    return turn(h)


@pytest.mark.parametrize("index", range(14))
def test_single_combination_endgames(normal, misere, index):
    combo = COMBINATIONS[index]
    for solution, sign in ((normal, 1), (misere, -1)):
        for h in (5, 7) if sign > 0 else (5,):
            expected = single_combination_reference(combo, h, sign)
            assert solution.W[1 << index, h] == pytest.approx(expected, abs=1e-9)


def test_solve_is_deterministic_and_cached(normal):
    W = solve("normal")
    assert np.array_equal(W[ALL_FREE, :6], np.asarray(normal.W)[ALL_FREE, :6])
    assert normal.end_value(0, 12) == 12.0


@pytest.mark.parametrize("text, move", [
    ("Collect 3", Move("pick", 2)), ("collect   6", Move("pick", 5)),
    ("Three pairs 3 5 6", Move("pick", 6, (3, 5, 6))), ("three PAIRS 6 3 5", Move("pick", 6, (3, 5, 6))),
    ("Two triples 3 5", Move("pick", 7, (3, 5))), ("Four of a kind 4", Move("pick", 8, (4,))),
    ("Six of a kind 2", Move("pick", 11, (2,))), ("Kamerun", Move("pick", 9)), ("straight", Move("pick", 10)),
    ("General", Move("pick", 12)), ("DESPIRALA", Move("pick", 13)), ("Reroll", Move("reroll")),
    ("Continue", Move("continue")), ("continue collecting", Move("continue")), ("Stop", Move("stop")),
    ("Stop collecting", Move("stop")), ("List", Move("list")), ("Options", Move("list")),
    ("list options", Move("list")),
])
def test_move_language(text, move):
    assert parse_move(text) == move
    assert parse_move(move.text()) == move


@pytest.mark.parametrize("text, message", [
    ("", "type a move"), ("Collect", "one face"), ("Collect 7", "one face"), ("Three pairs 3 5", "takes 3"),
    ("Three pairs 3 3 5", "different faces"), ("Four of a kind", "takes 1"), ("Kamerun 4", "takes no"),
    ("Yahtzee", "unknown move"), ("3 Collect", "name comes first"), ("Six of a kind 0", "1 to 6"),
])
def test_move_language_rejects_bad_input(text, message):
    with pytest.raises(InputError, match=message):
        parse_move(text)


def test_throws():
    assert parse_throw("6 5 4 3 2 1") == (1, 2, 3, 4, 5, 6)
    for bad in ("12345", "1234567", "123457", "abc"):
        with pytest.raises(InputError):
            parse_throw(bad)
    throws, probs = six_dice_throws()
    assert len(throws) == 462 and sum(probs) == pytest.approx(1)
    assert probs[throws.index((1, 2, 3, 4, 5, 6))] == pytest.approx(factorial(6) / 6 ** 6)


Z_999 = 3.29


@pytest.mark.parametrize("mode, exact", [("normal", 443.616), ("misere", 105.973)])
def test_simulation_of_the_exact_model_agrees_with_its_value(normal, misere, mode, exact):
    from dicesolver.despirala.simulate import simulate_despirala

    stats, scores = simulate_despirala(mode, 100_000, seed=7)
    assert abs(stats.mean - exact) < Z_999 * stats.stderr
    assert len(scores) == 100_000 and stats.percentiles["5"] <= stats.percentiles["50"] <= stats.percentiles["95"]
    again, _ = simulate_despirala(mode, 1000, seed=7)
    assert again.mean == simulate_despirala(mode, 1000, seed=7)[0].mean  # reproducible


def test_monte_carlo_models_overrate_themselves_and_play_worse(normal):
    """The Despirala engine: with one sampled throw per state the model reports about 497 and plays to about 330."""
    from dicesolver.despirala.simulate import simulate_despirala

    one, _ = simulate_despirala("normal", 20_000, seed=3, samples=1)
    five, _ = simulate_despirala("normal", 20_000, seed=3, samples=5)
    assert one.expected > five.expected > normal.root_value
    assert one.mean + Z_999 * one.stderr < five.mean
    assert five.mean + Z_999 * five.stderr < normal.root_value
    assert 480 < one.expected < 515 and 300 < one.mean < 350


def test_cli_solve_and_simulate(capsys, tmp_path):
    import json

    from dicesolver.cli.app import main

    def run(*argv):
        with pytest.raises(SystemExit) as info:
            main(list(argv))
        captured = capsys.readouterr()
        return info.value.code or 0, captured.out, captured.err

    code, out, _ = run("solve", "despirala(misere)", "--json")
    assert code == 0 and round(json.loads(out)["value"], 3) == 105.973
    code, out, _ = run("simulate", "despirala", "-n", "2000", "--json", "--plot", str(tmp_path / "h.png"))
    data = json.loads(out)
    assert code == 0 and data[0]["games"] == 2000 and data[0]["player"] == "optimal" and (tmp_path / "h.png").exists()
    assert data[0]["expected"] == pytest.approx(443.616, abs=5e-4)
    code, out, _ = run("rules", "despirala(misere)")
    assert "Misere" in out
    for argv, message in [(["solve", "despirala(hard)"], "misere"), (["simulate", "yacht", "--samples", "5"], "--samples"),
                          (["odds", "despirala"], "scorecard games"),
                          (["advise", "despirala", "/1/2"], "USED;GOODS;DICE")]:
        code, _, err = run(*argv)
        assert code == 2 and message in err


@pytest.mark.parametrize("mode", ["normal", "misere"])
def test_turn_options_are_consistent_with_the_table(normal, misere, mode):
    """The mean over the first throw of the best move's value is the table's value of the game."""
    from dicesolver.despirala.solver import turn_options

    solution = normal if mode == "normal" else misere
    throws, probs = six_dice_throws()
    total = sum(p * turn_options(solution, ALL_FREE, 5, t)[0][1] for t, p in zip(throws, probs))
    assert total == pytest.approx(solution.root_value, abs=1e-9)
    options = turn_options(solution, ALL_FREE, 5, (1, 2, 3, 4, 5, 6))
    if mode == "normal":
        assert options[0][0] == parse_move("Straight")  # a straight showing: 50 points at once
        assert any(m.kind == "reroll" for m, _ in options)
    else:
        assert all(m.kind != "reroll" for m, _ in options)
    assert len({m for m, _ in options}) == len(options)


def test_decision_points():
    from dicesolver.despirala.rules import parse_decision_point

    p = parse_decision_point("Straight, collect 3;7;2 2 3 4 5 6")
    assert p.goods == 7 and p.dice == (2, 2, 3, 4, 5, 6) and bin(p.free).count("1") == 12
    assert parse_decision_point(p.text()) == p
    assert parse_decision_point("none;5;113456").free == ALL_FREE
    for bad, message in [("x", "USED;GOODS;DICE"), ("none;6;113456", "0 to 5 goods"), ("Straight,Straight;5;123456", "twice"),
                         ("Yacht;5;123456", "unknown combination"), ("none;five;123456", "whole number"),
                         ("none;5;12345", "6 dice"), (";".join([",".join(c.name for c in COMBINATIONS), "3", "123456"]), "over")]:
        with pytest.raises(InputError, match=message):
            parse_decision_point(bad)


def test_cli_advise(capsys):
    import json

    from dicesolver.cli.app import main

    with pytest.raises(SystemExit):
        main(["advise", "despirala", "none;5;123456", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["options"][0]["option"] == "Straight" and data["options"][0]["cost"] == 0
    assert all(o["cost"] >= 0 for o in data["options"])
    with pytest.raises(SystemExit) as info:
        main(["advise", "despirala", "none;9;123456"])
    assert info.value.code == 2


def test_one_positions_values_in_python_are_the_kernels(normal, misere):
    """Advice's Python values (no numba loaded) against the kernels', bit for bit, at random states."""
    import random

    from dicesolver.despirala.kernels.expected import _collect_table, _pick_value
    from dicesolver.despirala.solver import binomial_table, collect_table, pick_value

    rng = random.Random(4)
    q, qcum = completion_odds()
    for solution in (normal, misere):
        W = np.asarray(solution.W)
        sign = 1.0 if solution.mode == "normal" else -1.0
        for _ in range(200):
            after, goods = rng.randrange(W.shape[0]), rng.randrange(W.shape[1] - 5)
            s, pts = rng.randrange(q.shape[0]), float(rng.randrange(60))
            assert pick_value(W, after, s, goods, pts, q, qcum) == _pick_value(W, after, s, goods, pts, q, qcum)
            face = rng.randrange(1, 7)
            want = np.empty((7, goods + 1))
            _collect_table(W, after, face, binomial_table(), sign, want)
            assert np.array_equal(collect_table(W, after, face, goods + 1, sign), want)
            remembered = solution.collect_table(after, face, goods + 1)
            assert np.array_equal(remembered, want) and not remembered.flags.writeable
            assert solution.collect_table(after, face, goods + 1) is remembered  # asked again: not computed again


@pytest.mark.parametrize("mode", ["normal", "misere"])
def test_the_python_form_answers_as_the_kernel_does_to_the_bit(mode):
    """``answers_numpy.answer_despirala`` (a one-shot command's answers, numba not loaded) against the kernel:
    the states of random games at every moment, and as many again with one field mangled (refusals, sheets
    no game has), the same options, values and refusals to the bit."""
    import random

    from dicesolver.core import registry
    from dicesolver.despirala import answers_numpy
    from dicesolver.despirala.kernels import answers as kernel
    from fuzzing import playthrough

    names = ("THROW", "DECIDE", "COMPLETE", "COLLECT", "HITS", "OVER", "GOODS_PER_TURN", "N_COMBOS", "N_COLLECTS",
             "BAD_SHEET", "BAD_DICE", "BAD_MOMENT", "BAD_COMBINATION")
    assert [getattr(answers_numpy, n) for n in names] == [getattr(kernel, n) for n in names]
    spec = "despirala" if mode == "normal" else "despirala(misere)"
    solution = registry.solve(spec)
    engine = solution  # the judge is its answer engine
    states = [s for seed in range(24) for s in playthrough(spec, seed, max_steps=120)[0] if not s.is_chance()]
    situations = solution.encoding.situations(states)
    rng = random.Random(3)
    mangled = {k: v.copy() for k, v in situations.items()}
    for i in range(len(states)):
        key = rng.choice(sorted(mangled))
        row = mangled[key][i]
        row.flat[rng.randrange(row.size)] = rng.choice([-1, 0, 1, 2, 6, 7, 14, 99])
    for batch in (situations, mangled):
        args = [batch[k] for k in ("free", "goods", "points", "dice", "phase", "combination", "have", "picked")]
        n = len(args[0])
        outs = []
        for python in (False, True):
            width = engine._width
            f, i = np.zeros((n, 3 * width)), np.zeros((n, width + 1), dtype=np.int16)  # the engine's types
            if python:
                refused = answers_numpy.answer_despirala(*args, engine._W, engine._normal, engine._picks, engine.tie,
                                                         f, i)
            else:
                refused = kernel.answer_despirala(*args, engine._W, engine._targets, engine._aim, engine._normal,
                                                  engine._theta, engine._picks, engine.tie, f, i)
            outs.append((refused, f, i))
        (r1, f1, i1), (r2, f2, i2) = outs
        assert r1 == r2 and n > 400
        np.testing.assert_array_equal(i1, i2)
        assert f1.tobytes() == f2.tobytes()
    assert outs[0][0] > 0  # the mangled batch has refusals of its own
