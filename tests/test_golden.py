"""The batch answer engine against the per-position advice it replaced: every recorded situation of every
family and judge (golden.py: 8,000 situations sampled from random playouts, recorded at b6a1de0) answered
in one batch, every option's value within 1e-12 of the recorded one; the same batch read from the position
texts, answered on one thread and on all bit for bit, and as batches of one (to 1e-13: a situation alone
sums its keeps in another order)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dicesolver as ds
from golden import CASES, read

RECORDED = read()


def test_every_case_is_recorded():
    assert set(RECORDED) == set(CASES)
    assert sum(len(rows) for rows in RECORDED.values()) >= 8_000


def close(a, b) -> bool:
    return abs(a - b) <= 1e-12 * max(1.0, abs(b))


@pytest.mark.parametrize("name", list(CASES))
def test_the_engine_answers_as_the_per_position_code_did(name):
    make, _ = CASES[name]
    solution, _ = make()
    rows = RECORDED[name]
    states = [solution.game.parse_state(text) for text, _, _ in rows]
    answers = solution.answers(states, parallel=False)
    for i, (state, (text, value, options)) in enumerate(zip(states, rows)):
        assert str(state) == text
        assert close(answers.value[i], value), (text, answers.value[i], value)
        labels = [str(a) for a in state.legal_actions()] if options else []
        assert sorted(labels) == sorted(a for a, _ in options), text
        got = answers.options(i)
        assert len(got) == len(options), text
        recorded = dict(options)
        for label, (code, v, cost) in zip(labels, got):
            assert close(v, recorded[label]), (text, label, v, recorded[label])
            assert cost >= 0
        if got:
            assert min(c for _, _, c in got) == 0.0, text

    def same(other):
        for a, b in zip(other.buffers, answers.buffers):
            np.testing.assert_array_equal(a, b)

    same(solution.answers(states, parallel=True))
    same(solution.answer(solution.encoding.parse_situations([t for t, _, _ in rows]), parallel=True))
    step = max(1, len(states) // 25)
    for i in range(0, len(states), step):  # alone, a situation's keeps are summed in another order
        one = solution.answers([states[i]])
        np.testing.assert_array_equal(one.buffers[1][0], answers.buffers[1][i])
        np.testing.assert_allclose(one.buffers[0][0], answers.buffers[0][i], rtol=1e-13, atol=1e-13)


def test_advise_many_reads_texts_states_and_arrays_alike():
    texts = [t for t, _, options in RECORDED["yahtzee"][:200]]
    by_text = ds.advise_many("yahtzee", texts)
    states = [ds.parse_state("yahtzee", t) for t in texts]
    by_state = ds.advise_many("yahtzee", states)
    solution = ds.solve("yahtzee")
    by_array = ds.advise_many("yahtzee", solution.encoding.situations(states))
    for other in (by_state, by_array):
        for a, b in zip(other.buffers, by_text.buffers):
            np.testing.assert_array_equal(a, b)
    assert by_text.judge == "points" and by_text.unit == "points"
    for i, text in enumerate(texts[:20]):
        advice = ds.advise("yahtzee", text)
        assert close(advice.value, by_text.value[i]) and advice.judge == "points"
        assert np.allclose(sorted(o.value for o in advice.options), sorted(v for _, v, _ in by_text.options(i)),
                           rtol=1e-13, atol=0)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-1, 40), max_size=300), st.integers(0, 5))
def test_the_engine_groups_situations_by_turn_state(keys, lo):
    """The engine's grouping (a hash table and a counting sort) against a dictionary: every run one turn
    state, every turn state one run, each in batch order, and the most throws left its stages need."""
    from dicesolver.scorecard.solitaire.kernels.answers import DECISION, FIELDS, KEY, KIND, LEFT, RETHROW
    from dicesolver.scorecard.turn.kernels.answer_rows import group_runs

    rng = np.random.default_rng(len(keys))
    fields = np.zeros((lo + len(keys), FIELDS), dtype=np.int64)
    fields[lo:, KEY] = keys
    fields[lo:, KIND] = rng.integers(0, 5, len(keys))
    fields[lo:, LEFT] = rng.integers(0, 3, len(keys))
    order, starts, tops, runs = group_runs(fields, np.int64(lo), np.int64(len(fields)), np.int64(KEY), np.int64(KIND),
                                           np.int64(LEFT), np.int64(DECISION), np.int64(RETHROW))
    expected: dict[int, list[int]] = {}
    for i in range(lo, len(fields)):
        expected.setdefault(int(fields[i, KEY]), []).append(i)
    assert runs == len(expected)
    assert starts[0] == 0 and starts[runs] == len(keys)
    got = {}
    for r in range(runs):
        members = [int(i) for i in order[starts[r]: starts[r + 1]]]
        got[int(fields[members[0], KEY])] = members
        wanted = max([int(fields[i, LEFT]) for i in members if fields[i, KIND] in (DECISION, RETHROW)], default=0)
        assert tops[r] == wanted
    assert got == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0]), max_size=6), max_size=40))
def test_the_best_option_is_the_first_of_cost_zero(rows):
    """``Answers.best`` (a kernel) against numpy's reading of its layout: the first option of cost 0, -1 where
    a situation has none; ties and empty situations included."""
    from dicesolver.core.answers import Answers

    width = 6
    answers = Answers.empty(len(rows), width, "points", "points")
    floats, ints = answers.buffers
    floats[:], ints[:] = np.nan, -1
    for i, costs in enumerate(rows):
        costs = costs[:width]
        if costs and 0.0 not in costs:  # a situation's best option costs 0
            costs[-1] = 0.0
        floats[i, width: width + len(costs)] = costs
        ints[i, : len(costs)] = np.arange(len(costs)) + 10 * i % 7
        ints[i, width] = len(costs)
    cols = np.argmax(answers.costs == 0.0, axis=1)
    wanted = np.where(answers.counts > 0, answers.codes[np.arange(len(rows)), cols], -1)
    np.testing.assert_array_equal(answers.best(), wanted)
    np.testing.assert_array_equal(answers.take(np.arange(len(rows))[::-1]).best(), wanted[::-1])


def memo_free(solution):
    """The solution's answers worked out afresh every time: no turn stages carried between calls."""
    return lambda situations: solution.answer(situations, memo=solution.memo_for(0))


