"""Despirala played for a score: the target table against a brute-force recursion over the dice on the last
turns of a game, the options inside a turn against the table, and the table's own checks."""

import itertools
from collections import Counter
from functools import lru_cache

import numpy as np
import pytest

from dicesolver.core.aims import AT_LEAST, BEAT, AtLeast
from dicesolver.despirala import target
from dicesolver.despirala.rules import COMBINATIONS, GOODS_PER_TURN, missing, six_dice_throws

COLLECT_2, THREE_PAIRS, FOUR_KIND, SIX_KIND = 1, 6, 8, 11


@lru_cache(maxsize=None)
def outcomes(n):
    counts = Counter(tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=n))
    return tuple((t, c / 6 ** n) for t, c in counts.items())


@lru_cache(maxsize=None)
def recursion(score, normal=True, tie=1.0):
    """(turn, pick): the best chance that the final score is at least ``score`` (at most, misere; exactly
    it counting ``tie``) from a turn start (free, goods, points), and after picking a combination
    (after, index, throw, goods, points), by recursion over every die (no shapes, no table)."""
    better = (lambda a, b: a > b) if normal else (lambda a, b: a < b)

    def final(total):
        return tie if total == score else (1.0 if better(total, score) else 0.0)

    @lru_cache(maxsize=None)
    def turn(free, goods, points):
        throws, probs = six_dice_throws()
        total = 0.0
        for throw, p in zip(throws, probs):
            best = turn(free, goods - 1, points) if normal and goods > 0 else 0.0
            for combo in COMBINATIONS:
                if free >> combo.index & 1:
                    best = max(best, pick(free & ~(1 << combo.index), combo.index, throw, goods, points))
            total += p * best
        return total

    def end(free, goods, points):
        return final(points + goods) if free == 0 else turn(free, goods + GOODS_PER_TURN, points)

    @lru_cache(maxsize=None)
    def complete(after, need, extra, pts, goods, points):
        if not need:
            return end(after, goods, points + pts)
        if goods == 0:
            return end(after, 0, points)  # out of goods: no points, every good lost
        return sum(p * complete(after, missing(need, t), extra, pts, goods - 1, points)
                   for t, p in outcomes(len(need) + extra))

    @lru_cache(maxsize=None)
    def collect(after, face, have, goods, points):
        stop = end(after, goods, points + face * have)
        if goods == 0 or have == 6:
            return stop
        go = sum(p * collect(after, face, have + t.count(face), goods - 1, points) for t, p in outcomes(6 - have))
        return max(stop, go)

    def pick(after, index, throw, goods, points):
        combo = COMBINATIONS[index]
        if combo.is_collect:
            face = combo.collect_face()
            return collect(after, face, throw.count(face), goods, points)
        best = 0.0
        for args in combo.arguments():
            want, pts = combo.target(args)
            if index == FOUR_KIND:
                need, extra = (args[0],) * max(0, 4 - throw.count(args[0])), 2
            else:
                need, extra = tuple(sorted(missing(want, throw))), 0
            best = max(best, complete(after, need, extra, pts, goods, points))
        return best

    return turn, pick


def reference(free, goods, points, score, normal=True, tie=1.0):
    return recursion(score, normal, tie)[0](free, goods, points)


TWO = (1 << COLLECT_2) | (1 << SIX_KIND)


@pytest.fixture(scope="module")
def tables():
    return {(mode, tie): target.build(mode, 100, tie=tie, within=TWO)
            for mode in ("normal", "misere") for tie in (AT_LEAST, BEAT)}


@pytest.mark.parametrize("mode", ["normal", "misere"])
@pytest.mark.parametrize("tie", [AT_LEAST, BEAT])
def test_the_last_two_turns_match_a_recursion_over_every_die(tables, mode, tie):
    table = tables[mode, tie]
    normal = mode == "normal"
    cases = [(free, goods, need) for free in (1 << SIX_KIND, 1 << COLLECT_2)
             for goods, need in ((5, 0), (5, 8), (10, 12), (10, 60), (6, 65), (10, 75), (3, 4))]
    cases += [(TWO, 5, 40)]  # two turns: seconds of recursion each
    for free, goods, need in cases:
        want = reference(free, goods, 0, need, normal, tie)
        assert table.start(free, goods, need) == pytest.approx(want, abs=2e-6), (free, goods, need)


def test_options_inside_a_turn_match_the_recursion(tables):
    """Every option after a throw, priced from the table in Python, against the recursion's value."""
    table = tables["normal", AT_LEAST]
    turn, pick = recursion(70)
    for throw in ((2, 2, 3, 6, 6, 6), (1, 2, 3, 4, 5, 6), (2, 2, 2, 2, 5, 6)):
        options = table.turn_options(TWO, 10, throw, 70)
        assert [v for _, v in options] == sorted((v for _, v in options), reverse=True)
        by_combo: dict = {}
        for move, value in options:
            if move.kind == "reroll":
                assert value == pytest.approx(turn(TWO, 9, 0), abs=2e-6)
            else:
                by_combo[move.combination] = max(by_combo.get(move.combination, 0.0), value)
        for index, value in by_combo.items():
            assert value == pytest.approx(pick(TWO & ~(1 << index), index, throw, 10, 0), abs=2e-6), (throw, index)


