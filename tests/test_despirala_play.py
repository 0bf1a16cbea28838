"""Despirala play: the turn state machine, records, the review (luck and mistakes), the bots (expected
score, Monte Carlo), matches, and the console (play, replay, analyze, resume after a kill)."""

import json
import os
import signal
import subprocess
import sys

import numpy as np
import pexpect
import pytest
from records_v1 import write_v1

from dicesolver.analysis.match import summarize
from dicesolver.cli.app import main
from dicesolver.core.errors import InputError
from dicesolver.core.jsonl import read_lines
from dicesolver.core.registry import read_record
from dicesolver.despirala.family import FAMILY, playthrough_of
from dicesolver.despirala.match import despirala_match, play_bots
from dicesolver.despirala.players import ExpectedScorePlayer, make_despirala_player
from dicesolver.despirala.records import DespiralaRecord, despirala_record_from_lines
from dicesolver.despirala.rules import DespiralaGame, Move, parse_move
from dicesolver.despirala.solver import load_or_solve
from dicesolver.despirala.state import (
    COLLECT,
    COMPLETE,
    DECIDE,
    HITS,
    THROW,
    Event,
    draw_event,
    legal_moves,
    parse_manual_completion,
    parse_manual_hits,
    start_state,
)
from dicesolver.despirala.state import apply_event as apply

NORMAL, MISERE = DespiralaGame("normal"), DespiralaGame("misere")


def read_any_record(path, warnings=None):
    """A Despirala record file, checked against the rules."""
    lines = read_lines(path, 5 * 2**20, warnings)
    game = DespiralaGame("misere" if "misere" in lines[0][1]["game"] else "normal")
    return despirala_record_from_lines(path, lines, game)


def despirala_review(solution, record, player):
    return FAMILY.solve(record.game).review(playthrough_of(record), player)


@pytest.fixture(scope="module")
def solutions():
    return {mode: load_or_solve(mode)[0] for mode in ("normal", "misere")}


class RandomPlayer:
    name = "random"

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def choose(self, game, state):
        moves = legal_moves(game, state)
        return moves[self.rng.integers(len(moves))]


def record_of(game, bots, seed):
    """A record of a whole game between bots (every event kept)."""
    record = DespiralaRecord(game, [b.name for b in bots], [b.name for b in bots], seed)
    state = start_state(len(bots))
    rng = np.random.default_rng(seed)
    while not state.over:
        if state.phase in (DECIDE, COLLECT):
            event = Event("move", state.mover, move=bots[state.mover].choose(game, state))
        else:
            event = draw_event(state, rng)
        state = apply(game, state, event)
        record.events.append(event)
    return record, state


# -- the state machine --------------------------------------------------------------------------------

def test_random_games_follow_the_rules():
    for seed in range(12):
        game = NORMAL if seed % 2 else MISERE
        players = 1 + seed % 3
        record, final = record_of(game, [RandomPlayer(seed * 10 + i) for i in range(players)], seed)
        assert final.over and all(s.free == 0 for s in final.seats)
        assert sum(1 for e in record.events if e.type == "throw") >= 14 * players
        for seat in final.seats:
            assert seat.goods >= 0 and seat.final == seat.points + seat.goods
        if game.mode == "misere":
            assert not any(e.move and e.move.kind == "reroll" for e in record.events)


