"""Benchmark for issue 76, item 7: a risk appetite's solve against the mean's.

For each game, in one process with its kernels compiled (a warm-up solve of Yacht first) and a fresh, empty
table cache: the public solve (``ds.solve(game)`` and ``ds.solve(game, theta=...)``: the table built and
written), best of ``--rounds``, alternating the mean and each theta so that the machine's drift falls on
both; then the certainty equivalent of each and one advice's time under each. Prints Markdown for
BENCHMARKS.md. Usage: ``python benchmarks/bench_risk.py [GAME ...] [--rounds N]`` (default yahtzee yatzy, 3;
despirala too).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

THETAS = (0.0, 0.01, -0.01, 0.05)
POSITIONS = {"despirala": "none;5;123456"}  # each game's position for the advice; scorecard games: /13456/2


def timed_solve(game: str, theta: float) -> tuple[float, float]:
    import dicesolver as ds
    from dicesolver.core import registry

    with tempfile.TemporaryDirectory() as cache:  # an empty table cache: the table is solved and written
        os.environ["DICESOLVER_CACHE_DIR"] = cache
        registry._SOLVED.clear()
        start = time.perf_counter()
        solution = ds.solve(game, theta=theta)
        return time.perf_counter() - start, solution.root_value


def main(games: list[str], rounds: int) -> None:
    import dicesolver as ds

    for game in games:  # the kernels compiled (or loaded) before any timing
        timed_solve(game, 0.01)
        timed_solve(game, 0.0)
    print("| game | theta | solve, best of %d (s) | against the mean's | root value |" % rounds)
    print("|---|---:|---:|---:|---:|")
    for game in games:
        best = {t: float("inf") for t in THETAS}
        root = {}
        for _ in range(rounds):
            for theta in THETAS:
                seconds, root[theta] = timed_solve(game, theta)
                best[theta] = min(best[theta], seconds)
        for theta in THETAS:
            print(f"| {game} | {theta:g} | {best[theta]:.2f} | {best[theta] / best[0.0]:.2f}x | {root[theta]:.4f} |")
    with tempfile.TemporaryDirectory() as cache:
        os.environ["DICESOLVER_CACHE_DIR"] = cache
        print("\n| game | theta | ds.advise of its position, best of 200 (µs) |")
        print("|---|---:|---:|")
        for game in games:
            position = POSITIONS.get(game, "/13456/2")
            for theta in (None, 0.01):
                ds.advise(game, position, theta=theta)
                times = []
                for _ in range(200):
                    start = time.perf_counter()
                    ds.advise(game, position, theta=theta)
                    times.append(time.perf_counter() - start)
                print(f"| {game} | {'mean' if theta is None else theta} | {1e6 * min(times):.0f} |")


if __name__ == "__main__":
    args = sys.argv[1:]
    rounds = 3
    if "--rounds" in args:
        k = args.index("--rounds")
        rounds = int(args[k + 1])
        del args[k: k + 2]
    main(args or ["yahtzee", "yatzy"], rounds)
