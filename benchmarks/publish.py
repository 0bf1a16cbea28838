"""Run benchmarks and write what each prints into its section of BENCHMARKS.md: today's figures, one
section per benchmark, the history left to git (``git log -p BENCHMARKS.md``).

A section is the text between ``<!-- bench: NAME -->`` and ``<!-- /bench: NAME -->``, NAME being the
script's file name; a benchmark that fails leaves its section as it was and is reported. Usage:

    python benchmarks/publish.py bench_solve.py bench_answers.py ...   (``make bench`` runs them all)
    python benchmarks/publish.py --args bench_answers.py="--games 2000" bench_answers.py
"""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPORT = HERE.parent / "BENCHMARKS.md"


def section(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- bench: {re.escape(name)} -->\n)(.*?)(<!-- /bench: {re.escape(name)} -->)", re.S)


def replace_section(report: str, name: str, body: str) -> str:
    """The report with ``name``'s section holding ``body`` (a section appended where there is none yet)."""
    body = body.strip() + "\n"
    pattern = section(name)
    if pattern.search(report):
        return pattern.sub(lambda m: m.group(1) + body + m.group(3), report, count=1)
    return report.rstrip() + f"\n\n<!-- bench: {name} -->\n{body}<!-- /bench: {name} -->\n"


def dated(name: str, extra: list[str], printed: str) -> str:
    """What a benchmark printed, under a line saying when and how it ran; its headings one level down, below
    the report's own heading of the section."""
    command = " ".join(["python", f"benchmarks/{name}", *map(shlex.quote, extra)])
    body = re.sub(r"^(#+) ", lambda m: "#" + m.group(1) + " ", printed.strip(), flags=re.M)
    return f"Measured {time.strftime('%Y-%m-%d')} by `{command}`.\n\n{body}\n"


def run(name: str, extra: list[str]) -> str | None:
    """What the benchmark printed (None, and its error shown, when it failed)."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, str(HERE / name), *extra], capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        print(f"{name}: failed after {seconds:.0f} s (exit {done.returncode}); its section is left as it was\n"
              f"{done.stderr[-2000:]}", file=sys.stderr)
        return None
    print(f"{name}: {seconds:.0f} s", file=sys.stderr)
    return done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scripts", nargs="+", help="benchmark scripts in benchmarks/ (bench_solve.py ...)")
    parser.add_argument("--args", action="append", default=[], metavar="SCRIPT=ARGS",
                        help="arguments for one script, e.g. bench_answers.py='--games 2000'")
    options = parser.parse_args()
    extra = {}
    for item in options.args:
        script, _, args = item.partition("=")
        extra[script] = shlex.split(args)
    failed = 0
    for name in options.scripts:
        if not (HERE / name).is_file():
            parser.error(f"no benchmark {name} in {HERE}")
        printed = run(name, extra.get(name, []))
        if printed is None:
            failed += 1
            continue
        section_text = dated(name, extra.get(name, []), printed)
        REPORT.write_text(replace_section(REPORT.read_text(encoding="utf-8"), name, section_text), encoding="utf-8")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