def test_scoring_completion_collect_and_goods():
    game = NORMAL
    s = apply(game, start_state(1), Event("throw", 0, dice=(1, 2, 3, 4, 5, 6)))
    s = apply(game, s, Event("move", 0, move=parse_move("Straight")))
    assert s.phase == THROW and s.seats[0].points == 50 and s.seats[0].goods == 10 and s.round == 2
    s = apply(game, s, Event("throw", 0, dice=(1, 1, 4, 4, 5, 6)))
    s = apply(game, s, Event("move", 0, move=parse_move("Three pairs 1 4 6")))
    assert s.phase == COMPLETE and s.target_missing() == (6,)
    s = apply(game, s, Event("completion", 0, rethrows=3, completed=True, rolls=((2,), (5,), (6,))))
    assert s.seats[0].points == 50 + 22 and s.seats[0].goods == 7 + 5
    s = apply(game, s, Event("throw", 0, dice=(3, 3, 4, 4, 5, 6)))
    s = apply(game, s, Event("move", 0, move=parse_move("Four of a kind 3")))
    assert s.target_missing() == (3, 3) and s.extra_dice() == 2
    s = apply(game, s, Event("completion", 0, rethrows=12, completed=False))
    assert s.seats[0].points == 72 and s.seats[0].goods == 5  # every good lost, then this turn's 5
    s = apply(game, s, Event("throw", 0, dice=(2, 2, 2, 3, 4, 5)))
    s = apply(game, s, Event("move", 0, move=parse_move("Collect 2")))
    assert s.phase == COLLECT and s.have == 3
    s = apply(game, s, Event("move", 0, move=parse_move("Continue collecting")))
    assert s.phase == HITS and s.seats[0].goods == 4
    s = apply(game, s, Event("hits", 0, hits=2, dice=(1, 2, 2)))
    s = apply(game, s, Event("move", 0, move=parse_move("stop")))
    assert s.seats[0].points == 72 + 10 and s.seats[0].goods == 9


@pytest.mark.parametrize("setup, event, message", [
    ([], Event("move", 0, move=Move("reroll")), "expected a throw"),
    ([], Event("throw", 1, dice=(1, 2, 3, 4, 5, 6)), "player 0's turn"),
    ([("throw", (1, 2, 3, 4, 5, 6))], Event("move", 0, move=Move("stop")), "for collecting"),
    ([("throw", (1, 2, 3, 4, 5, 6)), ("move", "Straight"), ("throw", (1, 2, 3, 4, 5, 6))],
     Event("move", 0, move=parse_move("Straight")), "already used"),
    ([("throw", (1, 1, 2, 3, 4, 5)), ("move", "Straight")], Event("completion", 0, rethrows=6), "1 to 5 rethrows"),
    ([("throw", (1, 1, 2, 3, 4, 5)), ("move", "Straight")], Event("completion", 0, rethrows=2, completed=False),
     "every good"),
    ([("throw", (1, 1, 2, 3, 4, 5)), ("move", "Straight")],
     Event("completion", 0, rethrows=1, completed=True, rolls=((5,),)), "do not match"),
    ([("throw", (1, 1, 2, 3, 4, 5)), ("move", "Straight")],
     Event("completion", 0, rethrows=1, completed=True, rolls=((5, 6),)), "should be 1 dice"),
    ([("throw", (1, 1, 2, 3, 4, 5)), ("move", "Collect 1"), ("move", "Continue")], Event("hits", 0, hits=5), "between 0 and 4"),
    ([("throw", (1, 1, 2, 3, 4, 5)), ("move", "Collect 1"), ("move", "Continue")],
     Event("hits", 0, hits=1, dice=(1, 1, 2, 3)), "do not show"),
])
def test_impossible_events_are_refused(setup, event, message):
    s = start_state(1)
    for kind, value in setup:
        s = apply(NORMAL, s, Event("throw", 0, dice=value) if kind == "throw" else Event("move", 0, move=parse_move(value)))
    with pytest.raises(InputError, match=message):
        apply(NORMAL, s, event)


def test_misere_forbids_the_reroll_and_goods_run_out():
    s = apply(MISERE, start_state(1), Event("throw", 0, dice=(1, 1, 2, 3, 4, 5)))
    with pytest.raises(InputError, match="misere"):
        apply(MISERE, s, Event("move", 0, move=Move("reroll")))
    s = apply(NORMAL, start_state(1), Event("throw", 0, dice=(1, 1, 2, 3, 4, 5)))
    for _ in range(5):
        s = apply(NORMAL, s, Event("move", 0, move=Move("reroll")))
        s = apply(NORMAL, s, Event("throw", 0, dice=(1, 1, 2, 3, 4, 5)))
    with pytest.raises(InputError, match="no goods"):
        apply(NORMAL, s, Event("move", 0, move=Move("reroll")))
    assert Move("reroll") not in legal_moves(NORMAL, s)


