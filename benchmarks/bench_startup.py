"""Whole-process answers from the command line: what a user waits for, start-up included (issue 19).

* quick answers from cached tables (advice in every family, one-turn odds, rules, games, players, --help):
  the best of N whole ``dicesolver`` processes, with the numba and table caches warm;
* a full solitaire solve from an empty table cache (warm kernel cache), whole process, side by side with
  the PyPI peer ``yatzy-solver`` building the same table in its own process, interleaved so that both
  see the same machine load; the ratio is peer / ours.

``--two-person`` adds advice on two-person Generala and Yacht positions from the user's own cache (their
tables must be built first: ``dicesolver solve yacht --players 2``). Prints Markdown for BENCHMARKS.md.
Usage: ``python benchmarks/bench_startup.py [--runs 5] [--two-person]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CLI = [sys.executable, "-m", "dicesolver"]
QUICK = [
    ["--help"],
    ["advise", "yahtzee", "/13456/2"],
    ["advise", "skunk", "0,87,20"],
    ["advise", "despirala", "none;5;113456"],
    ["odds", "yahtzee"],
    ["rules", "yahtzee"],
    ["games"],
    ["players", "yahtzee"],
]
TWO_PERSON = [
    ["advise", "generala", "sixes=18;ones=3,full=30/12266/2"],
    ["advise", "yacht", "choice=10;choice=30/12345/2", "--top", "2"],
]
PEERS = {"yahtzee": "american+forced-joker", "yatzy": "yatzy-scandinavian"}


def seconds(argv: list[str], env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def best(argv: list[str], runs: int, env: dict[str, str] | None = None) -> float:
    seconds(argv, env)  # warm: tables solved, kernels compiled, files in the page cache
    return min(seconds(argv, env) for _ in range(runs))


def fresh_solves(game: str, runs: int) -> tuple[float, float]:
    """(ours, peer): the best whole-process time of solving ``game`` from an empty table cache."""
    peer = [sys.executable, "-c", f"import yatzy_solver as y; y.Solver.build(y.Variant({PEERS[game]!r}))"]
    ours, theirs = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(runs + 1):
            env = {**os.environ, "DICESOLVER_CACHE_DIR": str(Path(tmp) / f"run{k}")}
            mine = seconds(CLI + ["solve", game], env)
            other = seconds(peer)
            if k:  # the first pair warms the kernel cache and the page cache
                ours.append(mine)
                theirs.append(other)
    return min(ours), min(theirs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--two-person", action="store_true", help="also advice from the two-person tables")
    args = parser.parse_args()
    print(f"## Whole-process answers ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores)\n")
    print(f"| command | best of {args.runs} (s) |\n|---|---:|")
    for argv in QUICK + (TWO_PERSON if args.two_person else []):
        print(f"| `dicesolver {' '.join(argv)}` | {best(CLI + argv, args.runs):.3f} |")
    print("\n| solve from an empty table cache | dicesolver (s) | yatzy-solver (s) | peer / ours |\n|---|---:|---:|---:|")
    try:
        import yatzy_solver  # noqa: F401
    except ImportError:
        print("| (yatzy-solver is not installed: uv pip install --group bench) | | | |")
        return
    for game in PEERS:
        ours, peer = fresh_solves(game, args.runs)
        print(f"| `dicesolver solve {game}` | {ours:.3f} | {peer:.3f} | {peer / ours:.2f}x |")


if __name__ == "__main__":
    main()
