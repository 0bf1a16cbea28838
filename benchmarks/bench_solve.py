"""Benchmarks for the solitaire solver, side by side with the PyPI peer ``yatzy-solver`` (Rust).

Measures, on this machine:
* warm-JIT full solve time of every preset (best of N; our runs and the peer's interleaved so that
  both see the same machine load), and the ratio to the peer for yahtzee and yatzy;
* peak memory (max RSS) of a process that solves yahtzee and yatzy;
* a first run on a fresh machine: ``dicesolver solve yahtzee`` with empty JIT and table caches;
* ``dicesolver advise`` latency from a cached table, process start included.

Prints a Markdown report (paste it into BENCHMARKS.md). Usage: ``make bench`` or
``python benchmarks/bench_solve.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dicesolver import load_game
from dicesolver.scorecard.game.presets import preset_names
from dicesolver.scorecard.solitaire.table import SolitaireModel

PEERS = {  # our game string -> yatzy-solver variant id with the same rules
    "yahtzee": "american+forced-joker",
    "yahtzee(joker=free)": "american",
    "yatzy": "yatzy-scandinavian",
}
CLI = [sys.executable, "-m", "dicesolver"]


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def solve_times(repeat: int) -> dict[str, dict[str, float]]:
    crag = SolitaireModel(load_game("crag"))  # the kernels compiled (or loaded) first, the parallel solve's too:
    crag.compile_parallel_solve()  # every solve uses it once `dicesolver warmup` has compiled it
    crag.solve()
    try:
        import yatzy_solver
    except ImportError:
        yatzy_solver = None
    from dicesolver.scorecard.game.size import solve_cost

    # a game of minutes is measured once, from empty caches, by bench_maxi.py
    quick = [g for g in preset_names() if solve_cost(load_game(g)).seconds < 60]
    games = quick + [g for g in PEERS if g not in quick]
    results: dict[str, dict[str, float]] = {}
    for name in games:
        model = SolitaireModel(load_game(name))
        ours, peer = [], []
        for _ in range(repeat):
            ours.append(timed(model.solve))
            if yatzy_solver and name in PEERS:
                variant = yatzy_solver.Variant(PEERS[name])
                peer.append(timed(lambda: yatzy_solver.Solver.build(variant)))
        results[name] = {"ours": min(ours), "peer": min(peer) if peer else float("nan"), "states": model.size}
    return results


def peak_memory_mb(game: str) -> float:
    # the child's own peak (VmHWM): Linux carries the parent's peak into a spawned child's ru_maxrss, so that
    # figure was this benchmark's process after its solves (186-237 MB) rather than the solve's (160 MB)
    code = (
        "import resource; from dicesolver import load_game; from dicesolver.scorecard.solitaire.table import "
        f"SolitaireModel; SolitaireModel(load_game({game!r})).solve()\n"
        "try:\n    print(next(line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM')))\n"
        "except OSError:\n    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return int(out.strip()) / 1024


def first_run_seconds() -> float:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=f"{tmp}/numba", DICESOLVER_CACHE_DIR=f"{tmp}/tables")
        return timed(lambda: subprocess.run(CLI + ["solve", "yahtzee"], env=env, check=True, capture_output=True))


def advise_seconds(repeat: int) -> float:
    subprocess.run(CLI + ["solve", "yahtzee"], check=True, capture_output=True)
    return min(
        timed(lambda: subprocess.run(CLI + ["advise", "yahtzee", "/13456/2"], check=True, capture_output=True))
        for _ in range(repeat)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    cpu = "unknown CPU"
    if Path("/proc/cpuinfo").exists():
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    print(f"## Solitaire solve ({time.strftime('%Y-%m-%d')}, {cpu}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()})\n")
    results = solve_times(args.repeat)
    print("| game | states | dicesolver (s) | yatzy-solver (s) | peer / ours |")
    print("|---|---:|---:|---:|---:|")
    for name, r in results.items():
        ratio = r["peer"] / r["ours"] if r["peer"] == r["peer"] else float("nan")
        peer = f"{r['peer']:.3f}" if r["peer"] == r["peer"] else "-"
        ratio_text = f"{ratio:.1f}x" if ratio == ratio else "-"
        print(f"| {name} | {r['states']:,} | {r['ours']:.3f} | {peer} | {ratio_text} |")
    print()
    for game in ("yahtzee", "yatzy"):
        print(f"- peak memory (max RSS of a process solving {game}): {peak_memory_mb(game):.0f} MB")
    print(f"- first run, empty JIT and table caches, `dicesolver solve yahtzee`: {first_run_seconds():.1f} s")
    print(f"- `dicesolver advise yahtzee /13456/2` from a cached table, process start included: "
          f"{advise_seconds(args.repeat):.2f} s")


if __name__ == "__main__":
    main()
