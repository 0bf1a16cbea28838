"""This tree against another version of dicesolver, side by side: the same commands, interleaved, as ratios.

    git worktree add /tmp/old 5ae3c1d
    .venv/bin/python benchmarks/bench_versions.py --old /tmp/old [--runs 5]

Every command is a whole `dicesolver` process (start-up, imports, table loads and the work) run with each
version's sources in turn, each version with its own table and kernel caches, warmed once first. The
figure is the best of ``--runs`` wall times; the ratio is new / old (below 1: this tree is faster). The
commands are ones whose arguments and output both versions share, so that the comparison is like for like.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

COMMANDS: list[list[str]] = [
    ["solve", "yahtzee", "--rebuild"],
    ["advise", "yahtzee", "/13456/2"],
    ["advise", "yahtzee", "aces=3,fives=25,yahtzee=50/55555/0"],
    ["simulate", "yahtzee", "-p", "optimal", "-n", "200000"],
    ["distribution", "yahtzee"],
    ["solve", "skunk", "--rebuild"],
    ["advise", "skunk", "0,87,20"],
    ["solve", "despirala", "--rebuild"],
    ["advise", "despirala", "none;5;113456"],
    ["match", "yacht", "maximus", "joe", "-n", "20000"],
    ["analyze", "{record}"],
    ["solve", "generala", "--players", "2", "--rebuild"],
    ["compare", "generala", "maximus", "malina"],
]


def make_record(folder: Path) -> Path:
    """A greedy solitaire game of yahtzee, in the record format that every version reads (format 1)."""
    path = folder / "greedy-yahtzee.jsonl"
    code = ("import json, sys; from dicesolver.scorecard.game.presets import "
            "load_scorecard_game as L; from dicesolver.scorecard.bots.players import make_player; "
            "from dicesolver.scorecard.bots.selfplay import play_game; g = L('yahtzee', {}); "
            "r = play_game(g, make_player('greedy', g), seed=3); "
            "open(sys.argv[1], 'w').write(''.join(json.dumps(x) + chr(10) for x in "
            "[r.header()] + [e.to_json(g) for e in r.events]))")
    env = {**os.environ, "PYTHONPATH": str(HERE / "src")}
    subprocess.run([sys.executable, "-c", code, str(path)], check=True, env=env)
    return path


def run(src: Path, cache: Path, argv: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(src), "DICESOLVER_CACHE_DIR": str(cache / "tables"),
           "NUMBA_CACHE_DIR": str(cache / "numba"), "DICESOLVER_KERNEL_CACHE": str(cache / "numba"), "COLUMNS": "100"}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "dicesolver", *argv], env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{src}: dicesolver {' '.join(argv)} failed:\n{done.stderr}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", type=Path, required=True, help="the other version's checkout (its src/ is used)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", default="", help="only the commands containing this text (e.g. simulate)")
    args = parser.parse_args()
    chosen = [argv for argv in COMMANDS if args.only in " ".join(argv)]
    trees = {"new": HERE / "src", "old": args.old.resolve() / "src"}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        record = make_record(folder)
        commands = [[str(record) if a == "{record}" else a for a in argv] for argv in chosen]
        caches = {name: folder / name for name in trees}
        for argv in commands:  # warm: kernels compiled and tables solved once, in each version's own caches
            for name, src in trees.items():
                run(src, caches[name], argv)
        best: dict[tuple[str, int], float] = {}
        for _ in range(args.runs):
            for i, argv in enumerate(commands):
                for name, src in trees.items():  # interleaved: both versions see the same machine load
                    t = run(src, caches[name], argv)
                    best[name, i] = min(best.get((name, i), float("inf")), t)
    print("| command | old (s) | new (s) | new / old |\n|---|---:|---:|---:|")
    for i, argv in enumerate(chosen):
        old, new = best["old", i], best["new", i]
        print(f"| `dicesolver {' '.join(argv)}` | {old:.3f} | {new:.3f} | {new / old:.2f} |")


if __name__ == "__main__":
    main()