def test_manual_entries():
    s = apply(NORMAL, start_state(1), Event("throw", 0, dice=(1, 1, 2, 3, 4, 5)))
    s = apply(NORMAL, s, Event("move", 0, move=parse_move("Collect 1")))
    s = apply(NORMAL, s, Event("move", 0, move=Move("continue")))
    assert parse_manual_hits("2", 0, s).hits == 2
    assert parse_manual_hits("1 1 3 6", 0, s).hits == 2
    with pytest.raises(InputError, match="how many"):
        parse_manual_hits("lots", 0, s)
    assert parse_manual_completion("failed", 0, 5).completed is False
    assert parse_manual_completion("3", 0, 5).rethrows == 3
    with pytest.raises(InputError, match="rethrows"):
        parse_manual_completion("three", 0, 5)


# -- records --------------------------------------------------------------------------------------------

def test_record_round_trip_and_damage(tmp_path, solutions):
    record, _ = record_of(NORMAL, [RandomPlayer(1), RandomPlayer(2)], 5)
    path = tmp_path / "game.jsonl"
    write_v1(path, record)
    back = read_any_record(path)
    assert back.events == record.events and back.is_over()
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:40]) + "\n" + lines[40][:9])  # a kill mid-write
    warnings = []
    half = read_any_record(path, warnings)
    assert len(half.events) == 39 and "half-written" in warnings[0]
    bad = json.loads(lines[5])
    bad["player"] = 1 - bad["player"]
    path.write_text("\n".join(lines[:5] + [json.dumps(bad)] + lines[6:]) + "\n")
    with pytest.raises(InputError, match="event 5"):
        read_any_record(path)
    path.write_text(lines[0] + "\n" + json.dumps({"type": "throw", "player": 0, "dice": "12"}) + "\n")
    with pytest.raises(InputError, match="line 2"):
        read_any_record(path)


# -- review ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["normal", "misere"])
def test_review_telescopes_and_the_optimal_bot_makes_no_mistakes(mode, solutions):
    game = DespiralaGame(mode)
    sol = solutions[mode]
    sign = 1 if mode == "normal" else -1
    optimal = ExpectedScorePlayer("optimal", sol)
    for seed in range(3):
        record, final = record_of(game, [optimal, RandomPlayer(seed)], seed)
        for player in (0, 1):
            r = despirala_review(sol, record, player)
            s = r.summary
            assert s.complete and s.result == final.seats[player].final
            assert s.baseline == pytest.approx(sol.root_value, abs=1e-9)
            assert s.others == pytest.approx(0, abs=1e-9)  # the others' turns never change a player's score
            assert s.baseline + sign * (s.luck - s.loss) == pytest.approx(s.result, abs=1e-6)
            assert all(d.loss >= 0 for d in r.decisions)
        assert despirala_review(sol, record, 0).summary.loss == 0
        random_review = despirala_review(sol, record, 1)
        assert random_review.summary.loss > 10 and any(d.label == "massive blunder" for d in random_review.mine())


