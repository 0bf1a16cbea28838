"""Push-your-luck games: the solver against a slow reference and the published figures, exact policy
evaluation, the chart, records, review."""

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicesolver import load_game
from dicesolver.core import registry
from dicesolver.core.errors import GameDefinitionError, InputError
from dicesolver.pushluck.chart import chart_figure, chart_rows, first_stop
from dicesolver.pushluck.family import FAMILY
from dicesolver.pushluck.players import hold_at, make_push_player
from dicesolver.pushluck.records import PushEvent, PushRecord
from dicesolver.pushluck.rules import parse_throw
from dicesolver.pushluck.solver import TOLERANCE, PushTable, evaluate, load_or_solve, solve
from dicesolver.core.steps import DiceRoll, Throw
from dicesolver.pushluck.state import Hold, PushState

TINY = ["pig(goal=10)", "pig(faces=2,goal=8)", "skunk(goal=12)", "big-pig(goal=30)", "pig(faces=3,goal=7)"]


def reference_tables(game, policies=None, tol=1e-14):
    """Slow, obviously correct: Gauss-Seidel value iteration over every state until nothing moves.
    With ``policies`` (two arrays, 1 = throw) it evaluates them; without, both play the best action."""
    bust, reset, adds = game.outcomes()
    bust, reset = float(bust), float(reset)
    adds = [(k, float(p)) for k, p in adds.items()]
    goal = game.goal
    states = [(m, o, t) for m in range(goal) for o in range(goal) for t in range(goal - m)]
    tables = [{s: 0.5 for s in states} for _ in range(2)]

    while True:
        change = 0.0
        for player in (0, 1):
            mine, theirs = tables[player], tables[1 - player]
            for (m, o, t) in states:
                roll = bust * (1 - theirs[(o, m, 0)]) + reset * (1 - theirs[(o, 0, 0)])
                for k, p in adds:  # reaching the goal wins
                    roll += p * (1.0 if m + t + k >= goal else mine[(m, o, t + k)])
                if t == 0:
                    new = roll
                else:
                    hold = 1 - theirs[(o, m + t, 0)]
                    if policies is None:
                        new = max(roll, hold)
                    else:
                        new = roll if policies[player][m, o, t] else hold
                change = max(change, abs(new - mine[(m, o, t)]))
                mine[(m, o, t)] = new
        if change < tol:
            return tables


def as_array(game, table):
    out = np.full((game.goal,) * 3, np.nan)
    for (m, o, t), v in table.items():
        out[m, o, t] = v
    return out


def used(game):
    m = np.arange(game.goal)[:, None, None]
    t = np.arange(game.goal)[None, None, :]
    return np.broadcast_to(m + t < game.goal, (game.goal,) * 3)


@pytest.mark.parametrize("name", TINY)
def test_solver_matches_slow_reference(name):
    game = load_game(name)
    table, info = solve(game)
    ref = as_array(game, reference_tables(game)[0])
    mask = used(game)
    assert np.max(np.abs(table[mask] - ref[mask])) < 1e-10
    assert info.last_change <= TOLERANCE
    assert np.all(table[~mask] == 1.0)


@pytest.mark.parametrize("name", TINY)
def test_one_states_throw_value_is_the_kernels(name):
    """Advice's numpy value of throwing (no numba loaded) against the kernel's whole table of them."""
    game = load_game(name)
    solution = PushTable(game, solve(game)[0])
    everywhere = solution.rolls
    for m, o, t in itertools.product(range(game.goal), repeat=3):
        if m + t < game.goal:
            assert solution.roll_value(m, o, t) == everywhere[m, o, t]  # the same operations: the same bits
    policy = solution.policy  # the thresholds, now read from one row, as the whole policy has them
    for m, o in itertools.product(range(game.goal), repeat=2):
        row = [t for t in range(1, game.goal - m + 1) if (bool(policy[m, o, t]) if m + t < game.goal else False)
               != (bool(policy[m, o, t - 1]) if t > 1 and m + t - 1 < game.goal else True)]
        assert solution.thresholds(m, o) == row
        solution.thresholds(m, o).append(-1)  # each caller gets a list of its own
        assert solution.thresholds(m, o) == row  # remembered, unchanged


@pytest.mark.parametrize("name", ["skunk(goal=12)", "pig(goal=10)"])
def test_policy_evaluation_matches_slow_reference(name):
    game = load_game(name)
    rng = np.random.default_rng(5)
    policies = [rng.integers(0, 2, size=(game.goal,) * 3).astype(np.int8) for _ in range(2)]
    first, second = evaluate(game, policies[0], policies[1])
    ref = reference_tables(game, policies)
    mask = used(game)
    assert np.max(np.abs(first[mask] - as_array(game, ref[0])[mask])) < 1e-10
    assert np.max(np.abs(second[mask] - as_array(game, ref[1])[mask])) < 1e-10


