"""Despirala played to win: the exact final-score distributions of the expected-score strategy (checked
against an enumeration of the game's own state machine), the competitive player's values (checked
against sums written out by hand), and matches played in numba (checked against the exact
distribution and against the state machine's engine)."""

from functools import lru_cache

import numpy as np
import pytest

from dicesolver.analysis.match import summarize
from dicesolver.despirala import future
from dicesolver.despirala.match import despirala_match, play_bots
from dicesolver.despirala.players import CompetitivePlayer, ExpectedScorePlayer
from dicesolver.despirala.rules import COMBINATIONS, DespiralaGame, Move, parse_move
from dicesolver.despirala.solver import completion_odds, load_or_solve, pick_shape, turn_options
from dicesolver.despirala.state import DECIDE, DespiralaState, Event, Seat, apply_event

NORMAL, MISERE = DespiralaGame("normal"), DespiralaGame("misere")
bit = {c.name: 1 << c.index for c in COMBINATIONS}
# four combinations: every kind of move (collecting, a fixed target, a chosen one, Four of a kind's extra dice)
FOUR = bit["Collect 2"] | bit["Straight"] | bit["Three pairs"] | bit["Four of a kind"]


@pytest.fixture(scope="module")
def solutions():
    return {mode: load_or_solve(mode)[0] for mode in ("normal", "misere")}


@pytest.fixture(scope="module")
def tables(solutions):
    """The distribution tables' parts for the sets of combinations inside FOUR, both modes."""
    return {mode: future.build(sol, within=FOUR) for mode, sol in solutions.items()}


def enumerate_final(solution, free: int, goods: int) -> dict[int, float]:
    """P(final score) of one player from a turn start, by walking every chance outcome of the game's
    state machine and letting the expected-score player decide: slow and obviously right."""
    game = NORMAL if solution.mode == "normal" else MISERE
    player = ExpectedScorePlayer("optimal", solution)

    @lru_cache(maxsize=None)
    def dist(state: DespiralaState) -> tuple[tuple[int, float], ...]:
        if state.over:
            return ((state.seats[0].final, 1.0),)
        if state.is_chance():
            out: dict[int, float] = {}
            for outcome, p in state.chance_outcomes():
                for score, q in dist(state.apply(outcome)):
                    out[score] = out.get(score, 0.0) + p * q
            return tuple(out.items())
        return dist(state.apply(player.choose(game, state)))

    turn = 15 - free.bit_count()  # the game ends after its 14th round
    return dict(dist(DespiralaState((Seat(free=free, goods=goods),), round=turn, game=game)))


@pytest.mark.parametrize("mode,free,goods", [("normal", bit["Collect 2"] | bit["Straight"], 5),
                                             ("normal", bit["Three pairs"] | bit["Four of a kind"], 3),
                                             ("misere", bit["Collect 2"] | bit["Four of a kind"], 5)])
def test_distributions_are_the_enumerated_game(solutions, tables, mode, free, goods):
    want = enumerate_final(solutions[mode], free, goods)
    got = tables[mode].start(free, goods)
    assert got.sum() == pytest.approx(1.0, abs=1e-6)
    assert set(want) <= set(range(len(got)))
    for score in range(len(got)):
        assert got[score] == pytest.approx(want.get(score, 0.0), abs=2e-7)


def test_every_distribution_has_the_expected_score_tables_mean(solutions, tables):
    for mode, table in tables.items():
        W = solutions[mode].W
        for free in range(1, FOUR + 1):
            if free & ~FOUR:
                continue
            for h in range(future.most_goods(free) + 1):
                p = table.start(free, h)
                assert p.sum() == pytest.approx(1.0, abs=2e-6)
                assert p @ np.arange(len(p)) == pytest.approx(W[free, h], rel=2e-6)
        assert table.after_turn(0, 7)[7] == 1.0


