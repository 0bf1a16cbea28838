"""A process that keeps answering single positions from an empty kernel cache (issue 79): how long it answers
in numpy, when the kernel its background warm-up compiles takes over, and the median answer before and after.

Usage: ``python benchmarks/bench_background_compile.py [--game yahtzee] [--seconds 240]``. Runs itself again
in a child with $DICESOLVER_KERNEL_CACHE an empty folder (the table cache is the usual one)."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

POSITIONS = ["/13456/2", "/11234/1", "aces=3/22345/2", "/66666/0", "chance=20,sixes=24/12356/1"]


def child(game: str, seconds: float) -> None:
    import dicesolver as ds
    from dicesolver.core import registry

    numpy_first = registry.solve(game)._numpy_first
    began = time.monotonic()
    before, after, switched, n = [], [], None, 0
    while time.monotonic() - began < seconds:
        t = time.perf_counter()
        ds.advise(game, POSITIONS[n % len(POSITIONS)]).best
        took = time.perf_counter() - t
        n += 1
        if numpy_first.ready:
            switched = switched or (time.monotonic() - began, n)
            after.append(took)
            if len(after) >= 5000:
                break
        else:
            before.append(took)
    print(f"| {game} | {len(before):,} | {statistics.median(before) * 1e6:.0f} | "
          + (f"{switched[0]:.0f} | {statistics.median(after[100:]) * 1e6:.0f} |" if switched else "never | - |"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="yahtzee")
    parser.add_argument("--seconds", type=float, default=240.0)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.game, args.seconds)
        return
    with tempfile.TemporaryDirectory() as kernels:
        env = {**os.environ, "DICESOLVER_KERNEL_CACHE": kernels, "DICESOLVER_COMPILE_IN_BACKGROUND": "1"}
        print("| game | answers in numpy | their median (µs) | kernel taken up after (s) | median after (µs) |")
        print("|---|---:|---:|---:|---:|", flush=True)
        subprocess.run([sys.executable, __file__, "--child", "--game", args.game, "--seconds", str(args.seconds)],
                       env=env, check=True)


if __name__ == "__main__":
    main()