@pytest.fixture(scope="module")
def skunk():
    return load_or_solve(load_game("skunk"))[0]


@pytest.fixture(scope="module")
def pig():
    return load_or_solve(load_game("pig"))[0]


def test_skunk_first_player_oracle(skunk):
    assert round(skunk.root_value, 5) == 0.51956  # the Skunk analysis: 0.5195594, converged to about 1e-6
    assert abs(skunk.win(0, 5) - 0.4973309) < 1e-5  # seed: "your chance is .4973309"
    assert abs(skunk.win(67, 0) - 0.858472) < 1e-5


@pytest.mark.parametrize("scores, stops", [((0, 0), [21]), ((0, 67), [28, 96, 100]), ((0, 86), [33, 53, 100]),
                                           ((0, 87), [33, 44, 100]), ((0, 88), [100])])
def test_skunk_strategy_lists_from_the_seed(skunk, scores, stops):
    assert skunk.thresholds(*scores) == stops


def test_skunk_retrograde_stretch(skunk):
    """The Skunk analysis: 'the curious retrograde motion from (0,75) up to (0,82)': as the opponent closes in,
    the first stop falls instead of rising, then jumps back at 82."""
    first = {o: skunk.thresholds(0, o)[0] for o in range(70, 84)}
    stretch = [first[o] for o in range(75, 82)]
    assert all(a > b for a, b in zip(stretch, stretch[1:]))
    assert first[74] > first[75] and first[82] > first[81]
    assert all(first[o] <= first[o + 1] for o in range(70, 73))  # rising before the stretch


def test_pig_oracles(pig):
    assert round(pig.root_value, 4) == 0.5306  # Neller & Presser
    game = pig.game
    a, b = evaluate(game, hold_at(100, 20), hold_at(100, 20))
    assert round(float(a[0, 0, 0]), 4) == 0.5347  # Neller: "approximately .5347"
    assert abs(float(a[0, 0, 0]) + float(b[0, 0, 0]) - 1) > 0.06  # the first mover's edge is on both sides


@pytest.mark.parametrize("name", ["pig", "skunk", "big-pig", "pig(faces=2,goal=20)"])
def test_probabilities_and_house_rule(name):
    game = load_game(name)
    solution = load_or_solve(game)[0]
    table = np.asarray(solution.table)
    assert np.all((table >= 0) & (table <= 1))
    # a turn starts with a throw: holding 0 (passing the dice) would never have been better
    pass_value = 1 - table[:, :, 0].T
    assert np.all(pass_value < solution.rolls[:, :, 0])
    # optimal play evaluated as a fixed policy reproduces the table, and beats every hold-at-N
    first, _ = evaluate(game, solution.policy, solution.policy)
    assert np.max(np.abs(first - table)) < 1e-10
    for n in (10, 20, 25):
        if n <= game.goal:
            a, b = evaluate(game, hold_at(game.goal, n), solution.policy)
            assert a[0, 0, 0] < solution.root_value + 1e-12
            assert 1 - b[0, 0, 0] <= solution.root_value + 1e-12


def test_compare_and_players(pig):
    result = FAMILY.compare(pig.game, "optimal", "hold-at-20")
    assert result.first > 0.5347 and result.second > 1 - 0.5347
    assert result.average == pytest.approx((result.first + result.second) / 2)
    same = FAMILY.compare(pig.game, "hold-at-20", "hold-at-20")
    assert same.average == pytest.approx(0.5, abs=1e-12)
    assert make_push_player("keep-pace", pig.game).throws(0, 0, 5)
    for bad in ("hold-at-0", "hold-at-101", "maximus", "hold-at-x"):
        with pytest.raises(InputError):
            make_push_player(bad, pig.game)


def test_monte_carlo_agrees_with_exact_evaluation():
    game = load_game("pig(goal=30)")
    a, b = hold_at(30, 8), hold_at(30, 12)
    exact = float(evaluate(game, a, b)[0][0, 0, 0])
    rng = random.Random(11)
    wins, n = 0, 20000
    for _ in range(n):
        state = game.start()
        while state.winner is None:
            policy = a if state.mover == 0 else b
            if state.throwing:
                state = state.apply(DiceRoll((rng.randint(1, 6),)))
            else:
                state = state.apply(Throw() if policy[state.mine, state.theirs, state.turn_total] else Hold())
        wins += state.winner == 0
    p = wins / n
    assert abs(p - exact) < 4 * (exact * (1 - exact) / n) ** 0.5