def test_a_single_situation_after_its_turns_first_decision_is_answered_bit_for_bit():
    """One situation at a time (a player's hints, the web): the decision with one throw left reads the turn's
    stages that its first decision worked out, and its answer is the same, bit for bit, as worked out afresh;
    a situation of another turn state is not misled by them."""
    from dicesolver.scorecard.solitaire.answers import SolitaireEngine

    solution = ds.solve("yahtzee")
    engine = SolitaireEngine(solution.table.model, solution.table.values)  # its own memo, for this test alone
    fresh = lambda situations: engine.answer(situations, memo=engine.memo_for(0))  # noqa: E731
    texts = ["aces=3,full_house=25/11345/2", "aces=3,full_house=25/22346/1", "aces=3,full_house=25/22346/0",
             "aces=3/22346/1", "aces=3,full_house=25/66666/1"]
    for text in texts:
        situations = solution.encoding.parse_situations([text])
        for a, b in zip(engine.answer(situations).buffers, fresh(situations).buffers):
            np.testing.assert_array_equal(a, b)
    # the memo is read: spoilt, it spoils the answer of the turn's next decision
    engine.answer(solution.encoding.parse_situations([texts[0]]))
    engine._own_memo[0, :-1] += 1.0
    second = solution.encoding.parse_situations([texts[1]])
    assert engine.answer(second).value[0] == pytest.approx(fresh(second).value[0] + 1.0)


def test_holding_every_die_for_a_throw_is_worth_the_same_dice_with_a_throw_fewer():
    """A re-throw with every die held throws nothing: it is worth the decision on the same dice with one
    throw fewer, bit for bit, whether the turn's stage 1 is worked out or read from a memo (which keeps only
    the keeps short of a whole roll), in a batch and alone."""
    from dicesolver.analysis.labels import sample

    solution = ds.solve("yahtzee")
    first = next(c.situations for c in sample(solution, 20_000, "uniform", seed=4)
                 if (c.situations["rolls_left"][:, 0] == 2).sum() >= 50)
    rows = np.nonzero(first["rolls_left"][:, 0] == 2)[0][:50]
    decision = {k: v[rows].copy() for k, v in first.items()}  # two throws left

    def moment(rolls_left, held):
        s = {k: v.copy() for k, v in decision.items()}
        s["rolls_left"][:] = rolls_left
        if held:
            s["held"], s["dice"] = s["dice"], np.zeros_like(s["dice"])
        return s

    in_step = solution.answer_in_step(len(rows))
    in_step(decision)  # the turns' stage 1 into the memo, row by row
    for rolls_left in (1, 2):
        wanted = memo_free(solution)(moment(rolls_left - 1, held=False)).value
        np.testing.assert_array_equal(in_step(moment(rolls_left, held=True)).value, wanted)
        np.testing.assert_array_equal(memo_free(solution)(moment(rolls_left, held=True)).value, wanted)
        for j in range(0, len(rows), 7):  # alone, after the turn's first decision (its own memo)
            one = {k: v[j: j + 1] for k, v in decision.items()}
            solution.answer(one)
            held = {k: v[j: j + 1].copy() for k, v in moment(rolls_left, held=True).items()}
            assert solution.answer(held).value[0] == wanted[j]


