"""Benchmarks for issue 3: optimal-player simulation throughput and the exact score distribution.

* ``simulate``: 1,000,000 yahtzee games by the optimal player (target >= 20,000 games/s on 2 cores);
* ``distribution``: the exact final-score distribution of yahtzee (target <= 10 s), warm JIT.

Prints Markdown for BENCHMARKS.md. Usage: ``python benchmarks/bench_play.py [--games N]``.
"""

from __future__ import annotations

import argparse
import time

from dicesolver import load_game
from dicesolver.scorecard.solitaire.distribution import score_distribution
from dicesolver.scorecard.bots.simulate import simulate
from dicesolver.scorecard.solitaire.table import load_or_solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    args = parser.parse_args()
    game = load_game("yahtzee")
    solution, _ = load_or_solve(game)
    simulate(game, ["optimal"], n=30_000, seed=1)  # compile
    start = time.perf_counter()
    (run,) = simulate(game, ["optimal"], n=args.games, seed=2)
    seconds = time.perf_counter() - start
    s = run.scores  # the games' final scores, counted as they streamed
    print(f"## Simulation and exact distribution ({time.strftime('%Y-%m-%d')})\n")
    print(f"- optimal player, {args.games:,} yahtzee games: {seconds:.1f} s = {args.games / seconds:,.0f} games/s "
          f"(mean {s.mean:.3f} +/- {1.96 * s.sd / s.n ** 0.5:.3f}, exact {solution.root_value:.3f})")
    score_distribution(solution)  # compile
    start = time.perf_counter()
    dist = score_distribution(solution)
    print(f"- exact final-score distribution of yahtzee: {time.perf_counter() - start:.1f} s "
          f"(mean {dist.mean:.6f}, sd {dist.sd:.4f})")


if __name__ == "__main__":
    main()