def test_collect_options_add_up_to_the_kernels_turn(tables):
    """Python's collect chances, the best of them (or Reroll) over every throw, give the kernel's value of
    a turn with only Collect 2 left."""
    table = tables["normal", AT_LEAST]
    free = 1 << COLLECT_2
    throws, probs = six_dice_throws()
    for goods, need in ((5, 6), (8, 10), (10, 12)):
        total = 0.0
        for throw, p in zip(throws, probs):
            best = max(table.collect_chances(0, 2, throw.count(2), goods, need).values())
            total += p * max(best, table.start(free, goods - 1, need))
        assert total == pytest.approx(table.start(free, goods, need), abs=1e-6)


def test_chances_fall_with_the_need_and_rise_with_the_goods(tables):
    table = tables["normal", AT_LEAST]
    offset, rows, _ = target.layout(100, TWO)
    for free in (1 << SIX_KIND, 1 << COLLECT_2, TWO):
        block = table.V[int(offset[free]): int(offset[free]) + (int(rows[free]) + 1) * 101].reshape(-1, 101)
        assert np.all(np.diff(block, axis=1) <= 1e-6)
        assert np.all(np.diff(block, axis=0) >= -1e-6)
        assert np.all(block[:, 0] == 1.0)


def test_simulated_games_reach_the_target_as_often_as_the_table_says(tables):
    """The kernels' target player, many games from a start with two combinations left: the rate of
    reaching the aim within its interval of the table's chance; and it beats the expected-score strategy's
    rate on the same start."""
    from dicesolver.despirala.simulate import play_games, play_target_games
    from dicesolver.despirala.solver import load_or_solve

    table = tables["normal", AT_LEAST]
    aim, n = 70, 40_000
    chance = table.start(TWO, 10, aim)
    scores = play_target_games(table, aim, n, seed=3, start=(TWO, 5, 0))
    rate = float(np.mean(scores >= aim))
    assert abs(rate - chance) < 4 * np.sqrt(chance * (1 - chance) / n)
    expected = play_games(np.asarray(load_or_solve("normal")[0].W), "normal", n, seed=3, start=(TWO, 5, 0))
    assert rate > float(np.mean(expected >= aim))


def test_the_python_player_and_the_kernels_decide_alike(tables):
    """Whole games through the protocol with TargetPlayer: every decision is one of the best options the
    table gives (the kernel's player compares the same sums in the same order)."""
    from dicesolver.despirala.players import TargetPlayer
    from dicesolver.despirala.rules import make_despirala
    from dicesolver.despirala.state import COLLECT, DECIDE, Seat, start_state
    from dicesolver.despirala.solutions import DespiralaTargetChance

    table = tables["normal", AT_LEAST]
    game = make_despirala({})
    player = TargetPlayer(table, 70)
    solved = DespiralaTargetChance(game, table, AtLeast(70), None)
    rng = np.random.default_rng(5)
    for _ in range(20):
        state = start_state(1, game)
        state = type(state)(seats=(Seat(free=TWO, goods=5),), round=13, phase=state.phase)
        before = solved.state_value(state)
        assert before == pytest.approx(table.start(TWO, 5, 70))
        while not state.over:
            if state.phase in (DECIDE, COLLECT):
                options = solved.action_values(state)
                move = player.choose(game, state)
                assert dict(options)[move] == max(v for _, v in options)
                state = state.apply(move)
            else:
                outcomes, probs = zip(*state.chance_outcomes())
                state = state.apply(outcomes[rng.choice(len(outcomes), p=np.array(probs) / sum(probs))])
        assert solved.state_value(state) in (0.0, 1.0)


def test_the_target_player_never_reaches_the_aim_less_often_than_the_expected_score_strategy(tables):
    """From the exact final-score distribution of the expected-score strategy (``future``) on the same start:
    for every need, the table's chance is at least that strategy's, and larger for some."""
    from dicesolver.despirala import future
    from dicesolver.despirala.solver import load_or_solve

    for mode in ("normal", "misere"):
        table = tables[mode, AT_LEAST]
        dist = future.build(load_or_solve(mode)[0], within=TWO).start(TWO, 10)
        theirs = np.cumsum(dist[::-1])[::-1] if mode == "normal" else np.cumsum(dist)  # P(X >= n), P(X <= n)
        ours = np.array([table.start(TWO, 10, n) for n in range(101)])
        theirs = np.array([theirs[n] if n < len(theirs) else float(mode != "normal") for n in range(101)])
        assert np.all(ours >= theirs - 1e-6)
        assert np.max(ours - theirs) > 0.01
    assert tables["normal", AT_LEAST].start(TWO, 10, 0) == 1.0  # every game scores 0 or more


