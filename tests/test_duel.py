"""The two-player equity solver (issue 4), on sub-games and tiny games."""

from functools import lru_cache

import numpy as np
import pytest
from reference import counted_throws
from tinygames import ESSAY_TOY, PAIRS_GAME, tiny

from dicesolver import load_game
from dicesolver.core.errors import InputError
from dicesolver.scorecard.duel.table import DuelModel, DuelPosition, solve_subgame

GENERALA = load_game("generala")
FULL = (1 << 10) - 1
BOX = {c.name: i for i, c in enumerate(GENERALA.categories)}


def open_only(*names):
    return FULL & ~sum(1 << BOX[n] for n in names)


def test_essay_toy_table_entry_by_entry():
    toy = tiny(ESSAY_TOY)
    # O has only Ones left (Twos used), X has Ones and Twos and trails by 3
    solution = solve_subgame(toy, (0, 0b10))
    pos = DuelPosition(0, 0b10, -3)
    after_second = {(1, 1): 0.056, (1, 2): -0.380, (2, 2): 0.628, (1, 3): -0.380, (2, 3): -0.628, (3, 3): -0.726}
    for roll, expected in after_second.items():
        assert round(max(solution.category_equities(pos, roll).values()), 3) == expected, roll
    keeps = {}
    for roll in toy.dice.rolls:
        keeps.update(solution.keep_equities(pos, roll, 1))
    before_second = {(1,): -0.235, (2,): -0.127, (3,): -0.578, (): -0.313}
    for keep, expected in before_second.items():
        assert round(keeps[keep], 3) == expected, keep
    after_first = {(1, 1): 0.056, (1, 2): -0.127, (2, 2): 0.628, (1, 3): -0.235, (2, 3): -0.127, (3, 3): -0.313}
    for roll, expected in after_first.items():
        assert round(max(solution.keep_equities(pos, roll, 1).values()), 3) == expected, roll
    # The essay prints -0.289 for the position, but the average of its own last row is
    # (0.056 + 2(-0.127) + 0.628 + 2(-0.235) + 2(-0.127) - 0.313) / 9 = -0.0674: we follow the table.
    assert round(solution.equity(pos), 3) == -0.067


def test_endgame_a_and_b():
    a = solve_subgame(GENERALA, (open_only("generala"), FULL))
    assert round(a.equity(DuelPosition(open_only("generala"), FULL, 69 - 87)), 3) == -0.908
    b = solve_subgame(GENERALA, (open_only("generala"), open_only("poker")))
    assert round(b.equity(DuelPosition(open_only("generala"), open_only("poker"), 69 - 47)), 3) == 0.445


def best_box(solution, pos, roll):
    eq = solution.category_equities(pos, roll)
    return GENERALA.categories[max(eq, key=eq.get)].name


@pytest.mark.parametrize(
    "x_open,o_open,o_score,roll,choices",
    [
        # x-x-x-4-4, FOAK and Fours open vs O (only Ones open) at 88: waive FOAK at 80, score Fours at 81
        (("poker", "fours"), ("ones",), 88, (1, 2, 3, 4, 4), {80: "poker", 81: "fours"}),
        # x-x-x-3-3, FOAK and Threes open vs O (Generala and Full open) at 70: waive FOAK only at 92, 93
        (("poker", "threes"), ("generala", "full"), 70, (1, 2, 3, 3, 4),
         {90: "threes", 91: "threes", 92: "poker", 93: "poker", 94: "threes", 95: "threes"}),
        # x-x-x-6-6, Generala and Sixes open vs O (Twos and Ones open) at 85: waive Generala at 80, Sixes at 81
        (("generala", "sixes"), ("ones", "twos"), 85, (1, 2, 3, 6, 6), {80: "generala", 81: "sixes"}),
    ],
)
def test_waiving_thresholds(x_open, o_open, o_score, roll, choices):
    x, o = open_only(*x_open), open_only(*o_open)
    solution = solve_subgame(GENERALA, (x, o))
    for x_score, box in choices.items():
        assert best_box(solution, DuelPosition(x, o, x_score - o_score), roll) == box, x_score


def slow_duel(game):
    """Equity by plain recursion: every ordered throw counted, every index subset as a keep (tests only)."""
    n, faces, full = game.n_dice, game.faces, (1 << game.n_categories) - 1
    throws = {m: counted_throws(faces, m) for m in range(n + 1)}

    @lru_cache(maxsize=None)
    def equity(a, b, d):
        return sum(count * after(a, b, d, t, game.rolls - 1) for t, count in throws[n]) / faces**n

    @lru_cache(maxsize=None)
    def after(a, b, d, dice, left):
        if left == 0:
            counts = tuple(dice.count(f) for f in range(1, faces + 1))
            best = -2.0
            for c, cat in enumerate(game.categories):
                if a >> c & 1:
                    continue
                d2 = d + cat.score(counts)
                na = a | (1 << c)
                v = float(np.sign(d2)) if (na == full and b == full) else -equity(b, na, -d2)
                best = max(best, v)
            return best
        best = -2.0
        for kept in {tuple(dice[i] for i in range(n) if mask >> i & 1) for mask in range(1 << n)}:  # dice sorted
            rest = throws[n - len(kept)]
            best = max(best, sum(count * after(a, b, d, tuple(sorted(kept + t)), left - 1) for t, count in rest)
                       / faces ** (n - len(kept)))
        return best

    return equity


