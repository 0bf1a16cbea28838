"""The terminal game driven end to end through a pseudo-terminal (pexpect)."""

import json
import os
import signal
import sys

import pexpect
import pytest

from dicesolver import load_game
from dicesolver.core.registry import read_record
from dicesolver.scorecard.game.state import Keep, Roll, Score
from dicesolver.scorecard.solitaire.table import load_or_solve

PROMPTS = [r"keep\? ", r"score in which box\? ", r"Enter to throw.*: ", r"dice you rolled: ", r"dice you threw.*: ",
           r"Game over", pexpect.EOF]


def step_kinds(path) -> list[str]:
    """The kind of each recorded step, in order."""
    kinds = {Roll: "roll", Keep: "keep", Score: "score"}
    return [kinds[type(step)] for step in read_record(path).steps]


def movers(path) -> list[int]:
    """The record's index of the player on turn at each step line."""
    return [json.loads(line)["player"] for line in path.read_text().splitlines()[1:]]


def spawn(*args, env_extra=None):
    env = dict(os.environ, COLUMNS="120", **(env_extra or {}))
    return pexpect.spawn(sys.executable, ["-m", "dicesolver", "play", *args], env=env, encoding="utf-8",
                         timeout=60, dimensions=(60, 120))


@pytest.fixture(scope="module", autouse=True)
def solved():
    load_or_solve(load_game("yacht"))


def open_boxes(path):
    game = load_game("yacht")
    played = read_record(path)
    pos = played.final.cards[played.seat(0)]
    return [c.name for c, v in zip(game.categories, pos.boxes) if v is None]


def drive(child, path, stop_after_scores=None, typos=True):
    """Answer prompts: stand on every roll, score the first open box; try typos first."""
    scores = 0
    typo_done = set()
    while True:
        i = child.expect(PROMPTS)
        if i == 0:
            if typos and "keep" not in typo_done:
                for bad, message in [("9", "not a face"), ("xyz", "not a die"), ("666666", "cannot keep")]:
                    child.sendline(bad)
                    child.expect(message)
                    child.expect(PROMPTS[0])
                typo_done.add("keep")
            child.sendline("all")
        elif i == 1:
            if typos and "box" not in typo_done:
                child.sendline("sevens")
                child.expect("not an open box")
                child.expect(PROMPTS[1])
                typo_done.add("box")
            child.sendline(open_boxes(path)[0])
            scores += 1
            if stop_after_scores and scores >= stop_after_scores:
                child.expect(PROMPTS[2])
                return scores
        elif i == 2:
            if typos and "enter" not in typo_done:
                child.sendline("banana")
                child.expect("press Enter to throw")
                child.expect(PROMPTS[2])
                typo_done.add("enter")
            child.sendline("")
        elif i in (5, 6):
            return scores


def test_play_kill_and_resume_loses_nothing(tmp_path):
    path = tmp_path / "game.jsonl"
    child = spawn("yacht", "--seed", "4", "--record", str(path))
    assert drive(child, path, stop_after_scores=5) == 5
    before = path.read_text()
    child.kill(signal.SIGKILL)
    child.wait()
    assert step_kinds(path).count("score") == 5
    assert path.read_text() == before  # nothing half-written

    child = spawn("yacht", "--resume", "--record", str(path))
    child.expect("resuming")
    drive(child, path, typos=False)
    child.expect(pexpect.EOF)
    text = child.before
    assert "baseline" in text and "final score" in text
    assert read_record(path).is_over() and step_kinds(path).count("score") == 12
    # the resumed game used the seeded dice: the first five turns are unchanged
    assert path.read_text().startswith(before)


def test_keeping_every_die_with_manual_dice_asks_for_no_throw(tmp_path):
    """A keep of all five with throws left: the next throw has one outcome, so the game goes on at once
    (it used to ask for "the 0 dice you threw" and refuse every answer)."""
    path = tmp_path / "all.jsonl"
    child = spawn("yacht", "--manual-dice", "--record", str(path))
    child.expect(PROMPTS[3])
    child.sendline("6 6 6 1 2")
    child.expect(PROMPTS[0])
    child.sendline("12666")
    assert child.expect(PROMPTS) == 0  # the next keep, no dice asked for
    child.sendline("quit")
    child.expect(pexpect.EOF)
    steps = read_record(path).steps
    assert step_kinds(path) == ["roll", "keep", "roll"] and tuple(sorted(steps[-1].dice)) == (1, 2, 6, 6, 6)


