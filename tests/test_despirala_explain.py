"""Why a Despirala option is worth what it is: the split by combination against the last turns of a game
played out to the end through the protocol (on the breakdown table of the few combinations those turns
hold), and the whole table through ``ds.explain`` and the command line (``essay``: 30 s to build)."""

import json

import numpy as np
import pytest

import dicesolver as ds
from dicesolver.core.why import explanation
from dicesolver.despirala.breakdown import (GOODS, SO_FAR, aspect_names, aspect_titles, strategy_move, sweep,
                                            turn_split)
from dicesolver.despirala.rules import COMBINATIONS, TURNS, DespiralaGame
from dicesolver.despirala.state import COLLECT, DECIDE, THROW, DespiralaState, Seat
from test_cli import run

COLLECT_2, FOUR_KIND, KAMERUN, STRAIGHT, SIX_KIND, GENERAL = 1, 8, 9, 10, 11, 12
NAMES = aspect_names()


def reference(judge, state):
    """(parts, mean square) of seat 0's points still to come plus its final goods, the game played out to its
    end through the protocol with the strategy's moves (each one of the judge's best: tested below). A turn's
    points go to the combination that leaves the free set: nothing here reads the breakdown table or the
    split's bookkeeping."""
    seen = {}

    def future(s):
        if s.is_terminal():
            parts = np.zeros(len(COMBINATIONS) + 1)
            parts[-1] = s.seats[0].goods
            return parts, float(s.seats[0].goods) ** 2
        if s not in seen:
            if s.is_chance():
                branches = [(p, step) for step, p in s.chance_outcomes()]
            else:
                branches = [(1.0, strategy_move(judge.table, s))]
            parts, square = np.zeros(len(COMBINATIONS) + 1), 0.0
            for p, step in branches:
                nxt = s.apply(step)
                gain = nxt.seats[0].points - s.seats[0].points
                sub, sub_square = future(nxt)
                sub = sub.copy()
                scored = s.seats[0].free & ~nxt.seats[0].free
                if scored:
                    sub[scored.bit_length() - 1] += gain
                parts += p * sub
                square += p * (sub_square + 2 * gain * float(sub.sum() - gain) + gain ** 2)
            seen[s] = parts, square
        return seen[s]

    return future


def position(free, goods, dice=None, points=0, mode="normal"):
    return DespiralaState((Seat(free, goods, points),), round=TURNS + 1 - free.bit_count(),
                          phase=THROW if dice is None else DECIDE, dice=dice or (), game=DespiralaGame(mode=mode))


WITHIN = (1 << COLLECT_2) | (1 << FOUR_KIND) | (1 << KAMERUN) | (1 << STRAIGHT) | (1 << GENERAL)
CASES = [  # the last two turns, at a decision and at a throw, in both modes (combinations of few arguments:
    # a throw's every pick is asked of the judge in the reference)
    ("despirala", position((1 << COLLECT_2) | (1 << STRAIGHT), 3, (2, 2, 3, 4, 5, 6), points=31)),
    ("despirala", position((1 << KAMERUN) | (1 << FOUR_KIND), 2, (4, 4, 4, 5, 6, 6))),
    ("despirala", position((1 << COLLECT_2) | (1 << GENERAL), 3)),
    ("despirala(misere)", position((1 << COLLECT_2) | (1 << KAMERUN), 3, (2, 2, 3, 3, 5, 6), mode="misere")),
]


@pytest.fixture(scope="module")
def tables():
    return {game: sweep(ds.solve(game).table, within=WITHIN) for game in ("despirala", "despirala(misere)")}


@pytest.mark.parametrize("game, state", CASES)
def test_every_option_is_split_as_the_game_played_to_its_end(tables, game, state):
    judge = ds.solve(game)
    state = judge.state(str(state))  # as a user's text reads
    why = explanation(judge, state, aspect_names(), aspect_titles(), *turn_split(judge.table, tables[game], state))
    future = reference(judge, state)
    options = {str(a): state.apply(a) for a in state.legal_actions()}
    assert len(why.options) == len(options)
    for option in why.options:
        parts, square = future(options[option.action])
        mean = float(parts.sum())
        want = dict(zip(NAMES, [*parts, state.seat.points]))
        assert option.breakdown == pytest.approx(want, abs=1e-9), option.action
        assert sum(option.breakdown.values()) == pytest.approx(option.value, abs=1e-9)
        assert option.sd == pytest.approx(np.sqrt(max(square - mean * mean, 0.0)), abs=1e-6)
    parts, square = future(state)
    assert why.value == pytest.approx(state.seat.points + parts.sum(), abs=1e-9)
    assert sum(why.breakdown.values()) == pytest.approx(why.value, abs=1e-9)
    assert why.sd == pytest.approx(np.sqrt(max(square - float(parts.sum()) ** 2, 0.0)), abs=1e-6)
    if state.phase == THROW:
        assert why.options == [] and why.best is None