def test_playing_to_win_values_are_the_chances_written_out(solutions, tables):
    """The last turn, the opponent done with 200: picking Straight from 1,2,3,4,4,5 with 3 goods wins when the
    six comes within the goods and 50 points are enough, each case summed by hand."""
    sol = solutions["normal"]
    player = CompetitivePlayer(sol, tables["normal"])
    me, opponent = Seat(free=bit["Straight"], goods=3, points=150), Seat(free=0, goods=4, points=196)
    state = DespiralaState((me, opponent), phase=DECIDE, dice=(1, 2, 3, 4, 4, 5), game=NORMAL.with_players(2))
    q, qcum = completion_odds()
    s = pick_shape(bit["Straight"].bit_length() - 1, (), state.dice)
    # 150 + 50 + goods left must beat 200: any goods left wins, none ties
    win = sum(q[s, t] for t in range(3)) + 0.5 * q[s, 3]
    rows = {move.text(): beaten for move, beaten, _ in player.option_values(NORMAL, state)}
    assert rows["Straight"] == pytest.approx(win, abs=1e-12)
    after_reroll = enumerate_final(sol, bit["Straight"], 2)  # the expected-score strategy with 2 goods
    assert rows["Reroll"] == pytest.approx(sum(p * ((x > 50) + 0.5 * (x == 50)) for x, p in after_reroll.items()),
                                           abs=1e-6)
    assert player.choose(NORMAL, state) == Move("pick", bit["Straight"].bit_length() - 1)


def test_with_the_identity_curve_the_values_are_expected_scores(solutions, tables):
    """beat[y] = y turns every option's value into its expected final score: the expected-score table's."""
    sol = solutions["normal"]
    player = CompetitivePlayer(sol, tables["normal"])
    state = DespiralaState((Seat(free=FOUR, goods=12, points=40),), phase=DECIDE, dice=(2, 2, 3, 3, 4, 6),
                           game=NORMAL)
    _, values, r = player._decide(state, np.arange(1024, dtype=np.float64))
    expected = dict(turn_options(sol, FOUR, 12, state.dice))
    assert values[0] == pytest.approx(40 + expected[Move("reroll")], rel=1e-6)
    assert values[1 + 1] == pytest.approx(40 + expected[parse_move("Collect 2")], rel=1e-6)
    assert np.isnan(values[1]) and np.isnan(values[1 + 3])  # Collect 1 and 4 are used


def test_alone_it_plays_for_points_and_its_rows_are_ranked(solutions, tables):
    sol = solutions["normal"]
    player = CompetitivePlayer(sol, tables["normal"])
    alone = DespiralaState((Seat(free=FOUR, goods=5),), phase=DECIDE, dice=(1, 2, 2, 5, 6, 6), game=NORMAL)
    assert player.choose(NORMAL, alone) == turn_options(sol, FOUR, 5, alone.dice)[0][0]
    duel = DespiralaState((Seat(free=FOUR, goods=5), Seat(free=FOUR, goods=0, points=30)), phase=DECIDE,
                          dice=(1, 2, 2, 5, 6, 6), game=NORMAL.with_players(2))
    rows = player.option_values(NORMAL, duel)
    assert rows[0][0] == player.choose(NORMAL, duel)
    assert all(0.0 <= beaten <= 1.0 for _, beaten, _ in rows)
    assert [b for _, b, _ in rows[1:]] == sorted((b for _, b, _ in rows[1:]), reverse=True)
    collecting = apply_event(NORMAL, duel, Event("move", 0, move=parse_move("Collect 2")))
    stop_go = {m.kind: b for m, b, _ in player.option_values(NORMAL, collecting)}
    assert set(stop_go) == {"stop", "continue"} and player.choose(NORMAL, collecting).kind in stop_go


