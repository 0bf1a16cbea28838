"""Benchmarks for issue 7: Despirala.

* ``solve``: the exact normal and misere solves (target <= 10 s each on 2 cores; the seed's C++ engine
  needs about 90 s of CPU), best of 3 warm-JIT runs, and the Monte Carlo models' solves;
* ``simulate``: 1,000,000 games of the exact normal model (target <= 2 minutes), with the statistics.

Prints Markdown for BENCHMARKS.md. Usage: ``python benchmarks/bench_despirala.py``.
"""

from __future__ import annotations

import time

from timing import best_of  # benchmarks/timing.py (run as python benchmarks/...)

from dicesolver.despirala.simulate import play_games, statistics
from dicesolver.despirala.solver import solve


def main() -> None:
    start = time.perf_counter()
    solve("normal")
    print(f"- first solve in this process (numba compile or cache load included): {time.perf_counter() - start:.1f} s")
    print()
    print("| model | expected score (self-reported) | solve (s) |")
    print("|---|---:|---:|")
    tables = {}
    for mode in ("normal", "misere"):
        for samples in (0, 1, 5, 50, 1000):
            if mode == "misere" and samples == 1000:
                continue
            W = solve(mode, samples=samples, seed=1)
            seconds = best_of(lambda: solve(mode, samples=samples, seed=1), 3 if samples == 0 else 1)
            tables[(mode, samples)] = W
            print(f"| {mode} {'exact' if samples == 0 else f'{samples} samples'} | {W[-1, 5]:.3f} | {seconds:.2f} |")
    print()
    W = tables[("normal", 0)]
    play_games(W, "normal", 1000, 1)  # compile
    start = time.perf_counter()
    scores = play_games(W, "normal", 1_000_000, 2026)
    seconds = time.perf_counter() - start
    s = statistics("normal", "exact", float(W[-1, 5]), scores, seconds)
    print(f"- 1,000,000 games of the exact normal model: {seconds:.1f} s; mean {s.mean:.3f} ± {1.96 * s.stderr:.3f}, "
          f"stdev {s.stdev:.3f}, percentiles 5/25/50/75/95 = "
          f"{'/'.join(str(v) for v in s.percentiles.values())}, mode {s.mode_score}")
    for key in (("normal", 1), ("normal", 5), ("normal", 50), ("misere", 0), ("misere", 1), ("misere", 5)):
        scores = play_games(tables[key], key[0], 200_000, 7)
        s = statistics(key[0], str(key[1]), float(tables[key][-1, 5]), scores, 0.0)
        print(f"- {key[0]} {'exact' if key[1] == 0 else f'{key[1]} samples'}: reports {s.expected:.3f}, plays to "
              f"{s.mean:.2f} ± {1.96 * s.stderr:.2f} (200,000 games), stdev {s.stdev:.2f}")


if __name__ == "__main__":
    main()
