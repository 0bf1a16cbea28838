"""The numpy form of the solitaire answer kernel (``scorecard/solitaire/answers_numpy.py``) against the kernel: the
recorded situations of every solitaire scorecard case (golden.py) and thousands of mangled ones, each
answered alone by both, the same to the bit, the same refusals in the same words."""

from __future__ import annotations

import numpy as np
import pytest

from dicesolver.core.errors import InputError
from golden import CASES, read

RECORDED = read()
SOLITAIRE = ["yahtzee", "bonusgame", "bonusgame-forced-order", "pairs", "bonusgame-points-2", "bonusgame-target-30",
             "bonusgame-beat-30"]


def answered(answer, situations):
    """(floats, ints) of the answers, or the refusal's words."""
    try:
        out = answer(situations)
    except InputError as e:
        return str(e)
    return out.buffers


def same(a, b, where):
    if isinstance(a, str) or isinstance(b, str):
        assert a == b, where
        return
    np.testing.assert_array_equal(a[1], b[1], err_msg=where)
    np.testing.assert_array_equal(a[0], b[0], err_msg=where)


def mangled(situation, rng, game):
    """A copy of one situation with one field changed at random, often into something no game has."""
    out = {k: v.copy() for k, v in situation.items()}
    pick = rng.integers(0, 6)
    if pick == 0:
        c = rng.integers(0, game.n_categories)
        out["cards"][0, 0, c] = rng.choice([-2, -1, 0, 1, 3, 5, 12, 25, 50, 1000])
    elif pick == 1:
        out["totals"][0, 0] += rng.choice([-5, -1, 1, 50, 100])
    elif pick == 2:
        out["dice"][0, rng.integers(0, game.n_dice)] = rng.integers(-1, game.faces + 2)
    elif pick == 3:
        out["held"][0] = np.sort(rng.integers(0, game.faces + 1, game.n_dice))
    elif pick == 4:
        out["rolls_left"][0, 0] = rng.integers(-1, game.rolls + 2)
    else:
        out["cards"][0, 0] = -1
        out["totals"][0, 0] = 0
    return out


@pytest.mark.parametrize("name", SOLITAIRE)
def test_the_numpy_form_answers_as_the_kernel_does(name):
    make, _ = CASES[name]
    solution, _ = make()
    engine = solution  # the judge is its answer engine
    form = engine._numpy
    kernel = lambda situations: engine.answer(situations, memo=engine.memo_for(1))  # noqa: E731  (the kernel)
    states = [solution.game.parse_state(text) for text, _, _ in RECORDED[name]]
    situations = solution.encoding.situations(states)
    rng = np.random.default_rng(len(name))
    refused = 0
    for i in range(len(states)):
        one = {k: v[i: i + 1] for k, v in situations.items()}
        same(answered(form.answer, one), answered(kernel, one), str(states[i]))
        for _ in range(3):
            bad = mangled(one, rng, solution.game)
            got = answered(form.answer, bad)
            refused += isinstance(got, str)
            same(got, answered(kernel, bad), f"{states[i]} mangled: { {k: v.tolist() for k, v in bad.items()} }")
    assert refused > len(states) // 2  # the refusals were reached, and worded alike
    # a batch of a few: its rows as the kernel answers each alone
    batch = form.answer({k: v[:40] for k, v in situations.items()})
    for i in range(40):
        one = {k: v[i: i + 1] for k, v in situations.items()}
        np.testing.assert_array_equal(batch.buffers[0][i], kernel(one).buffers[0][0])


def test_a_fresh_process_answers_single_positions_in_numpy_and_batches_with_the_kernel():
    """The engine's choice: single situations in numpy until it has answered a few and finds the kernel
    compiled; then the kernel."""
    import dicesolver as ds
    from dicesolver.core.answers import NUMPY_FIRST
    from dicesolver.scorecard.solitaire.answers import SolitaireEngine

    solution = ds.solve("yacht")
    engine = SolitaireEngine(solution.table.model, solution.table.values, solution.tie, solution.judge)
    situations = solution.encoding.parse_situations(["/12345/2"])
    first = engine.answer(situations)
    assert "_numpy" in engine.__dict__ and not engine._sealed
    for _ in range(NUMPY_FIRST + 1):
        later = engine.answer(situations)
    assert engine._sealed  # the suite has compiled the kernel: it answers from then on
    for a, b in zip(first.buffers, later.buffers):
        np.testing.assert_array_equal(a, b)