def test_kernel_matches_score_as_the_exact_distribution(solutions):
    """Expected-score play in the match kernel: the mean within its interval of the table's value, and the
    same dice for a seat in both orders."""
    sol = solutions["normal"]
    a, b = ExpectedScorePlayer("optimal", sol), ExpectedScorePlayer("optimal", sol)
    m = despirala_match(NORMAL, a, b, 4000, seed=5)
    scores = m.totals.ravel()
    assert abs(scores.mean() - sol.root_value) < 4 * scores.std() / np.sqrt(len(scores))
    assert (m.totals[0::2] == m.totals[1::2][:, ::-1]).all()  # equal players, the same dice: swapped scores
    again = despirala_match(NORMAL, a, b, 4000, seed=5)
    assert (again.totals == m.totals).all()
    first, second = summarize(m)
    for seat in range(2):  # places 1 and 2 shared out, seat by seat
        assert first.rank_by_seat[seat] + second.rank_by_seat[1 - seat] == pytest.approx(3.0)
        assert first.share_by_seat[seat] + second.share_by_seat[1 - seat] == pytest.approx(1.0)


def test_kernel_and_state_machine_engines_agree(solutions, tables):
    """From a late position, games of the competitive player against the expected-score one, played by the
    kernel and by the state machine with Python bots, have the same distribution of final scores."""
    sol = solutions["normal"]
    comp, ev = CompetitivePlayer(sol, tables["normal"]), ExpectedScorePlayer("optimal", sol)
    start = DespiralaState((Seat(free=FOUR, goods=5, points=300), Seat(free=FOUR, goods=0, points=310)),
                           round=11, game=NORMAL.with_players(2))
    rngs = np.random.default_rng(11)
    state_machine = np.array([[s.final for s in play_bots(NORMAL, [comp, ev], [rngs, rngs], start).seats]
                              for _ in range(300)])
    from dicesolver.despirala.match import kernel_match

    kernel = kernel_match(NORMAL, comp, ev, 3000, seed=3, start=start)[0::2]
    for seat in range(2):
        assert abs(state_machine[:, seat].mean() - kernel[:, seat].mean()) < 4 * np.hypot(
            state_machine[:, seat].std() / np.sqrt(300), kernel[:, seat].std() / np.sqrt(3000))
    wins = lambda t: np.mean(np.sign(t[:, 0] - t[:, 1]) / 2 + 0.5)  # noqa: E731
    assert abs(wins(state_machine) - wins(kernel)) < 4 * 0.5 / np.sqrt(300)


def test_competitive_beats_expected_score_from_a_late_position(solutions, tables):
    """Behind by 10 with four combinations left, playing to win wins more often than playing for points,
    with the same dice (the exact full-game figures are in BENCHMARKS.md)."""
    sol = solutions["normal"]
    comp, ev = CompetitivePlayer(sol, tables["normal"]), ExpectedScorePlayer("optimal", sol)
    from dicesolver.despirala.match import kernel_match

    start = DespiralaState((Seat(free=FOUR, goods=5, points=300), Seat(free=FOUR, goods=0, points=310)),
                           round=11, game=NORMAL.with_players(2))
    as_comp = kernel_match(NORMAL, comp, ev, 20000, seed=1, start=start)[0::2]
    as_ev = kernel_match(NORMAL, ev, ev, 20000, seed=1, start=start)[0::2]
    gain = np.sign(as_comp[:, 0] - as_comp[:, 1]) / 2 - np.sign(as_ev[:, 0] - as_ev[:, 1]) / 2  # per deal
    assert gain.mean() > 3 * gain.std() / np.sqrt(len(gain))


@pytest.mark.essay
def test_seed_figures_competitive_against_expected_score(solutions):
    """ORACLES (the Despirala engine): the competitive strategy wins about 54% moving first and about 55% moving second
    against the expected-score strategy (ties half). 10,000 games per seat: 95% intervals of about +-1%."""
    sol = solutions["normal"]
    competitive = CompetitivePlayer(sol, future.load_or_build(sol))
    m = despirala_match(NORMAL, competitive, ExpectedScorePlayer("optimal", sol), 20000, seed=11)
    first, second = summarize(m)[0].share_by_seat
    assert round(100 * first) in (53, 54, 55) and round(100 * second) in (54, 55, 56)
