"""Benchmark for issue 20, item 2 in Despirala: playing for a target score.

The whole game's target table for needs up to N (every target up to N): build time (numba compile included
on a cold kernel cache), size and peak memory, with the best chance of several targets beside the
expected-score strategy's own chance (from its exact final-score distribution). Then the target player's
simulation speed (target:T in the kernels, games per second, after a warm-up) and its rate of reaching T
beside the table's chance, and an endgame's advice from a fresh cache (the endgame's own table), whole
process.

Prints Markdown for BENCHMARKS.md. Usage: ``python benchmarks/bench_despirala_target.py [N] [--mode misere]``
(default 550, the expected-score strategy's 95th percentile rounded up; the table is built once and cached,
as the command line does).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

from dicesolver.despirala import future, target
from dicesolver.despirala.rules import ALL_FREE, GOODS_PER_TURN
from dicesolver.despirala.simulate import play_games, play_target_games
from dicesolver.despirala.solver import load_or_solve

ENDGAME = ("Collect 1,Collect 3,Collect 4,Collect 5,Collect 6,Three pairs,Two triples,Four of a kind,Kamerun,"
           "Straight,General,Despirala;10;222566;points 380")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("N", type=int, nargs="?", default=550)
    parser.add_argument("--mode", default="normal")
    args = parser.parse_args()
    N, mode = args.N, args.mode
    table, built, seconds = target.load_or_build(mode, N)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    curve = table.curve()
    expected = load_or_solve(mode)[0]
    dist = future.load_or_build(expected).start(ALL_FREE, GOODS_PER_TURN)
    reach = np.cumsum(dist[::-1])[::-1] if mode == "normal" else np.cumsum(dist)
    print(f"## Despirala ({mode}) played for a target ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores)\n")
    how = f"built in {seconds:.1f} s, peak RSS {rss:.2f} GB" if built else f"loaded from the cache in {seconds:.1f} s"
    print(f"Table for needs 0..{N}: {how}, {table.V.nbytes / 1e9:.2f} GB.\n")
    sign = ">=" if mode == "normal" else "<="
    print(f"| T | best P(final {sign} T) | expected-score strategy's | gain |\n|---:|---:|---:|---:|")
    gain = curve - np.array([reach[t] if t < len(reach) else float(mode != "normal") for t in range(N + 1)])
    for T in sorted({N // 5, 2 * N // 5, 3 * N // 5, 4 * N // 5, 400, 450, 500, N, int(np.argmax(gain))} - {0}):
        if T <= N:
            print(f"| {T} | {curve[T]:.6f} | {curve[T] - gain[T]:.6f} | {gain[T]:+.6f} |")
    print(f"\nLargest gain {gain.max():+.6f} at {int(np.argmax(gain))} points.\n")

    aim = 450 if mode == "normal" else 100
    play_target_games(table, aim, 1000, seed=0)  # warm
    W = np.asarray(expected.W)
    play_games(W, mode, 1000, 0)
    n = 100_000
    t0 = time.perf_counter()
    scores = play_target_games(table, aim, n, seed=1)
    t1 = time.perf_counter()
    base = play_games(W, mode, n, 1)
    t2 = time.perf_counter()
    hit = scores >= aim if mode == "normal" else scores <= aim
    hit_base = base >= aim if mode == "normal" else base <= aim
    ci = 1.96 * hit.std(ddof=1) / np.sqrt(n)
    print(f"| player | games/s | reached {aim} | mean score |\n|---|---:|---:|---:|")
    print(f"| target:{aim} | {n / (t1 - t0):,.0f} | {hit.mean():.4%} ± {ci:.4%} (exactly "
          f"{table.start(ALL_FREE, GOODS_PER_TURN, aim):.4%}) | {scores.mean():.2f} |")
    print(f"| optimal | {n / (t2 - t1):,.0f} | {hit_base.mean():.4%} | {base.mean():.2f} |")

    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DICESOLVER_CACHE_DIR": tmp}
        argv = [sys.executable, "-m", "dicesolver", "advise", "despirala", ENDGAME, "--target", "450"]
        times = []
        for _ in range(3):
            t = time.perf_counter()
            subprocess.run(argv, check=True, capture_output=True, env=env)
            times.append(time.perf_counter() - t)
    print(f"\nEndgame advice `advise despirala '...;points 380' --target 450`, whole process: {times[0]:.2f} s with "
          f"an empty table cache (its own table built), {min(times[1:]):.2f} s after.")


if __name__ == "__main__":
    main()
