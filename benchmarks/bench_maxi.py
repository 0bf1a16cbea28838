"""Maxi Yatzy (six dice, 20 boxes; issue 74): the exact solve as a new user meets it, and answers beside Yatzy's.

Measures, on this machine:
* ``dicesolver solve maxi-yatzy`` in a child process with EMPTY table and kernel caches (a fresh machine),
  then again with the kernels compiled but the table cache empty: wall time and the child's peak memory
  (VmHWM), against the issue's targets (10 minutes, 4 GB);
* one situation answered through the public call, ``ds.advise(game, text)``, for Maxi Yatzy and for Yatzy
  in the same run, over the same number of decisions met in random games (target: Maxi within 2x of Yatzy);
* ``dicesolver advise maxi-yatzy /112345/2`` whole process from the cached table;
* with ``--explain``, ``dicesolver advise maxi-yatzy /112345/2 --explain`` from the cached table with no
  breakdown yet: its table built in place on disk (5.7 GB, about 10 minutes), wall time and peak memory.

Prints Markdown for BENCHMARKS.md. Usage: ``python benchmarks/bench_maxi.py [--positions 2000] [--explain]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_answers import per_call, positions_met  # noqa: E402

CLI = [sys.executable, "-m", "dicesolver"]
PEAK = ("import runpy, sys; sys.argv = ['dicesolver'] + sys.argv[1:]\n"
        "try:\n    runpy.run_module('dicesolver', run_name='__main__')\n"
        "finally:\n    print('VmHWM', next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')),"
        " file=sys.stderr)")


def solve_in_child(env: dict[str, str], *command: str) -> tuple[float, float, str]:
    """(seconds, peak MB, the command's first line) of ``dicesolver solve maxi-yatzy`` (or ``command``) in a
    child."""
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK, *(command or ("solve", "maxi-yatzy"))], env=env,
                          capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - began
    peak = int(next(line.split()[1] for line in done.stderr.splitlines() if line.startswith("VmHWM"))) / 1024
    return seconds, peak, done.stdout.splitlines()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--explain", action="store_true", help="build the breakdown of --explain too (10 minutes)")
    args = parser.parse_args()
    print(f"## Maxi Yatzy ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores)\n")
    with tempfile.TemporaryDirectory() as tmp:
        cold = dict(os.environ, DICESOLVER_CACHE_DIR=f"{tmp}/tables", DICESOLVER_KERNEL_CACHE=f"{tmp}/kernels")
        seconds, peak, said = solve_in_child(cold)
        print(f"- `dicesolver solve maxi-yatzy`, empty table and kernel caches: {seconds:.0f} s, peak {peak:.0f} MB"
              f" (targets 600 s, 4096 MB): {said}")
        warm_kernels = dict(cold, DICESOLVER_CACHE_DIR=f"{tmp}/tables-again")
        seconds, peak, _ = solve_in_child(warm_kernels)
        print(f"- the same with the kernels compiled, the table cache empty: {seconds:.0f} s, peak {peak:.0f} MB")
        began = time.perf_counter()
        subprocess.run(CLI + ["advise", "maxi-yatzy", "/112345/2"], env=warm_kernels, check=True, capture_output=True)
        print(f"- `dicesolver advise maxi-yatzy /112345/2` from the cached table, whole process: "
              f"{time.perf_counter() - began:.2f} s")
        if args.explain:
            seconds, peak, _ = solve_in_child(warm_kernels, "advise", "maxi-yatzy", "/112345/2", "--explain")
            print(f"- `dicesolver advise maxi-yatzy /112345/2 --explain`, its breakdown not built yet (in place on "
                  f"disk): {seconds:.0f} s, peak {peak:.0f} MB (file pages of the table it writes included)")
            seconds, peak, _ = solve_in_child(warm_kernels, "advise", "maxi-yatzy", "/112345/2", "--explain")
            print(f"- the same again, the breakdown on disk: {seconds:.2f} s, peak {peak:.0f} MB")
        os.environ.update(warm_kernels)
        import dicesolver as ds

        per = {}
        for game in ("yatzy", "maxi-yatzy"):
            ds.solve(game)
            texts = positions_met(game, args.positions)
            per[game] = per_call(lambda text, game=game: ds.advise(game, text), texts)
        print(f"- `ds.advise` per situation ({args.positions:,} decisions met in random games of each): "
              f"Yatzy {per['yatzy'] * 1e6:.0f} µs, Maxi Yatzy {per['maxi-yatzy'] * 1e6:.0f} µs, "
              f"{per['maxi-yatzy'] / per['yatzy']:.2f}x (target within 2x)")


if __name__ == "__main__":
    main()
