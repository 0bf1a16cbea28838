"""What a newcomer meets first: the solve's two forms (the same table to the bit), waiting shown on a
stderr that is not a terminal, ``dicesolver cache`` and ``dicesolver warmup``."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest

from dicesolver.cli.base import LineProgress, progress
from dicesolver.scorecard.solitaire.table import SolitaireModel
from test_cli import run
from tinygames import BONUS_GAME, PAIRS_GAME, tiny


@pytest.mark.parametrize("make", [lambda: tiny(BONUS_GAME), lambda: tiny(BONUS_GAME, order="forced"),
                                  lambda: tiny(BONUS_GAME, joker="free"), lambda: tiny(PAIRS_GAME), "yacht",
                                  "generala"])
def test_the_first_solve_on_pythons_threads_is_the_parallel_kernels_to_the_bit(make):
    import dicesolver as ds

    game = make() if callable(make) else ds.load_game(make)
    model = SolitaireModel(game)
    stripes, parallel = model.solve(parallel=False), model.solve(parallel=True)
    assert stripes.tobytes() == parallel.tobytes()


@pytest.mark.parametrize("game, position", [("yacht", "/13456/2"), ("yahtzee", "aces=3/11245/1"),
                                            ("skunk", "0,87,32"), ("pig", "10,20,5"), ("despirala", "none;5;113456")])
def test_advice_from_a_cached_table_never_loads_numba(game, position):
    """A one-shot answer from a table on disk is numpy (scorecard, push-your-luck and Despirala games):
    loading numba would add half a second to every ``advise`` (it happened once through a package's
    ``__init__``: the bots' names pulled in their kernels). Farkle's answers still call its kernel."""
    import subprocess
    import sys

    subprocess.run([sys.executable, "-m", "dicesolver", "solve", game], check=True, capture_output=True)
    code = ("import sys\nfrom dicesolver.cli import main\ntry:\n    main(['advise', %r, %r])\n"
            "except SystemExit:\n    pass\n"
            "print('loaded:', [m for m in ('numba', 'markdown_it') if m in sys.modules], file=sys.stderr)"
            % (game, position))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    # nor the documents' Markdown renderer (65 ms), which only 'dicesolver docs' on a terminal needs
    assert done.stderr.strip().endswith("loaded: []"), done.stderr[-2000:]


def test_the_stripes_run_every_stripe_once_on_as_many_threads():
    from dicesolver.core.jit import Stripes

    for n in (1, 2, 3):
        seen = []
        with Stripes(n) as stripes:
            stripes.run(lambda s, count: seen.append((s, count)))
        assert sorted(seen) == [(s, n) for s in range(n)]


class Quick(LineProgress):
    GRACE, EVERY, SILENT = 0.05, 0.0, 0.2


def test_a_wait_on_a_stderr_that_is_not_a_terminal_is_told_in_lines():
    stream = io.StringIO()
    with Quick("solving something", stream=stream) as lines:
        time.sleep(0.3)  # compiling: no share known yet
        for k in range(11):
            lines.update(k, 10)
            time.sleep(0.01)
    text = stream.getvalue().splitlines()
    assert text[0].startswith("solving something: working, ")
    shares = [line for line in text if "% after" in line]
    # the first share starts the pace: from the next on, each tenth with the time left
    assert [line.split(":")[1].split("%")[0].strip() for line in shares] == [str(10 * k) for k in range(1, 10)]
    assert all("left" in line for line in shares)
    assert text[-1].startswith("solving something: done after ")


def test_a_second_stage_on_the_same_callback_starts_its_own_shares_and_pace():
    stream = io.StringIO()
    with Quick("simulating", stream=stream) as lines:
        time.sleep(0.1)
        for stage in range(2):  # a policy table built, then the games played: both report on one callback
            for k in range(6):
                lines.update(k, 5)
                time.sleep(0.01)
    shares = [line.split(":")[1].split("%")[0].strip() for line in stream.getvalue().splitlines() if "% after" in line]
    assert shares == ["20", "40", "60", "80"] * 2


def test_a_stage_told_by_the_work_names_its_lines():
    from dicesolver.core.family import tell_stage

    stream = io.StringIO()
    with Quick("simulating yacht", stream=stream) as lines:
        time.sleep(0.1)
        tell_stage(lines, "building its policy table (once)")
        lines.update(1, 2)
        time.sleep(0.05)
        tell_stage(lines, "playing 10 games")
        lines.update(1, 4)
        time.sleep(0.05)
        lines.update(2, 4)
    text = stream.getvalue()
    assert "simulating yacht: building its policy table (once)" in text
    assert "simulating yacht: playing 10 games: 50% after" in text
    tell_stage(None, "nothing listens")  # a library call without a front end: nothing to tell
    tell_stage(lambda done, total: None, "a plain callback")


def test_a_short_wait_prints_nothing_and_a_failed_one_says_so():
    stream = io.StringIO()
    with LineProgress("quick", stream=stream) as lines:
        lines.update(1, 2)
    assert stream.getvalue() == ""
    stream = io.StringIO()
    with pytest.raises(RuntimeError), Quick("failing", stream=stream):
        time.sleep(0.1)
        raise RuntimeError
    assert stream.getvalue().splitlines()[-1].startswith("failing: stopped after ")


def test_the_command_lines_progress_is_lines_on_a_captured_stderr(capsys, monkeypatch):
    monkeypatch.setattr(LineProgress, "GRACE", 0.0)
    with progress("a long job") as update:
        time.sleep(0.1)
        update(1, 4)
    err = capsys.readouterr().err
    assert "a long job" in err and "done after" in err
    with progress("a quiet job", quiet=True) as update:
        time.sleep(0.1)
        update(1, 4)
    assert capsys.readouterr().err == ""


def test_the_time_left_is_at_the_pace_since_the_first_share():
    from dicesolver.core.pace import Pace

    pace = Pace()
    assert pace.left(0.0) is None
    assert pace.report(0.1, 10.0)  # the first share starts the clock: compiling before it says nothing
    assert pace.left(11.0) is None  # one share shows no pace
    assert not pace.report(0.3, 12.0)
    assert pace.left(12.0) == pytest.approx(7.0)  # 0.2 in 2 s: 0.7 left in 7 s
    assert pace.report(0.05, 13.0) and pace.left(13.0) is None  # a share going back: a new stage
    pace.restart()
    assert pace.share is None and pace.left(14.0) is None


def test_a_web_job_shows_its_stage_and_the_time_left():
    from dicesolver.web.app import _job
    from dicesolver.web.solutions import Job

    job = Job("j1", "solving pig (a first run compiles the solver too, once: a minute or two)")
    assert _job(job).seconds_left is None
    job.progress(1, 10)
    time.sleep(0.05)
    job.progress(5, 10)
    view = _job(job)
    assert view.done == 5 and view.total == 10 and view.seconds >= 0.05
    assert view.seconds_left is not None and view.seconds_left > 0
    job.stage("playing the games")
    view = _job(job)
    assert view.label == "solving pig (a first run compiles the solver too, once: a minute or two): playing the games"
    assert view.total == 0 and view.seconds_left is None
    job.state = "done"
    assert _job(job).seconds_left is None


def test_the_cache_is_listed_and_cleared_by_game(capsys, fresh_cache):
    assert run(capsys, "solve", "yacht")[0] == 0
    assert run(capsys, "solve", "yahtzee(joker=free)")[0] == 0
    assert run(capsys, "solve", "pig")[0] == 0
    (fresh_cache / "web-games").mkdir()
    (fresh_cache / "web-games" / "mine.jsonl").write_text("{}\n")
    code, out, _ = run(capsys, "cache", "--json")
    listing = json.loads(out)
    assert code == 0 and listing["tables_dir"] == str(fresh_cache)
    games = sorted((t["kind"], t["game"]) for t in listing["tables"])
    assert games == [("pushluck", "pig"), ("solitaire-ev", "yacht"), ("solitaire-ev", "yahtzee(joker=free)")]
    assert all(t["bytes"] > 0 and t["complete"] for t in listing["tables"])
    assert any(k["current"] and k["kernels"] > 0 for k in listing["kernels"])
    code, out, _ = run(capsys, "cache")
    assert code == 0 and "solitaire-ev" in out and "this one" in out
    assert run(capsys, "solve", "yacht(yacht=50)")[0] == 2  # not a variant: refused, nothing solved
    code, out, _ = run(capsys, "cache", "clear", "yacht")  # a game: its tables only
    assert code == 0 and "removed 1 tables and 0 folders" in out
    assert run(capsys, "solve", "yahtzee")[0] == 0
    code, out, _ = run(capsys, "cache", "clear", "yahtzee")  # a bare name: the game and its variants
    assert "removed 2 tables" in out
    code, out, _ = run(capsys, "cache", "--json")
    assert [t["game"] for t in json.loads(out)["tables"]] == ["pig"]
    assert (fresh_cache / "web-games" / "mine.jsonl").exists()  # the user's saved games are not a cache
    assert run(capsys, "cache", "clear", "not-a-game")[0] == 2
    code, out, _ = run(capsys, "solve", "yacht")  # solved again when asked
    assert code == 0 and "optimal expected score" in out


def test_kernels_beside_the_tables_are_listed_as_kernels_only(capsys, fresh_cache, monkeypatch):
    """By default the compiled kernels are a folder among the tables' (``~/.cache/dicesolver/kernels``): they
    are listed, counted and cleared as kernels, never as an unfinished table besides."""
    kernels = fresh_cache / "kernels" / "dicesolver-0123456789abcdef"
    kernels.mkdir(parents=True)
    (kernels / "kernel.nbi").write_bytes(b"0")
    monkeypatch.setenv("DICESOLVER_KERNEL_CACHE", str(fresh_cache / "kernels"))
    assert run(capsys, "solve", "pig")[0] == 0
    listing = json.loads(run(capsys, "cache", "--json")[1])
    assert [(t["kind"], t["game"]) for t in listing["tables"]] == [("pushluck", "pig")]
    assert [k["kernels"] for k in listing["kernels"]] == [1]
    code, out, _ = run(capsys, "cache", "clear")
    assert code == 0 and "removed 1 tables and 1 folders" in out, out
    assert not kernels.exists()


def test_warmup_solves_and_compiles_what_answers_a_game(capsys, fresh_cache):
    code, out, _ = run(capsys, "warmup", "yacht", "pig")
    assert code == 0 and "yacht: ready" in out and "pig: ready" in out
    import dicesolver as ds
    from dicesolver.core.jit import compiled
    from dicesolver.scorecard.solitaire.kernels.answers import answer_parts, answer_serial
    from dicesolver.scorecard.solitaire.kernels.solve import solve_level

    assert all(compiled(k) for k in (answer_serial, answer_parts, solve_level))
    for game in ("yacht", "pig"):  # solved (here, or earlier in this process: the registry keeps solutions)
        assert (Path(ds.solve(game).info.table_dir) / "manifest.json").exists()
    assert run(capsys, "warmup", "nonsense")[0] == 2


@pytest.mark.parametrize("width", [80, 120])
def test_the_bar_on_a_terminal_shows_its_share_and_time_left_at_80_columns(width):
    """A first run's label is long (the game, 'not kept', kernels compiling): at 80 columns it is cut, and the
    bar, the share done and the time left still show; before a pace is known the time says 'so far'."""
    from rich.console import Console

    from dicesolver.cli.base import terminal_bar
    from dicesolver.core.pace import Pace

    console = Console(file=io.StringIO(), width=width, force_terminal=True, color_system=None)
    label = "solving yahtzee(joker=free,bonus=63:35) for 2 (once; cached) + compiling kernels (once)"
    bar = terminal_bar(console)
    pace = Pace()
    task = bar.add_task(label, total=None, pace=pace)

    def line() -> str:
        shown = Console(file=io.StringIO(), width=width, color_system=None, legacy_windows=False)
        shown.print(bar.make_tasks_table(bar.tasks))
        return shown.file.getvalue().rstrip("\n")

    assert line().rstrip().endswith("so far") and "left" not in line()
    now = time.monotonic()
    pace.report(0.10, now - 4.0)
    pace.report(0.40, now)
    bar.update(task, completed=40, total=100)
    shown = line()
    assert len(shown) <= width and "40%" in shown and "left" in shown and "━" in shown, shown
    assert "about 8.0 s left" in shown or "about 7.9 s left" in shown, shown
    assert shown.startswith("solving yahtzee") and ("…" in shown or len(label) + 40 <= width)