def test_coach_mode_with_manual_dice(tmp_path):
    path = tmp_path / "coach.jsonl"
    child = spawn("yacht", "--manual-dice", "--record", str(path))
    child.expect(PROMPTS[3])
    child.sendline("1234")
    child.expect("type 5 dice")
    child.expect(PROMPTS[3])
    child.sendline("7 1 1 1 1")
    child.expect("not a face")
    child.expect(PROMPTS[3])
    child.sendline("6 6 6 1 2")
    child.expect(PROMPTS[0])
    child.sendline("hint")
    child.expect("best options")
    child.expect(PROMPTS[0])
    child.sendline("666")
    child.expect(PROMPTS[4])
    child.sendline("66")
    child.expect(PROMPTS[0])
    child.sendline("undo")
    child.expect("undone")
    child.expect(PROMPTS[4])  # the re-throw is asked again
    child.sendline("6 5")
    child.expect(PROMPTS[0])
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "--resume" in child.before
    steps = read_record(path).steps
    assert step_kinds(path) == ["roll", "keep", "roll"]
    assert tuple(sorted(steps[-1].dice)) == (5, 6, 6, 6, 6)


def test_resume_without_a_game_is_an_error(tmp_path):
    child = spawn("yacht", "--resume", env_extra={"XDG_DATA_HOME": str(tmp_path)})
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and "no unfinished" in child.before


def test_resume_finds_latest_unfinished_game(tmp_path):
    env = {"XDG_DATA_HOME": str(tmp_path)}
    child = spawn("yacht", "--seed", "9", env_extra=env)
    child.expect(PROMPTS[0])
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child = spawn("yacht", "--resume", env_extra=env)
    child.expect("resuming")
    child.expect(PROMPTS[0])
    child.sendline("quit")
    child.expect(pexpect.EOF)


TINY_RULES = """name = "tiny"
dice = 3
faces = 3
rolls = 2
[[categories]]
name = "pair"
kind = "pair"
[[categories]]
name = "threes"
kind = "upper"
face = 3
[[categories]]
name = "trips"
kind = "n_of_a_kind"
n = 3
points = 10
"""


def test_play_against_malina_to_the_end(tmp_path):
    rules = tmp_path / "tiny.toml"
    rules.write_text(TINY_RULES)
    path = tmp_path / "duel.jsonl"
    child = spawn(str(rules), "--vs", "malina", "--first", "bot", "--seed", "2", "--record", str(path))
    child.expect("malina moves first")
    boxes = ["pair", "threes", "trips"]
    while True:
        i = child.expect([r"keep\? ", r"score in which box\? ", r"Enter to throw.*: ", r"Game over", pexpect.EOF])
        if i == 0:
            child.sendline("hint")
            child.expect("equity")
            child.expect(r"keep\? ")
            child.sendline("all")
        elif i == 1:
            played = read_record(path)
            pos = played.final.cards[played.seat(0)]
            child.sendline(next(b for b, v in zip(boxes, pos.boxes) if v is None))
        elif i == 2:
            child.sendline("")
        else:
            break
    child.expect(pexpect.EOF)  # (a pattern ending in .* would take whatever happened to be read by then)
    text = child.before
    assert "you win" in text or "you lose" in text or "a draw" in text
    assert "your loss" in text and "malina's loss" in text  # the review is in equity
    record = read_record(path)
    assert record.players == ["you", "malina"] and record.is_over()
    assert set(movers(path)) == {0, 1}
    assert movers(path)[0] == 1 and record.first == 1  # Malina moved first


def test_play_against_three_bots_to_the_end_with_the_mindful_review(tmp_path):
    rules = tmp_path / "tiny.toml"
    rules.write_text(TINY_RULES)
    path = tmp_path / "four.jsonl"
    child = spawn(str(rules), "--vs", "mindful", "--vs", "joe", "--vs", "greedy", "--first", "bot", "--seed", "4",
                  "--record", str(path))
    child.expect("mindful moves first")
    boxes = ["pair", "threes", "trips"]
    hinted = False
    while True:
        i = child.expect([r"keep\? ", r"score in which box\? ", r"Enter to throw.*: ", r"Game over", pexpect.EOF])
        if i == 0:
            if not hinted:
                child.sendline("hint")
                child.expect("expected result")
                child.expect(r"keep\? ")
                hinted = True
            child.sendline("all")
        elif i == 1:
            played = read_record(path)
            pos = played.final.cards[played.seat(0)]
            child.sendline(next(b for b, v in zip(boxes, pos.boxes) if v is None))
        elif i == 2:
            child.sendline("")
        else:
            break
    child.expect(pexpect.EOF)
    assert "the others' turns" in child.before and "mindful model" in child.before
    record = read_record(path)
    assert record.players == ["you", "mindful", "joe", "greedy"] and record.is_over()
    assert set(movers(path)) == {0, 1, 2, 3} and movers(path)[0] == 1