def test_chart_rows_and_figure(skunk, tmp_path):
    rows = chart_rows(skunk, mine=0)
    assert len(rows) == 100 and rows[0].line() == "(0,0) 0.5195589 - 21"
    assert chart_rows(skunk, 0, 87)[0].thresholds == [33, 44, 100]
    with pytest.raises(InputError):
        chart_rows(skunk, mine=100)
    stops = first_stop(skunk)
    assert stops[0, 0] == 21 and stops[0, 88] == 100
    fig = chart_figure(skunk)
    assert len(fig.axes) >= 3


def test_game_strings_and_rules():
    assert load_game("pig(goal=100)").canonical == "pig"
    assert load_game("PIG(goal=10, faces=2)").canonical == "pig(faces=2,goal=10)"
    for bad in ("pig(goal=1)", "pig(goal=5000)", "skunk(faces=3)", "pig(goal=ten)", "big-pig(dice=3)"):
        with pytest.raises(GameDefinitionError):
            load_game(bad)
    game = load_game("big-pig")
    bust, reset, adds = game.outcomes()
    assert bust + reset + sum(adds.values()) == 1 and adds[25] * 36 == 1 and adds[24] * 36 == 1  # 66 doubled
    assert load_game("skunk").effect((1, 1)) == (2, 0) and load_game("skunk").effect((1, 4)) == (1, 0)
    for bad in ("7", "1", "x", "123", ""):
        with pytest.raises(InputError):
            parse_throw(bad, load_game("skunk"))
    assert parse_throw("4 3", load_game("skunk")) == (3, 4)
    assert any("25" in line for line in game.describe())


def play_out(game, policies, seed):
    """A random game between two policies, as a record."""
    rng = random.Random(seed)
    record = PushRecord(game, ["a", "b"], seed, seed % 2)
    state = game.start()
    while state.winner is None:
        player = (state.mover + record.first) % 2  # seats count from the first mover
        policy = policies[player]
        if state.throwing or policy[state.mine, state.theirs, state.turn_total]:
            dice = tuple(sorted(rng.randint(1, game.faces) for _ in range(game.n_dice)))
            record.events.append(PushEvent("roll", player, dice))
            if not state.throwing:
                state = state.apply(Throw())
            state = state.apply(DiceRoll(dice))
        else:
            record.events.append(PushEvent("hold", player))
            state = state.apply(Hold())
    return record


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 1))
def test_review_telescopes(seed, player):
    game = load_game("skunk(goal=30)")
    solution = load_or_solve(game)[0]
    record = play_out(game, [hold_at(30, 6), solution.policy], seed)
    review = FAMILY.solve(game).review(record.playthrough(), player)
    s = review.summary
    assert s.complete and s.result in (0.0, 1.0)
    assert s.baseline + s.luck - s.loss + s.others == pytest.approx(s.result, abs=1e-9)
    assert all(d.loss >= 0 for d in review.decisions)
    optimal_seat = (1 - record.first) % 2
    assert all(d.loss == 0 for d in review.decisions if d.seat == optimal_seat)


def test_luck_averages_to_zero():
    game = load_game("skunk(goal=30)")
    solution = load_or_solve(game)[0]
    for (m, o, t) in [(0, 0, 0), (10, 20, 6), (25, 3, 2), (0, 29, 15)]:
        state = PushState(game, (m, o), 0, t, throwing=True)
        mean = 0.0
        for dice in itertools.product(range(1, 7), repeat=2):
            after = state.apply(DiceRoll(tuple(sorted(dice))))
            v = 1.0 if after.winner == 0 else (solution.win(after.mine, after.theirs, after.turn_total)
                                               if after.mover == 0 else 1 - solution.win(after.mine, after.theirs))
            mean += v / 36
        assert mean == pytest.approx(solution.roll_value(m, o, t), abs=1e-12)


def test_replay_rejects_impossible_records():
    game = load_game("pig(goal=10)")
    record = PushRecord(game, ["a", "b"], 1, 0, events=[PushEvent("hold", 0)])
    with pytest.raises(InputError, match="throw"):  # a turn starts with a throw: nothing to hold
        record.playthrough()
    record.events = [PushEvent("roll", 1, (3,))]
    with pytest.raises(InputError, match="turn"):
        record.playthrough()
    record.events = [PushEvent("roll", 0, (6,)), PushEvent("roll", 0, (6,)), PushEvent("roll", 0, (2,))]
    with pytest.raises(InputError, match="already won"):
        record.playthrough()
    record.events = [PushEvent("roll", 0, (1,)), PushEvent("roll", 1, (4,)), PushEvent("hold", 1)]
    final = record.playthrough().final
    assert final.scores == (0, 4) and final.mover == 0