ENDGAME = ("Collect 1,Collect 3,Collect 4,Collect 5,Collect 6,Three pairs,Two triples,Four of a kind,Kamerun,"
           "Straight,General,Despirala;10;222566;points 380")


def test_advice_for_a_target_from_the_command_line(capsys, tables):
    """An endgame's advice solves only the endgame (the two combinations left), in moments."""
    import json

    from test_cli import run

    code, out, _ = run(capsys, "advise", "despirala", ENDGAME, "--target", "450", "--json")
    data = json.loads(out)
    assert code == 0 and data["unit"] == "p_target" and data["details"]["need"] == 70
    values = [o["value"] for o in data["options"]]
    want = tables["normal", AT_LEAST].turn_options(TWO, 10, (2, 2, 2, 5, 6, 6), 70)
    assert values == pytest.approx([v for _, v in want], abs=1e-7) and values == sorted(values, reverse=True)
    assert data["options"][0]["option"] == "Collect 2" and data["value"] == values[0]
    code, out, _ = run(capsys, "advise", "despirala", ENDGAME, "--beat", "449", "--top", "2")
    assert code == 0 and "beating 449 (a tie counts half)" in out and "Collect 2" in out
    code, out, _ = run(capsys, "advise", "despirala(misere)", ENDGAME.replace("points 380", "points 80"),
                       "--target", "100", "--json")
    assert code == 0 and json.loads(out)["notes"] == ["chances of finishing with at most 100 points, playing for "
                                                      "it from here"]
    for argv, message in [(["advise", "despirala", ENDGAME, "--target", "0"], "positive"),
                          (["advise", "despirala", ENDGAME, "--beat", "-1"], "0 points or more"),
                          (["advise", "despirala", ENDGAME, "--target", "99999"], "between 1 and"),
                          (["simulate", "despirala", "-p", "target:abc"], "target:T"),
                          (["simulate", "despirala", "-p", "target:450", "--samples", "5"], "--samples"),
                          (["advise", "pig", "0,0,0", "--target", "10"], "Despirala")]:
        code, _, err = run(capsys, *argv)
        assert code == 2 and message in err, (argv, err)


@pytest.mark.essay
def test_a_whole_game_played_for_a_target():
    """The whole game's table (minutes): from the start, the best chance of every target up to 450 against
    the expected-score strategy's own (its exact distribution), and the target player's simulated games."""
    from dicesolver.core import registry
    from dicesolver.despirala import future
    from dicesolver.despirala.simulate import play_target_games
    from dicesolver.despirala.solver import load_or_solve

    game = registry.load("despirala")
    solved = registry.family_of(game).target_solution(game, 450)
    best = solved.curve()
    dist = future.load_or_build(load_or_solve("normal")[0]).start((1 << 14) - 1, GOODS_PER_TURN)
    theirs = np.cumsum(dist[::-1])[::-1][: len(best)]
    assert best[0] == 1.0 and np.all(np.diff(best) <= 1e-6)
    assert np.all(best >= theirs - 1e-6) and np.max(best - theirs) > 0.02
    n = 30_000
    rate = float(np.mean(play_target_games(solved.table, 450, n, seed=1) >= 450))
    assert abs(rate - solved.root_value) < 4 * np.sqrt(solved.root_value * (1 - solved.root_value) / n)


def test_a_target_player_in_the_match_kernel_reaches_its_aim_as_often_as_the_table_says(tables):
    """Matches play target:T in the kernel (against the expected-score strategy here, from an endgame both
    players are in): its rate of reaching T, over both seats, within the interval of the table's chance."""
    from dicesolver.despirala.match import kernel_match
    from dicesolver.despirala.players import ExpectedScorePlayer, TargetPlayer
    from dicesolver.despirala.rules import make_despirala
    from dicesolver.despirala.solver import load_or_solve
    from dicesolver.despirala.state import THROW, DespiralaState, Seat

    table = tables["normal", AT_LEAST]
    game = make_despirala({})
    start = DespiralaState(seats=(Seat(free=TWO, goods=10), Seat(free=TWO, goods=5)), round=13, phase=THROW)
    pairs = 10_000
    finals = kernel_match(game, TargetPlayer(table, 70), ExpectedScorePlayer("optimal", load_or_solve("normal")[0]),
                          pairs, seed=4, start=start)
    mine = np.concatenate([finals[0::2, 0], finals[1::2, 1]])  # game 2i: the target player moves first
    theirs = np.concatenate([finals[0::2, 1], finals[1::2, 0]])
    chance = table.start(TWO, 10, 70)
    rate = float(np.mean(mine >= 70))
    assert abs(rate - chance) < 4 * np.sqrt(chance * (1 - chance) / len(mine))
    assert rate > float(np.mean(theirs >= 70))