def test_after_standing_the_hint_ranks_the_boxes_and_its_suggestion_is_accepted(tmp_path):
    """At a keep prompt, 'all' stands; 'hint' then ranks only the boxes (not keeps, which would loop), and
    typing the hint's first line as shown ('score ...') scores there."""
    import re

    path = tmp_path / "stand.jsonl"
    child = spawn("yacht", "--seed", "3", "--record", str(path))
    child.expect(PROMPTS[0])
    child.sendline("all")
    child.expect(r"score in which box\? ")
    child.sendline("hint")
    child.expect(r"score in which box\? ")
    shown = child.before
    assert "best options" in shown and "keep" not in shown.split("best options", 1)[1]
    plain = re.sub(r"\x1b\[[0-9;]*m", "", shown)
    best = re.search(r"1 . (score [a-z_ ]+?)\s+.", plain).group(1)
    child.sendline(best)
    child.expect(PROMPTS[2])
    child.sendline("quit")
    child.expect(pexpect.EOF)
    steps = read_record(path).steps
    assert step_kinds(path) == ["roll", "score"]
    assert best.endswith(load_game("yacht").categories[steps[-1].category].name)


def test_malina_at_a_table_of_three_is_explained():
    """Malina is a two-person strategy: at a bigger table she plays against the most dangerous opponent, and
    the game says so when it starts."""
    from dicesolver.core import registry

    game = registry.load("generala")
    family = registry.family_of(game)
    assert family.bot_notes(game, ["you", "malina"]) == []
    [note] = family.bot_notes(game.with_players(3), ["you", "Malina", "joe"])
    assert "most dangerous opponent" in note


def test_the_tutor_warns_before_a_costly_move_and_the_review_says_what_was_heeded(tmp_path):
    """``play --tutor``: a move costing more than the threshold is warned about (the better move and why, in
    one sentence) before it is made. Taken back and made again, it is played anyway (not heeded); taken back
    for a better one, heeded. A move under the threshold passes unwarned. The review lists both."""
    import io

    from rich.console import Console

    import dicesolver as ds
    from dicesolver.play.session import Session
    from dicesolver.terminal import console as terminal

    game = load_game("yacht-dice")
    solution = ds.solve(game)
    session = Session.new(game, [], seed=3, path=str(tmp_path / "tutored.jsonl"))
    script: list[str] = []  # what the player types at the warnings' prompts, in turn
    warned_at = []

    def ask(prompt: str) -> str:
        state = session.state
        if prompt.startswith("play it anyway?"):
            warned_at.append(str(state))
            return script.pop(0)
        if state.is_chance():
            return ""
        options = solution.advise(state).options
        # the worst move until the second warning: at the first one, taken back and then made anyway (a move
        # warned about once is not warned about again there); at the second, taken back for the best
        return options[-1].action if len(warned_at) < 2 else options[0].action

    script[:] = ["no", "no"]
    out = io.StringIO()
    review = terminal.play(session, solution, Console(file=out, width=200), ask, tutor=1.0)
    text = out.getvalue()
    assert "tutor: a move costing more than" in text and " beats " in text and "taken back" in text
    # the guide shows this game's first warning
    from test_readme import DOCS

    shown = " ".join(next(line for line in text.splitlines() if line.startswith("tutor: score")).split())
    assert shown in " ".join(next(d for d in DOCS if d.name == "GUIDE.md").read_text().split())
    assert [w.heeded for w in review.tutor] == [False, True], review.tutor
    first, second = review.tutor
    assert first.played == first.move and first.cost > 1.0 and first.reason.startswith(first.best)
    assert second.played == second.best and second.move != second.best
    assert len(review.tutor) == 2  # the best moves after it cost nothing: no warning
    # the record keeps them beside the moves they settled: read back, reviewed and analysed, they are there
    import json

    from dicesolver.core.registry import read_record

    lines = [json.loads(line) for line in (tmp_path / "tutored.jsonl").read_text().splitlines()]
    assert [line["tutor"]["heeded"] for line in lines if "tutor" in line] == [False, True]
    assert solution.review(read_record(tmp_path / "tutored.jsonl")).tutor == review.tutor
    from dicesolver.core.errors import InputError

    broken = tmp_path / "broken.jsonl"
    lines[[i for i, line in enumerate(lines) if "tutor" in line][0]]["tutor"]["played"] = "score chance"
    broken.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(InputError, match="the tutor's warning is of another move"):
        read_record(broken)


def test_tutor_takes_a_threshold_or_none(capsys):
    from dicesolver.cli.app import optional_values

    assert optional_values(["play", "yacht", "--tutor"]) == ["play", "yacht", "--tutor", "auto"]
    assert optional_values(["play", "--tutor", "yacht"]) == ["play", "--tutor", "auto", "yacht"]
    assert optional_values(["play", "yacht", "--tutor", "2.5", "--seed", "3"]) == \
        ["play", "yacht", "--tutor", "2.5", "--seed", "3"]
    from test_cli import run

    code, _, err = run(capsys, "play", "yacht", "--tutor", "-1")
    assert code == 2 and "0 or more" in err