def test_a_single_situations_answers_stay_the_callers_own():
    """A single situation is answered into the last one's buffers once nothing holds them any more (their
    first writes cost 0.5 µs): answers, or a view of them, that a caller keeps are never written again,
    and threads answering at once each get their own."""
    import sys
    import threading
    import weakref

    solution = ds.solve("yahtzee")
    encoding = solution.encoding
    texts = ["aces=3,full_house=25/11345/2", "aces=3,full_house=25/22346/1", "aces=3,full_house=25/22346/0",
             "aces=3/22346/1", "yahtzee=50/66666/0", "/12345/2"]
    one = [encoding.parse_situations([t]) for t in texts]
    wanted = [[b.copy() for b in solution.answer(s).buffers] for s in one]

    def same(answers, k):
        for a, b in zip(answers.buffers, wanted[k]):
            np.testing.assert_array_equal(a, b)

    kept, values, codes = solution.answer(one[0]), solution.answer(one[1]).values, solution.answer(one[2]).codes
    for k in range(3, len(one)):
        same(solution.answer(one[k]), k)
    same(kept, 0)
    np.testing.assert_array_equal(values, wanted[1][0][:, : kept.width])
    np.testing.assert_array_equal(codes, wanted[2][1][:, : kept.width])
    # dropped, the buffers are the next answer's
    first = solution.answer(one[2])
    buffer = weakref.ref(first.buffers[0])
    del first
    assert solution.answer(one[3]).buffers[0] is buffer()

    failures: list[BaseException] = []

    def worker(seed: int) -> None:
        rng = np.random.default_rng(seed)
        try:
            for _ in range(2000):
                k = int(rng.integers(len(one)))
                same(solution.answer(one[k]), k)
        except BaseException as exc:  # a wrong answer, or the reuse failing outright
            failures.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch between any two steps of the reuse
    try:
        threads = [threading.Thread(target=worker, args=(seed,)) for seed in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert not failures, failures[0]


@pytest.mark.parametrize("spec", ["yahtzee", "target"])
def test_games_answered_in_step_carry_their_turn_stages(spec):
    """Games in step (a vectorised environment's batch, as ``label`` and the environments answer them): every
    answer as worked out afresh (codes exactly, values to 1e-13: batches sum keeps lane by lane), while
    games end and new ones take their rows."""
    from dicesolver.analysis.labels import choose
    from dicesolver.core import registry

    from tinygames import PAIRS_GAME, tiny

    game = ds.load_game("yahtzee") if spec == "yahtzee" else tiny(PAIRS_GAME)  # three throws a turn
    family = registry.family_of(game)
    solution = ds.solve("yahtzee") if spec == "yahtzee" else family.target_solution(game, 36)
    size = 300
    batch = family.batch(game, size, False)
    in_step, fresh = solution.answer_in_step(size), memo_free(solution)
    rng = np.random.default_rng(3)
    obs, _ = batch.reset(11)
    for _ in range(60):  # past the first games' ends
        situations = solution.encoding.as_situations(obs)
        got, wanted = in_step(situations), fresh(situations)
        np.testing.assert_array_equal(got.codes, wanted.codes)
        np.testing.assert_array_equal(got.counts, wanted.counts)
        np.testing.assert_allclose(got.values, wanted.values, rtol=1e-13, atol=1e-13)
        np.testing.assert_allclose(got.value, wanted.value, rtol=1e-13, atol=1e-13)
        live = got.counts > 0
        obs, *_ = batch.step(np.where(live, choose(got, "perturbed", 0.3, rng), np.argmax(obs["action_mask"], axis=1)))
    assert (in_step.keywords["memo"][:, -1] >= 0).mean() > 0.5  # most games' turn stages were carried


def test_a_situations_arrays_are_checked_whichever_path_they_take():
    """Once the checked path has answered, a few situations whose arrays are the kernel's own go to it
    unchecked (the dispatcher checks types, the kernel shapes). Any other arrays still get the same answer
    (other integer types, read-only, strided) or the same refusal (shapes, a missing array, lengths that
    differ, not integers), and the fast path stays open."""
    from dicesolver.core.errors import InputError

    solution = ds.solve("yahtzee")
    situations = solution.encoding.parse_situations(["aces=3,full_house=25/11345/2"])
    wanted = solution.answer(situations)
    assert solution._sealed
    compiled = len(solution._serial.signatures)

    def same(other):
        for a, b in zip(other.buffers, wanted.buffers):
            np.testing.assert_array_equal(a, b)

    same(solution.answer(situations))
    same(solution.answer({k: v.astype(np.int32) for k, v in situations.items()}))
    frozen = {k: v.copy() for k, v in situations.items()}
    for v in frozen.values():
        v.flags.writeable = False
    same(solution.answer(frozen))
    same(solution.answer({k: np.repeat(v, 2, axis=0)[::2] for k, v in situations.items()}))
    refusals = [({"dice": situations["dice"][:, :4]}, "situations of this game are"),
                ({"held": None}, "missing: held"),
                ({"totals": np.zeros((2, 1), dtype=np.int64)}, "holds 2 situations, not 1"),
                ({"dice": np.array([["a"] * 5])}, "not an array of integers")]
    for change, words in refusals:
        bad = {k: v for k, v in ({**situations, **change}).items() if v is not None}
        with pytest.raises(InputError, match=words):
            solution.answer(bad)
    same(solution.answer(situations))
    assert len(solution._serial.signatures) == compiled  # no compilation for any of them
