"""Despirala played for any goal on the final score (``core.aims.FinalScoreGoal``): the table of needs with a goal's
row for a finished game, against a slow reference that maximises the expected utility throw by throw on late
games; a target's row keeps its tables; the public advice for a blind field against a league's scores from a late
position (only what follows it is solved); misere refuses goals other than targets."""

import math
from functools import lru_cache

import numpy as np
import pytest

import dicesolver as ds
from dicesolver.core import registry
from dicesolver.core.aims import Field
from dicesolver.core.errors import InputError
from dicesolver.despirala.rules import COMBINATIONS, six_dice_throws
from dicesolver.despirala.solver import H, binomial_table, completion_odds, throw_moves
from dicesolver.despirala.target import load_or_build, target_row

GAME = ds.load_game("despirala")
FAMILY = registry.family_of(GAME)
BIT = {c.name: 1 << c.index for c in COMBINATIONS}
LATE = (BIT["Collect 5"] | BIT["Collect 6"], BIT["Collect 2"] | BIT["Straight"])
# a league whose scores a late player mostly trails: every part of the field's utility matters
LEAGUE = Field(3).against(np.bincount([310, 330, 335, 340, 352, 360, 371, 380, 380, 395]), "a league")


@lru_cache(maxsize=None)
def throws():
    return list(zip(*six_dice_throws()))


def reference(utility):
    """The best expected utility of the final score at a turn start with ``points`` so far, by the definition:
    the mean over the throws of the best option, each option's own expectation spelled out."""
    q, qcum = completion_odds()
    binom = binomial_table()

    def end(free, goods, points):
        return utility(points + goods) if free == 0 else turn(free, min(goods + 5, H - 1), points)

    @lru_cache(maxsize=None)
    def collect(after, face, have, goods, points):
        stop = end(after, goods, points + face * have)
        if goods == 0 or have == 6:
            return stop
        return max(stop, sum(binom[6 - have, j] * collect(after, face, have + j, goods - 1, points)
                             for j in range(7 - have)))

    @lru_cache(maxsize=None)
    def turn(free, goods, points):
        total = 0.0
        for throw, p in throws():
            best = -math.inf
            for move, after, shape_or_have, points_or_face in throw_moves(free, goods, throw, True):
                if move.kind == "reroll":
                    value = turn(free, goods - 1, points)
                elif COMBINATIONS[move.combination].is_collect:
                    value = collect(after, points_or_face, shape_or_have, goods, points)
                else:
                    s = shape_or_have
                    value = sum(q[s, t] * end(after, goods - t, points + points_or_face) for t in range(goods + 1))
                    value += (1 - qcum[s, goods]) * end(after, 0, points)
                best = max(best, value)
            total += p * best
        return total

    return turn


@pytest.mark.parametrize("free", LATE)
def test_a_field_s_table_is_the_best_expected_utility(free):
    aim = LEAGUE.aim()
    row = LEAGUE.full_card_row()
    table = load_or_build("normal", aim, within=free, row=row, goal=LEAGUE.text())[0]
    turn = reference(lambda x: float(LEAGUE.utility(np.array([x]))[0]))
    for goods in (0, 3):
        for points in (330, 380):
            want = turn(free, goods, points)
            assert 0 < want < 1
            assert table.start(free, goods, aim - points) == pytest.approx(want, abs=2e-7), (goods, points)


def test_a_target_s_row_keeps_its_table():
    """A target's row given as a goal's row builds the same bits as the target's own table (another key)."""
    plain = load_or_build("normal", 60, within=LATE[0])[0]
    as_goal = load_or_build("normal", 60, within=LATE[0], row=target_row("normal", 60), goal="target:60")[0]
    assert plain.directory != as_goal.directory and np.array_equal(plain.V, as_goal.V)


def test_advice_for_a_field_from_a_late_position(tmp_path, capsys):
    """advise --field N --field-scores FILE solves what follows the position alone; its values are the goal
    solution's, its best option the reference's best; the same through goal_solution(at=...)."""
    import json

    from dicesolver.cli.app import main

    used = [c.name for c in COMBINATIONS if c.index not in (4, 5)]  # Collect 5 and Collect 6 left
    position = f"{','.join(used)};6;556612;points 330"
    scores = tmp_path / "league.txt"
    scores.write_text("310 330 335 340 352 360 371 380 380 395\n")
    with pytest.raises(SystemExit) as info:
        main(["advise", "despirala", position, "--field", "3", "--field-scores", str(scores), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert info.value.code == 0 and out["unit"] == "p_target"
    state = FAMILY.solve(GAME).state(position)
    solved = FAMILY.goal_solution(GAME, LEAGUE, at=state)
    assert solved.table.within == LATE[0] and "blind field of 3" in solved.headline()
    advice = solved.advise(state)
    assert [o["option"] for o in out["options"]] == [o.option for o in advice.options]
    assert out["value"] == pytest.approx(advice.value, abs=1e-12)
    collect = {o.option: o.value for o in advice.options}
    turn = reference(lambda x: float(LEAGUE.utility(np.array([x]))[0]))
    # Collect 6 with both sixes showing, stopping at once: a turn of Collect 5 with 6 + 5 goods follows
    stop_now = turn(BIT["Collect 5"], 11, 342)
    assert collect["Collect 6"] >= stop_now - 1e-6


def test_misere_plays_for_targets_alone():
    misere = ds.load_game("despirala(play=misere)")
    with pytest.raises(InputError, match="misere"):
        FAMILY.goal_solution(misere, Field(3))
    with pytest.raises(InputError, match="misere"):
        ds.solve("despirala(play=misere)", goal="percentile:50")