def test_luck_of_each_chance_event_averages_zero(solutions):
    """Over every outcome of a throw, a completion and a collect's hits, the expected final score's change is 0."""
    sol = solutions["normal"]
    from dicesolver.despirala.rules import missing, six_dice_throws
    from dicesolver.despirala.solver import binomial_table, completion_odds, shape_of

    from dicesolver import solve

    judge = solve("despirala")  # the expected-score table's answers
    assert judge.table.W is sol.W or np.array_equal(judge.table.W, sol.W)

    def expected_final(_, state, seat):
        return judge.value(state, seat)

    s0 = start_state(1)
    before = expected_final(sol, s0, 0)
    throws, probs = six_dice_throws()
    mean = sum(p * expected_final(sol, apply(NORMAL, s0, Event("throw", 0, dice=t)), 0) for t, p in zip(throws, probs))
    assert mean == pytest.approx(before, abs=1e-9)
    s = apply(NORMAL, s0, Event("throw", 0, dice=(1, 1, 2, 3, 4, 5)))
    s = apply(NORMAL, s, Event("move", 0, move=parse_move("Straight")))
    q, qcum = completion_odds()
    shape = shape_of(missing((1, 2, 3, 4, 5, 6), s.dice))
    outcomes = [(q[shape, t], Event("completion", 0, rethrows=t)) for t in range(1, 6)]
    outcomes.append((1 - qcum[shape, 5], Event("completion", 0, rethrows=5, completed=False)))
    mean = sum(p * expected_final(sol, apply(NORMAL, s, e), 0) for p, e in outcomes)
    assert mean == pytest.approx(expected_final(sol, s, 0), abs=1e-9)
    s = apply(NORMAL, s0, Event("throw", 0, dice=(1, 1, 2, 3, 4, 5)))
    s = apply(NORMAL, s, Event("move", 0, move=parse_move("Collect 1")))
    s = apply(NORMAL, s, Event("move", 0, move=Move("continue")))
    b = binomial_table()[4]
    mean = sum(b[j] * expected_final(sol, apply(NORMAL, s, Event("hits", 0, hits=j)), 0) for j in range(5))
    assert mean == pytest.approx(expected_final(sol, s, 0), abs=1e-9)


# -- bots and matches -----------------------------------------------------------------------------------------

def test_match_is_reproducible_and_reports_intervals(solutions):
    sol = solutions["normal"]
    a, b = ExpectedScorePlayer("optimal", sol), RandomPlayer(3)
    m = despirala_match(NORMAL, a, b, 4, seed=2)
    pa, pb = summarize(m)
    assert len(m.totals) == 4 and pa.mean_score > pb.mean_score and 0 <= pa.share <= 1
    assert pa.share_by_seat[0] - pa.share_ci95_by_seat[0] <= pa.share_by_seat[0] <= 1
    assert (despirala_match(NORMAL, a, b, 4, seed=2).totals[:, 0] == m.totals[:, 0]).all()  # the same dice
    with pytest.raises(InputError, match="2 to"):
        despirala_match(NORMAL, a, b, 1)
    final = play_bots(NORMAL, [a, b], [np.random.default_rng(1), np.random.default_rng(2)])
    assert final.over


def test_monte_carlo_bot_and_unknown_names(solutions):
    mc = make_despirala_player("mc-5", NORMAL, solutions["normal"])
    assert mc.name == "mc-5"
    with pytest.raises(InputError, match="unknown Despirala strategy"):
        make_despirala_player("greedy", NORMAL, solutions["normal"])
    with pytest.raises(InputError, match="1 to 1000"):
        make_despirala_player("mc-0", NORMAL, solutions["normal"])


# -- the command line -------------------------------------------------------------------------------------------

def run(capsys, *argv):
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    captured = capsys.readouterr()
    return exit_info.value.code or 0, captured.out, captured.err


# Lines that finish any game: each round some pick is legal, collecting always ends with Stop.
PICKS = ["Collect 1", "Collect 2", "Collect 3", "Collect 4", "Collect 5", "Collect 6", "Three pairs 1 2 3",
         "Two triples 1 2", "Four of a kind 1", "Kamerun", "Straight", "Six of a kind 1", "General", "Despirala"]
SCRIPT = "".join(f"{line}\n" for _ in range(14) for line in PICKS + ["Stop"])


def cli(*args, stdin=""):
    env = dict(os.environ, COLUMNS="160")
    return subprocess.run([sys.executable, "-m", "dicesolver", *args], input=stdin, text=True,
                          capture_output=True, env=env, timeout=300)


def spawn(*args):
    env = dict(os.environ, COLUMNS="160")
    return pexpect.spawn(sys.executable, ["-m", "dicesolver", "play", *args], env=env, encoding="utf-8",
                         timeout=120, dimensions=(60, 160))


PROMPT = r"goods \d+\): "