def test_table_cache_rebuilds_corrupt_table(fresh_cache):
    game = load_game("pig(goal=12)")
    solution, info = load_or_solve(game)
    assert info.built
    again, info2 = load_or_solve(game)
    assert not info2.built and again.root_value == solution.root_value
    npy = next(fresh_cache.rglob("win.npy"))
    data = bytearray(npy.read_bytes())
    data[-3] ^= 0xFF
    npy.write_bytes(bytes(data))
    problems = []
    fixed, info3 = load_or_solve(game, on_problem=problems.append)
    assert info3.built and problems and fixed.root_value == solution.root_value


def test_solution_guards(skunk):
    with pytest.raises(InputError):
        skunk.win(100, 0)
    with pytest.raises(InputError):
        skunk.win(0, 0, -1)
    assert skunk.win(90, 0, 10) == 1.0
    assert np.isnan(skunk.hold_value(0, 0, 0))
    assert isinstance(skunk, PushTable)


def test_the_chart_drawn_for_a_phone_stacks_its_panels_with_readable_text():
    """For a 360 px page the chart's three panels go one under the other, the figure is 360 px wide at 100 px
    an inch, and every text (titles, labels, ticks, colour bars) is at least 9 points: 12.5 px."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    from dicesolver.analysis.plots import fit_to_width

    game = load_game("pig(goal=30)")
    fig = fit_to_width(chart_figure(PushTable(game, solve(game)[0])), 360)
    FigureCanvasAgg(fig).draw()
    assert tuple(fig.get_size_inches())[0] == pytest.approx(3.6)
    panels = sorted((ax for ax in fig.axes if ax.get_label() != "<colorbar>"), key=lambda ax: -ax.get_position().y0)
    assert len(panels) == 3
    for upper, lower in zip(panels, panels[1:]):  # one column, top to bottom
        assert upper.get_position().y0 >= lower.get_position().y1 - 1e-6
        assert upper.get_position().x0 < lower.get_position().x1 and lower.get_position().x0 < upper.get_position().x1
    sizes = [t.get_fontsize() for t in fig.findobj(Text) if t.get_text() and t.get_visible()]
    assert sizes and min(sizes) >= 9


@pytest.mark.parametrize("spec", ["pig", "skunk(goal=50)", "big-pig(goal=50)"])
def test_the_python_form_answers_as_the_kernel_does_to_the_bit(spec):
    """``answers_numpy.answer_push`` (a one-shot command's answers, numba not loaded) against the kernel on
    every situation of the game's shape: each score pair, turn total and moment, including the refused ones
    (negative, at the goal, past it, nothing at risk, the end)."""
    from dicesolver.pushluck import answers_numpy, kernels

    assert (answers_numpy.BAD_SCORES, answers_numpy.NOT_ON_TURN, answers_numpy.BAD_TOTAL, answers_numpy.NO_CHOICE) \
        == (kernels.BAD_SCORES, kernels.NOT_ON_TURN, kernels.BAD_TOTAL, kernels.NO_CHOICE)
    engine = registry.solve(spec)  # the judge is its answer engine
    goal = engine._chances.shape[0]
    rng = np.random.default_rng(5)
    n = 6000
    scores = rng.integers(-2, goal + 3, size=(n, 2))
    turn_total = rng.integers(-1, goal + 2, size=(n, 1))
    on_turn = rng.integers(0, 2, size=(n, 1))
    throwing = rng.integers(0, 2, size=(n, 1))
    args = (engine._chances, engine._outcomes, engine._most, engine.tie)
    outs = []
    for form in (kernels.answer_push, answers_numpy.answer_push):
        f, i = np.zeros((n, 5)), np.zeros((n, 3), dtype=np.int16)  # the engine's types: no other compile
        refused = form(scores, turn_total, on_turn, throwing, *args, f, i)
        outs.append((refused, f, i))
    (r1, f1, i1), (r2, f2, i2) = outs
    assert r1 == r2 and 0 < r1 < n  # some of each
    np.testing.assert_array_equal(i1, i2)
    assert f1.tobytes() == f2.tobytes()  # NaN where no option, the same bits everywhere


def test_a_fresh_engine_answers_single_positions_in_python_then_takes_up_the_compiled_kernel():
    from dicesolver.core.answers import NUMPY_FIRST
    from dicesolver.pushluck.answers import PushEngine

    solution = registry.solve("skunk(goal=50)")
    engine = PushEngine(solution.table, solution.tie)
    situations = solution.encoding.parse_situations(["10,20,5"])
    first = engine.answer(situations)
    assert "_kernel" not in engine.__dict__  # answered without the kernel
    for _ in range(NUMPY_FIRST + 1):
        later = engine.answer(situations)
    assert "_kernel" in engine.__dict__  # the suite has compiled it: it answers from then on
    for a, b in zip(first.buffers, later.buffers):
        assert a.tobytes() == b.tobytes()