@pytest.mark.parametrize("definition", [ESSAY_TOY, PAIRS_GAME])
def test_duel_kernel_equals_slow_recursion(definition):
    game = tiny(definition)
    model = DuelModel(game)
    values = model.solve(dtype=np.float64)
    slow = slow_duel(game)
    rng = np.random.default_rng(0)
    picks = rng.choice(len(model.pa), size=min(40, len(model.pa)), replace=False)
    for i in picks:
        a, b = int(model.pa[i]), int(model.pb[i])
        for d in range(-int(model.maxsum[b]), int(model.maxsum[a]) + 1, 3):
            assert values[model.index(DuelPosition(a, b, d))] == pytest.approx(slow(a, b, d), abs=1e-9)


def test_bounds_monotonicity_and_float32_error():
    game = tiny(PAIRS_GAME)
    model = DuelModel(game)
    exact = model.solve(dtype=np.float64)
    stored = model.solve()  # float32, as the full table is stored
    assert np.all(exact >= -1) and np.all(exact <= 1)
    assert np.max(np.abs(exact - stored)) < 1e-6
    for a, b in zip(model.pa, model.pb):
        lo, hi = -int(model.maxsum[b]), int(model.maxsum[a])
        vec = [exact[model.index(DuelPosition(int(a), int(b), d))] for d in range(lo, hi + 1)]
        assert np.all(np.diff(vec) >= -1e-12)  # a bigger lead never hurts


def test_sub_game_agrees_with_full_table():
    game = tiny(PAIRS_GAME)
    full = DuelModel(game)
    values = full.solve(dtype=np.float64)
    sub = solve_subgame(game, (0b00011, 0b00101))
    for d in range(-5, 6):
        pos = DuelPosition(0b00011, 0b00101, d)
        assert sub.equity(pos) == pytest.approx(values[full.index(pos)], abs=1e-12)


def test_generala_position_count_as_in_the_essay():
    model = DuelModel(GENERALA)
    assert model.size == 86_767_645  # contiguous difference ranges, as stored
    assert model.attainable_positions() == 85_647_207  # the essay's count


def test_games_with_bonuses_are_refused():
    with pytest.raises(InputError, match="upper bonus"):
        DuelModel(load_game("yahtzee"))
    with pytest.raises(InputError, match="impossible"):
        solve_subgame(GENERALA, (open_only("generala"), FULL)).equity(DuelPosition(open_only("generala"), FULL, 999))


def card(**boxes):
    return ",".join(f"{k}={v}" for k, v in boxes.items())


X_69 = dict(ones=3, twos=6, threes=9, fours=12, fives=15, sixes=24, escalera=0, full=0, poker=0)
O_87 = dict(ones=3, twos=6, threes=9, fours=12, fives=15, sixes=12, escalera=0, full=30, poker=0, generala=0)


def duel_advise(game, text):
    from dicesolver import advise

    return advise(game, text)


def test_two_player_advice_on_endgames(fresh_cache):
    # position (A): X 69 with only Generala open, O finished at 87 (the mover's card first)
    x, o = card(**X_69), card(**O_87)
    advice = duel_advise(GENERALA, f"{x};{o}/-/3")
    assert round(advice.value, 3) == -0.908 and advice.details["lead"] == -18
    # with four 6s after the first throw, keeping them is best
    advice = duel_advise(GENERALA, f"{x};{o}/16666/2")
    assert advice.best.option == "6666" and advice.options[-1].cost > 0


@pytest.mark.parametrize(
    "text,message",
    [
        ("ones=3;ones=2,twos=4,threes=3/11111/0", "one fewer"),
        ("ones=3;;;;;;/11111/0", "1 to 6 players"),
        ("ones=9;twos=2/11111/0", "not a possible score"),
        (";/1111/0", "5 dice"),
    ],
)
def test_bad_two_player_positions(text, message):
    with pytest.raises(InputError, match=message):
        duel_advise(GENERALA, text)


@pytest.mark.parametrize("definition", [PAIRS_GAME, ESSAY_TOY])
def test_the_answer_engine_is_the_solve_kernel(definition):
    """Every keep's and box's equity from the batch answer engine is the solve kernel's widget's."""
    from dicesolver.scorecard.duel.table import DuelTable
    from dicesolver.scorecard.duel.kernels.solve import duel_widget
    from dicesolver.scorecard.turn.kernels.widget import expect_keeps

    game = tiny(definition)
    model = DuelModel(game)
    solution = DuelTable(model, model.solve())
    dice = game.dice
    rng = np.random.default_rng(1)
    for i in rng.choice(len(model.pa), size=min(60, len(model.pa)), replace=False):
        a, b = int(model.pa[i]), int(model.pb[i])
        lanes = int(model.maxsum[a] + model.maxsum[b] + 1)
        for rerolls in range(game.rolls):
            want = np.empty((dice.n_keeps, lanes))
            duel_widget(a, b, want, solution.values, model.layout, dice.graph, max(rerolls - 1, 0))
            if rerolls > 0:
                expect_keeps(want, dice.keep_add, dice.roll_offset, lanes)
            for d in range(-int(model.maxsum[b]), int(model.maxsum[a]) + 1):
                lane = d + int(model.maxsum[b])
                for roll in dice.rolls:
                    pos = DuelPosition(a, b, d)
                    if rerolls > 0:
                        for keep, got in solution.keep_equities(pos, roll, rerolls).items():
                            assert got == pytest.approx(want[dice.keep_index(keep), lane], abs=1e-12)
                    else:
                        best = max(solution.category_equities(pos, roll).values())
                        assert best == pytest.approx(want[dice.roll_offset + dice.roll_index(roll), lane], abs=1e-12)
