"""Benchmarks for issue 6: push-your-luck games solved for the probability of winning.

* ``solve``: pig, skunk and big-pig (goal 100) solved to 1e-12, best of 5 warm-JIT runs, with the
  number of sweeps (target: skunk and pig each <= 2 s on 2 cores), and the first run in a fresh process
  including numba's compilation (or loading its cache);
* ``evaluate``: exact policy evaluation of optimal against hold-at-20, best of 5.

Prints Markdown for BENCHMARKS.md. Usage: ``python benchmarks/bench_pushluck.py``.
"""

from __future__ import annotations

import time

from timing import best_of  # benchmarks/timing.py (run as python benchmarks/...)

from dicesolver import load_game as load_any_game
from dicesolver.pushluck.players import hold_at
from dicesolver.pushluck.solver import PushTable, evaluate, solve


def main() -> None:
    start = time.perf_counter()
    solve(load_any_game("pig(goal=10)"))
    print(f"- first solve in this process (numba compile or cache load included, tiny game): "
          f"{time.perf_counter() - start:.2f} s")
    print()
    print("| game | states | P(first player wins) | sweeps | solve (s) | optimal vs hold-at-20 evaluated (s) |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in ("pig", "skunk", "big-pig"):
        game = load_any_game(name)
        table, info = solve(game)
        seconds = best_of(lambda: solve(game), 5)
        solution = PushTable(game, table)
        policy = solution.policy
        other = hold_at(game.goal, 20)
        evaluate(game, policy, other)
        eval_seconds = best_of(lambda: evaluate(game, policy, other), 5)
        states = game.goal * game.goal * (game.goal + 1) // 2
        print(f"| {name} | {states:,} | {table[0, 0, 0]:.7f} | {info.sweeps} | {seconds:.3f} | {eval_seconds:.3f} |")


if __name__ == "__main__":
    main()