def test_once_the_kernel_is_found_compiled_it_answers_every_later_situation(monkeypatch):
    """The numpy form answers a process's first few single situations (a one-shot command never loads numba),
    then while no compiled kernel is found, asking again every NUMPY_RECHECK; once one is found, the kernel
    answers everything after. It used to go back to numpy for the next NUMPY_RECHECK situations each time:
    Despirala's judged learning environment stepped four times slower for it."""
    from dicesolver.core import answers, jit

    found = []
    monkeypatch.setattr(jit, "compiled", lambda kernel: found.append(kernel) or len(found) > 1)
    first = answers.NumpyFirst(lambda: "the kernel")
    taken = [first.takes(1) for _ in range(answers.NUMPY_FIRST + 2 * answers.NUMPY_RECHECK + 10)]
    assert all(taken[:answers.NUMPY_FIRST + 1])  # the first few, then not compiled at the first look
    assert all(taken[:answers.NUMPY_FIRST + answers.NUMPY_RECHECK])  # looked at again after NUMPY_RECHECK
    assert not any(taken[answers.NUMPY_FIRST + answers.NUMPY_RECHECK + 1:])  # found: the kernel from then on
    assert found == ["the kernel", "the kernel"]
    assert not first.takes(answers.NUMPY_FEW + 1)  # a batch always goes to the kernel


def test_a_long_running_process_answers_with_the_compiled_kernel(monkeypatch):
    """Through the public solution: once the kernel is compiled, single situations never reach the numpy form."""
    import dicesolver as ds
    from dicesolver.core.answers import NUMPY_FEW, NUMPY_FIRST
    from dicesolver.pushluck import answers_numpy

    solution = ds.solve("pig(goal=30)")
    state = solution.state("0,0,0")
    solution.answers([state] * (NUMPY_FEW + 1))  # a batch: the kernel, compiled now if it was not
    for _ in range(NUMPY_FIRST + 1):
        solution.answers([state])
    in_numpy = []
    form = answers_numpy.answer_push
    monkeypatch.setattr(answers_numpy, "answer_push", lambda *args: in_numpy.append(1) or form(*args))
    values = [solution.answers([state]).value[0] for _ in range(200)]
    assert not in_numpy and len(set(values)) == 1


@pytest.mark.parametrize("choices", [{}, {"times": "2", "joker": "free"}, {"upper": "off", "times": "every"}])
def test_the_numpy_form_answers_games_with_set_bonuses_as_the_kernel_does(choices):
    """Rules only a rules file has (a lower-section bonus beside the upper one, an extra-yacht bonus paid a
    limited number of times) take both forms' general path: states met in random games, cards holding paid
    bonuses among them, answered alike, and mangled ones refused alike."""
    import random

    import dicesolver as ds
    from tinygames import SET_BONUS_GAME, tiny

    game = tiny(SET_BONUS_GAME, **choices)
    solution = ds.solve(game)
    form = solution._numpy
    kernel = lambda situations: solution.answer(situations, memo=solution.memo_for(1))  # noqa: E731
    rng, states = random.Random(3), []
    for _ in range(30):
        state = game.start()
        while not state.is_terminal():
            steps = state.chance_outcomes() if state.is_chance() else [(a, 1.0) for a in state.legal_actions()]
            state = state.apply(rng.choice(steps)[0])
            if not state.is_chance():
                states.append(state)
    assert any(s.cards[0].extra_bonus for s in states)  # a paid bonus was met
    situations = solution.encoding.situations(states)
    mangle = np.random.default_rng(4)
    for i in range(len(states)):
        one = {k: v[i: i + 1] for k, v in situations.items()}
        same(answered(form.answer, one), answered(kernel, one), str(states[i]))
        bad = mangled(one, mangle, game)
        same(answered(form.answer, bad), answered(kernel, bad), f"{states[i]} mangled")
