"""Benchmarks for issue 35: two-person Farkle solved for the probability of winning.

* ``--floors``: the first player's chance as the floor on banked scores is lowered (Busche's bound), each
  solved from scratch (not cached), with the sweeps and the time: the convergence his article describes;
* the full game (goal 10,000, floor -2,500): solve time and peak memory (target: <= 15 minutes, <= 8 GB on
  2 cores), the state count beside Busche's, and the answer engine's time for one situation.

Prints Markdown for BENCHMARKS.md. Usage: ``python benchmarks/bench_farkle.py [--floors -500 -1000 ...]``.
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

from dicesolver.core import registry
from dicesolver.farkle.rules import make_farkle_game
from dicesolver.farkle.solver import solve_in, state_count, table_shape

BUSCHE_STATES = 423_765_000
BUSCHE_FIRST = 0.53487


def solve_fresh(goal: int, floor: int) -> tuple[float, int, float]:
    game = make_farkle_game("farkle", {"goal": str(goal), "floor": str(floor)})
    starts = np.full(table_shape(game), 0.5)
    facts = solve_in(game, starts)
    i = -game.floor // 50
    return float(starts[i, i, 0, 0]), facts.sweeps, facts.seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--floors", type=int, nargs="*", default=[])
    parser.add_argument("--goal", type=int, default=10_000)
    args = parser.parse_args()
    solve_fresh(1000, -500)  # compile (or load) the kernels
    if args.floors:
        print("| floor | turn starts | P(first player wins) | sweeps | solve (s) |")
        print("|---:|---:|---:|---:|---:|")
        for floor in args.floors:
            p, sweeps, seconds = solve_fresh(args.goal, floor)
            game = make_farkle_game("farkle", {"goal": str(args.goal), "floor": str(floor)})
            starts = int(np.prod(table_shape(game)))
            print(f"| {floor:,} | {starts:,} | {p:.7f} | {sweeps} | {seconds:.1f} |", flush=True)
        return
    game = registry.load("farkle")
    start = time.perf_counter()
    solution = registry.solve(game, rebuild=True)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    state = game.parse_state("4000x,6500,850,=115236")
    solution.answers([state])
    best = min(_timed(lambda: solution.answers([state])) for _ in range(200))
    print(f"| farkle (goal 10,000, floor -2,500) | {state_count(game):,} states (Busche {BUSCHE_STATES:,}) | "
          f"P(first wins) {solution.root_value:.7f} (Busche {BUSCHE_FIRST:.5f}) | {solution.info.details['sweeps']} "
          f"sweeps | {seconds:.0f} s | peak RSS {peak:.2f} GB | "
          f"table {solution.table.starts.nbytes / 2**20:.1f} MiB | "
          f"one situation {best * 1e6:.0f} µs |")


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