def test_console_game_killed_resumed_replayed_and_analyzed(tmp_path, capsys):
    path = tmp_path / "despirala.jsonl"
    child = spawn("despirala", "--vs", "optimal", "--seed", "3", "--first", "you", "--record", str(path))
    child.expect(PROMPT)
    child.sendline("Collect 9")
    child.expect("Collect takes one face")
    child.expect(PROMPT)
    child.sendline("List")
    child.expect("legal moves: Reroll, Collect 1")
    child.expect(PROMPT)
    child.sendline("hint")
    child.expect("expected final score")
    child.expect(PROMPT)
    child.sendline("Reroll")
    child.expect("you reroll")
    child.expect(PROMPT)
    child.sendline("Kamerun")
    child.expect(r"round 1\S* · optimal")
    child.expect(r"round 2\S* · you")
    child.expect(PROMPT)
    child.kill(signal.SIGKILL)  # killed mid-game: nothing may be lost
    child.wait()
    before = read_record(path)  # as play writes it: one step a line
    assert not before.is_over() and before.final.round == 2
    done = cli("play", "despirala", "--resume", "--record", str(path), stdin=SCRIPT)
    assert done.returncode == 0, done.stderr
    assert "resuming" in done.stdout and "final scores" in done.stdout and "baseline 443.62" in done.stdout
    after = read_record(path)
    assert after.is_over() and after.steps[: len(before.steps)] == before.steps
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0 and "round 14" in out and "final scores: you" in out
    code, out, _ = run(capsys, "analyze", str(path), "--json")
    review = json.loads(out)
    s = review["summary"]
    assert s["complete"] and s["baseline"] + s["luck"] - s["loss"] == pytest.approx(s["result"], abs=1e-6)
    assert review["decisions"] and review["luck"]
    png = tmp_path / "review.png"
    code, out, _ = run(capsys, "analyze", str(path), "--player", "1", "--plot", str(png))
    assert code == 0 and "your loss 0.000" in out and png.stat().st_size > 10_000


def test_manual_dice_reprompt_and_solitaire_game(tmp_path):
    path = tmp_path / "manual.jsonl"
    child = spawn("despirala(misere)", "--manual-dice", "--seed", "1", "--record", str(path))
    child.expect("six dice you threw: ")
    child.sendline("1234567")
    child.expect("a die shows 1 to 6")
    child.expect("six dice you threw: ")
    child.sendline("12345")
    child.expect("type 6 dice")
    child.expect("six dice you threw: ")
    child.sendline("112345")
    child.expect(PROMPT)
    child.sendline("Reroll")
    child.expect("misere play does not allow")
    child.expect(PROMPT)
    child.sendline("Straight")
    child.expect("or 'failed': ")
    child.sendline("9")
    child.expect("1 to 5 rethrows")
    child.expect("or 'failed': ")
    child.sendline("failed")
    child.expect("six dice you threw: ")
    child.sendline("111111")
    child.expect(PROMPT)
    child.sendline("Collect 2")
    child.expect(PROMPT)
    child.sendline("Continue")
    child.expect("rethrown dice show 2")
    child.sendline("2")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("saved in")
    child.expect(pexpect.EOF)
    record = read_record(path)
    assert record.players == ["you"] and record.details["manual_dice"]
    state = record.final
    assert state.phase == COLLECT and state.have == 2 and state.seats[0].goods == 4 and state.seats[0].points == 0


@pytest.mark.parametrize("argv, message", [
    (["play", "despirala", "--vs", "greedy"], "unknown Despirala strategy"),
    (["match", "despirala", "optimal"], "between two strategies"),
    (["replay", "/nonexistent/game.jsonl"], "no game record"),
])
def test_bad_input_exits_2(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err


def test_match_command(capsys):
    code, out, _ = run(capsys, "match", "despirala", "optimal", "mc-5", "-n", "4", "--seed", "1", "--json")
    result = json.loads(out)
    assert code == 0 and result["games"] == 4 and [p["player"] for p in result["players"]] == ["optimal", "mc-5"]
