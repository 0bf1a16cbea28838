"""The push-your-luck commands: solve, advise, chart, compare, play (through a pseudo-terminal), analyze."""

import json
import os
import signal
import sys

import pexpect
import pytest
from records_v1 import write_v1
from test_pushluck import play_out

from dicesolver.cli.app import main
from dicesolver.core.registry import load as load_any_game
from dicesolver.core.registry import read_record
from dicesolver.pushluck.players import hold_at


def run(capsys, *argv):
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    captured = capsys.readouterr()
    return exit_info.value.code or 0, captured.out, captured.err


def test_solve_chart_compare_advise(capsys, tmp_path):
    code, out, _ = run(capsys, "solve", "skunk", "--json")
    assert code == 0 and round(json.loads(out)["value"], 5) == 0.51956
    code, out, _ = run(capsys, "solve", "skunk")
    assert code == 0 and "0.51955" in out and "loaded from cache" in out
    png = tmp_path / "chart.png"
    code, out, _ = run(capsys, "chart", "skunk", "--them", "87", "--png", str(png))
    assert code == 0 and "(0,87) 0.0661453 - 33 44 100" in out and png.stat().st_size > 10_000
    code, out, _ = run(capsys, "chart", "skunk", "--me", "0", "--json")
    rows = json.loads(out)
    assert len(rows) == 100 and rows[88]["thresholds"] == [100]
    code, out, _ = run(capsys, "compare", "pig", "hold-at-20", "hold-at-20", "--json")
    assert code == 0 and round(json.loads(out)["first"], 4) == 0.5347
    code, out, _ = run(capsys, "advise", "skunk", "0,87,32", "--json")
    advice = json.loads(out)
    assert advice["options"][0]["option"] == "throw" and advice["options"][1]["cost"] > 0
    assert advice["details"]["thresholds"] == [33, 44, 100]
    code, out, _ = run(capsys, "games")
    assert "big-pig" in out and "skunk" in out
    code, out, _ = run(capsys, "rules", "skunk")
    assert "double 1s" in out
    code, out, _ = run(capsys, "players")
    assert "hold-at-N" in out


@pytest.mark.parametrize("argv, message", [
    (["chart", "yahtzee"], "push-your-luck"),
    (["chart", "skunk", "--me", "100"], "--me"),
    (["advise", "skunk", "0,100"], "below the goal"),
    (["advise", "skunk", "zero"], "MINE,THEIRS"),
    (["compare", "pig", "optimal", "hold-at-0"], "hold-at-N"),
    (["compare", "pig", "optimal", "malina"], "unknown strategy"),
    (["solve", "pig(goal=100000)"], "goal"),
    (["odds", "skunk"], "push-your-luck"),
    (["play", "skunk", "--vs", "optimal", "--vs", "hold-at-20"], "one --vs"),
])
def test_bad_input_exits_2(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err


def test_analyze_record(capsys, tmp_path):
    game = load_any_game("skunk(goal=30)")
    path = tmp_path / "game.jsonl"
    record = play_out(game, [hold_at(30, 6), hold_at(30, 12)], seed=4)
    write_v1(path, record)
    code, out, _ = run(capsys, "analyze", str(path), "--json", "--player", "1", "--plot", str(tmp_path / "t.png"))
    assert code == 0
    data = json.loads(out)
    s = data["summary"]
    assert s["player"] == "b" and s["complete"]
    assert s["baseline"] + s["luck"] - s["loss"] + s["others"] == pytest.approx(s["result"])
    assert (tmp_path / "t.png").exists()
    code, out, _ = run(capsys, "analyze", str(path))
    assert code == 0 and "baseline" in out
    # a half-written last line is ignored with a warning; a broken middle line is an error
    text = path.read_text()
    path.write_text(text + '{"type": "ro')
    code, out, err = run(capsys, "analyze", str(path))
    assert code == 0 and "half-written" in err
    lines = text.splitlines()
    lines[2] = '{"type": "hold", "player": 1}'
    path.write_text("\n".join(lines) + "\n")
    code, _, err = run(capsys, "analyze", str(path))
    assert code == 2 and "turn" in err


def spawn(*args):
    env = dict(os.environ, COLUMNS="120")
    return pexpect.spawn(sys.executable, ["-m", "dicesolver", "play", *args], env=env, encoding="utf-8",
                         timeout=60, dimensions=(60, 120))


PROMPT = r"throw or hold\? "


def test_play_against_a_bot_quit_resume_and_finish(tmp_path):
    path = tmp_path / "pig.jsonl"
    child = spawn("pig(goal=20)", "--vs", "hold-at-5", "--seed", "7", "--first", "you", "--record", str(path))
    child.expect(PROMPT)
    child.sendline("maybe")
    child.expect("unknown command")
    child.expect(PROMPT)
    child.sendline("hint")
    child.expect("cost")
    child.expect(PROMPT)
    child.sendline("h")
    child.expect(PROMPT)  # the bot's turn has been played and shown
    child.kill(signal.SIGKILL)  # killed mid-game: nothing may be lost
    child.wait()
    before = read_record(path)
    assert before.steps and not before.is_over()
    child = spawn("pig(goal=20)", "--resume", "--record", str(path))
    child.expect("resuming")
    while True:
        i = child.expect([PROMPT, "recorded in", pexpect.EOF])
        if i == 0:
            child.sendline("t")
        else:
            break
    child.expect("baseline")
    child.expect(pexpect.EOF)
    after = read_record(path)
    assert after.is_over() and after.steps[: len(before.steps)] == before.steps


def test_play_manual_dice_reprompts(tmp_path):
    path = tmp_path / "skunk.jsonl"
    child = spawn("skunk(goal=20)", "--vs", "optimal", "--manual-dice", "--seed", "1", "--first", "you",
                  "--record", str(path))
    child.expect("dice you threw: ")
    child.sendline("17")
    child.expect("faces 1-6")
    child.expect("dice you threw: ")
    child.sendline("66")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("saved in")
    child.expect(pexpect.EOF)
    record = read_record(path)
    assert [s.dice for s in record.steps] == [(6, 6)]