def test_the_table_repeats_its_last_row_of_goods_as_the_values_do(tables):
    judge = ds.solve("despirala")
    table = tables["despirala"]
    for free in (1 << GENERAL, WITHIN):
        assert np.allclose(table.parts[free].sum(axis=1), judge.table.W[free], rtol=0, atol=1e-9)


@pytest.mark.parametrize("game", ["despirala", "despirala(misere)"])
def test_the_strategys_move_is_one_of_the_judges_best(game):
    """After every throw of a first turn, and at every moment of collecting 2s: exact ties (a Collect's Stop
    and Continue, often) are broken as the strategy's kernels break them, never against the values."""
    judge = ds.solve(game)
    start = judge.state("none;5;-")
    moments = [start.apply(throw) for throw, _ in start.chance_outcomes()]
    for goods in range(8):
        for have in range(7):
            moments.append(DespiralaState((Seat((1 << COLLECT_2) | (1 << SIX_KIND), goods, 12),), round=TURNS - 1,
                                          phase=COLLECT, dice=(2,) * have + (5,) * (6 - have), combination=COLLECT_2,
                                          have=have, game=judge.game))
    for state in moments:
        values = {str(a): v for a, v in judge.action_values(state)}
        move = strategy_move(judge.table, state)
        assert values[str(move)] * judge.sign >= max(v * judge.sign for v in values.values()) - 1e-9, state


@pytest.mark.essay
def test_the_start_of_a_game_is_split_over_every_combination():
    judge = ds.solve("despirala")
    why = ds.explain("despirala", "none;5;-")
    assert sum(why.breakdown.values()) == pytest.approx(judge.root_value, abs=1e-9)
    assert round(why.value, 3) == 443.616  # ORACLES: the exact model's expected score
    assert abs(why.sd - 61.373) < 0.25  # ORACLES: the stdev of 1M simulated games (its own error about 0.05)
    assert why.breakdown[SO_FAR] == 0 and why.breakdown[GOODS] > 0
    assert all(why.breakdown[n] > 0 for n in NAMES[:len(COMBINATIONS)])
    first = ds.explain("despirala", "none;5;113456")
    assert [o.action for o in first.options] == [o.action for o in ds.advise("despirala", "none;5;113456").options]
    assert first.summary.startswith(f"{first.best} over {first.versus}")


@pytest.mark.essay
def test_advise_explain_on_the_command_line(capsys):
    code, out, _ = run(capsys, "advise", "despirala", "none;5;113456", "--explain", "--json")
    assert code == 0
    result = json.loads(out)
    assert set(result["options"][0]["breakdown"]) == set(NAMES) and result["options"][0]["sd"] > 0
    code, out, _ = run(capsys, "advise", "despirala", "none;5;113456", "--explain")
    assert code == 0 and "Despirala" in out and "over" in out


@pytest.mark.essay
def test_a_chance_of_a_target_is_explained_beside_the_points_alone(capsys):
    """Despirala's chance of reaching a target, each option ranked by it, beside its expected final score split
    by combination (the points table's own split)."""
    from dicesolver.core.registry import family_of
    from dicesolver.despirala.notation import used_text

    position = f"{used_text(1 << 0 | 1 << 5 | 1 << 9)};7;113456;points 380"  # Collect 1, 6 and Kamerun free
    state = ds.parse_state("despirala", position)
    target = family_of(state.game).target_solution(state.game, 450, at=state)  # its endgame's table: moments
    why = target.explain(state)
    alone = {o.action: o for o in ds.explain("despirala", state).options}
    assert why.split_unit == "points" and why.unit == "p_target"
    assert [o.action for o in why.options] == [o.action for o in target.advise(state).options]
    for option in why.options:
        assert option.points == alone[option.action].value and option.breakdown == alone[option.action].breakdown
    code, out, err = run(capsys, "advise", "despirala", position, "--target", "450", "--explain")
    assert code == 0 and "points alone" in out and "as if alone it scores" in out, err
