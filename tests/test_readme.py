"""The printed outputs of the README and the guides (GUIDE, FINDINGS, WEB) are what the commands print: each
`$ dicesolver ...` line of a console block shown with its output is run, and every line shown must appear in
what it prints (spaces collapsed; times, the cache's path and table borders aside; `...` and `…` in a shown
line match anything). The commands that take minutes (big tables, hundreds of thousands of games) run under
the essay mark: `make test-essay`."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md"] + [ROOT / "src" / "dicesolver" / "docs" / f"{name}.md"
                               for name in ("GUIDE", "FINDINGS", "WEB")]
SLOW = re.compile(r"--target|\bmatch\b|-n [1-9]\d{4,}|--players 2|generala|crag|\bzilch\b|\bfarkle\b(?!\()|"
                  r"yacht --players|\bplay\b|\banalyze\b|\bserve\b|warmup|cache|--rebuild|--exact|mindful|label")


def shown_commands() -> list[tuple[str, list[str]]]:
    """(command, the lines shown after it) for every command of the README and the guides shown with output."""
    found = []
    blocks = [b for doc in DOCS for b in re.findall(r"```console\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)]
    for block in blocks:
        command, shown = None, []
        lines = block.splitlines()
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.startswith("$ "):
                if command and shown:
                    found.append((command, shown))
                command, shown = line[2:], []
                while command.endswith("\\") and i + 1 < len(lines):  # a command continued on the next line
                    i += 1
                    command = command[:-1] + " " + lines[i].strip()
            elif command is not None and line.strip():
                shown.append(line)
            i += 1
        if command and shown:
            found.append((command, shown))
    return [(c, s) for c, s in found if c.startswith("dicesolver ")]


def comparable(line: str) -> str:
    """A line with what changes from run to run or machine to machine taken out."""
    line = re.sub(r"[┃│┏┓┗┛┡┩└┘┳┻╇╈━─┼┬┴]+", " ", line)
    line = re.sub(r"\d+(\.\d+)? ?(s|ms|min)\b", "T", line)  # durations
    line = re.sub(r"^(solved|loaded from cache) in", "ready in", line.strip())  # an earlier test may have solved it
    line = re.sub(r" at \S+", " at PATH", line)
    return " ".join(line.split())


def pattern(shown: str) -> re.Pattern:
    parts = re.split(r"\s*(?:\.\.\.|…)\s*", comparable(shown))
    return re.compile(".*".join(re.escape(p) for p in parts))


CASES = [pytest.param(c, s, id=c[11:60], marks=[pytest.mark.essay] if SLOW.search(c) else [])
         for c, s in shown_commands()]


@pytest.mark.parametrize("command,shown", CASES)
def test_the_readme_shows_what_the_command_prints(command, shown, tmp_path):
    words = shlex.split(command.split(" #", 1)[0])[1:]
    argv = []
    for word in words:  # the figures are not what is compared: --plot FILE and --png FILE are left out
        if argv and argv[-1] in ("--plot", "--png"):
            argv.pop()
        else:
            argv.append(word)
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    done = subprocess.run([sys.executable, "-m", "dicesolver", *argv], capture_output=True, text=True, timeout=1800,
                          env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    printed = [comparable(line) for line in done.stdout.splitlines()]
    missing = [line for line in shown if comparable(line) and not any(pattern(line).fullmatch(p) or
                                                                       pattern(line).search(p) for p in printed)]
    assert not missing, (missing, done.stdout)


def test_the_readme_shows_commands_with_their_output():
    assert len(shown_commands()) >= 30
    assert sum(1 for c in CASES if not c.marks) >= 5  # the quick ones in the default suite, the rest: test-essay
