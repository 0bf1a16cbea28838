"""The command line's manners: --version, python -m, completion, --quiet and --verbose, --json on every
command (and --top with it), positions read from standard input and rows written to standard output, and
full-width tables when the output is piped."""

import json
import os
import subprocess
import sys

import pytest

from dicesolver import __version__
from dicesolver.cli.app import main
from dicesolver.cli.base import app


def run(capsys, *argv):
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    captured = capsys.readouterr()
    return exit_info.value.code or 0, captured.out, captured.err


def command(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}  # as a pipe in a script sees it
    return subprocess.run([sys.executable, "-m", "dicesolver", *argv], input=stdin, capture_output=True, text=True,
                          timeout=600, env=env)


def test_version_and_python_dash_m():
    done = command("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"dicesolver {__version__}"


def test_the_console_script_is_python_dash_m():
    """``dicesolver`` and ``python -m dicesolver`` run the same process set-up (``__main__.run``)."""
    from importlib.metadata import entry_points

    (script,) = entry_points(group="console_scripts", name="dicesolver")
    assert script.value == "dicesolver.__main__:run"
    done = command("advise", "yacht", "/1/1")  # an error passes through the set-up with its code and message
    assert done.returncode == 2 and done.stderr.startswith("error: yacht is played")


def test_shell_completion_is_offered():
    # typer detects the shell from the processes above the command: run it from bash, as a person does (under a
    # test runner started by no shell, a detached job's, it found none: "Shell  not supported"); "; exit $?"
    # keeps bash above the command (a lone command, bash replaces itself with it)
    done = subprocess.run(["bash", "-c", '"$0" -m dicesolver --show-completion; exit $?', sys.executable],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and "complete" in done.stdout and "dicesolver" in done.stdout, done.stderr


def test_the_shell_completes_game_names_and_rules_files(tmp_path):
    """What bash asks for at ``dicesolver advise ya<TAB>``: the built-in games that start so; a rules file in
    the folder too."""
    (tmp_path / "yard-dice.toml").write_text("")
    env = {**os.environ, "_DICESOLVER_COMPLETE": "complete_bash", "COMP_WORDS": "dicesolver advise ya",
           "COMP_CWORD": "2"}
    done = subprocess.run([sys.executable, "-m", "dicesolver"], capture_output=True, text=True, env=env, cwd=tmp_path,
                          timeout=120)
    assert sorted(done.stdout.split()) == ["yacht", "yacht-dice", "yahtzee", "yard-dice.toml", "yatzy", "yazy"]


def test_quiet_and_verbose(capsys):
    code, out, err = run(capsys, "-q", "solve", "yacht")
    assert code == 0 and "166.988118" in out and err == ""
    code, _, err = run(capsys, "-v", "advise", "yacht", "/1/1")
    assert code == 2 and "Traceback" in err and err.strip().splitlines()[-1].startswith("error: yacht is played")
    code, _, err = run(capsys, "-q", "-v", "games")
    assert code == 2 and "contradict" in err
    code, out, err = run(capsys, "solve", "yacht", "-q")  # after the command, as people type them too
    assert code == 0 and "166.988118" in out and err == ""
    code, _, err = run(capsys, "advise", "yacht", "/1/1", "--verbose")
    assert code == 2 and "Traceback" in err


def test_every_command_takes_json():
    """Each command prints JSON with --json (serve is a server: its output is the web app; schema's output is
    JSON already)."""
    import typer

    names = {c.name or c.callback.__name__ for c in app.registered_commands}
    missing = []
    for name in sorted(names - {"serve", "schema"}):
        params = typer.main.get_command(app).commands[name].params
        if not any("--json" in p.opts for p in params):
            missing.append(name)
    assert not missing, missing


def test_top_is_honoured_with_json(capsys):
    code, out, _ = run(capsys, "advise", "yacht", "/11345/1", "--json", "--top", "3")
    assert code == 0 and len(json.loads(out)["options"]) == 3


def test_advise_reads_positions_from_stdin_and_writes_json_lines():
    done = command("advise", "yacht", "-", "--top", "2",
                   stdin="# my positions\n/11345/1\n\nnot a position\n  # a note\n/66666/0\n")  # comments skipped
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["position"] for line in lines] == ["/11345/1", "not a position", "/66666/0"]
    assert len(lines[0]["options"]) == 2 and "error" in lines[1] and lines[2]["value"] > 0
    assert done.returncode == 2 and "1 position refused" in done.stderr  # the bad line is told, the rest answered


def test_label_writes_json_lines_to_stdout():
    done = command("label", "yacht", "-n", "7", "--out", "-")
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and len(rows) == 7 and rows[0]["game"] == "yacht"
    assert "7 situations" in done.stderr and "standard output" in done.stderr


def test_piped_tables_are_not_cut_at_80_columns():
    done = command("simulate", "yacht", "-n", "500")
    assert done.returncode == 0 and "…" not in done.stdout and "optimal" in done.stdout


@pytest.mark.parametrize("game,saved", [("yacht", False), ("pig(goal=30)", False), ("despirala", False),
                                        ("farkle(goal=1000,floor=-500)", None)])
def test_a_cache_that_cannot_be_written_is_one_warning_or_one_line(game, saved, tmp_path):
    """DICESOLVER_CACHE_DIR under a file (so nothing can be written there): a table solved in memory is used,
    with one warning and the report saying it was not kept; Farkle's, built in place on disk, is one line
    and exit 2. Never a traceback."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["DICESOLVER_CACHE_DIR"] = str(blocker / "cache")
    done = subprocess.run([sys.executable, "-m", "dicesolver", "solve", game], capture_output=True, text=True,
                          timeout=600, env=env)
    assert "Traceback" not in done.stderr, done.stderr
    if saved is None:
        assert done.returncode == 2 and "set DICESOLVER_CACHE_DIR to a folder you can write" in done.stderr
        # on a loaded machine the wait before it (importing, compiling) may pass the 2 s after which progress is
        # told in lines: those name the solve; the refusal is one line
        told = [line for line in done.stderr.strip().splitlines() if not line.startswith("solving ")]
        assert len(told) == 1, done.stderr
    else:
        assert done.returncode == 0 and "could not save the table" in done.stderr
        assert "in memory only" in done.stdout
