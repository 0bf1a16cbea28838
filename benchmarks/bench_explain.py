"""Why an option is worth what it is (issue 56): what explaining costs, beside the advice it explains.

* the breakdown table's sweep per game (kernels compiled, solitaire table cached): seconds, MB, states/s;
  Despirala's by combination (both modes) and its ``ds.explain`` after each throw of a first turn;
* ``ds.explain`` in-process on positions met in play, beside ``ds.advise`` on the same positions (the
  advice is not slowed: the split is computed only when asked);
* ``dicesolver advise yahtzee /13456/2 --explain`` as a whole process: warm, and from empty table and kernel
  caches (its solve, the kernels' compiles and the sweep included), beside the plain ``advise``;
* a trainer's sample of 10 positions (the bots' games and their answers).

Prints Markdown for BENCHMARKS.md. Usage: ``python benchmarks/bench_explain.py [--cold]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import dicesolver as ds
from dicesolver.core.training import sample_positions
from dicesolver.despirala import breakdown as despirala_breakdown
from dicesolver.scorecard.solitaire.breakdown import sweep

CLI = [sys.executable, "-m", "dicesolver"]


def whole(argv: list[str], env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(CLI + argv, check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cold", action="store_true", help="also from empty table and kernel caches")
    args = parser.parse_args()
    print("| game | states | sweep | table | states/s |")
    print("|---|---:|---:|---:|---:|")
    for name in ("yacht-dice", "yahtzee", "yatzy"):
        table = ds.solve(name).table
        start = time.perf_counter()
        aspects, variance = sweep(table)
        took = time.perf_counter() - start
        print(f"| {name} | {table.model.size:,} | {took:.2f} s | {(aspects.nbytes + variance.nbytes) / 1e6:.0f} MB "
              f"| {table.model.size / took:,.0f} |")
    for name in ("despirala", "despirala(misere)"):
        table = ds.solve(name).table
        start = time.perf_counter()
        split = despirala_breakdown.sweep(table)
        took = time.perf_counter() - start
        cells = split.variance.size
        print(f"| {name} | {cells:,} (sets x goods) | {took:.2f} s | "
              f"{(split.parts.nbytes + split.variance.nbytes) / 1e6:.0f} MB | {cells / took:,.0f} |")
    judge = ds.solve("despirala")
    judge.prepare_explain()
    start_state = judge.state("none;5;-")
    throws = [start_state.apply(throw) for throw, _ in start_state.chance_outcomes()]
    judge.explain(throws[0])
    start = time.perf_counter()
    for s in throws:
        judge.explain(s)
    print(f"\nds.explain after each of the {len(throws)} throws of Despirala's first turn: "
          f"{(time.perf_counter() - start) / len(throws) * 1e3:.1f} ms each")
    game = ds.load_game("yahtzee")
    solution = ds.solve(game)
    positions = sample_positions(game, solution, 200, seed=1)
    solution.explain(positions[0])  # the table loaded
    for what, call in (("ds.advise", lambda s: ds.advise(game, s)), ("ds.explain", lambda s: ds.explain(game, s))):
        call(positions[0])
        start = time.perf_counter()
        for s in positions:
            call(s)
        print(f"\n{what} on {len(positions)} positions met in play (yahtzee): "
              f"{(time.perf_counter() - start) / len(positions) * 1e3:.2f} ms each")
    start = time.perf_counter()
    sample_positions(game, solution, 10, seed=2)
    print(f"\na trainer's 10 positions (yahtzee, the bots' games and their answers): {time.perf_counter() - start:.2f} s")
    plain = ["advise", "yahtzee", "/13456/2"]
    whole(plain + ["--explain"])
    print(f"\nwhole process, warm (best of 5): advise {min(whole(plain) for _ in range(5)):.2f} s, "
          f"advise --explain {min(whole(plain + ['--explain']) for _ in range(5)):.2f} s")
    if args.cold:
        with tempfile.TemporaryDirectory() as tmp:
            env = {**os.environ, "DICESOLVER_CACHE_DIR": os.path.join(tmp, "tables"),
                   "DICESOLVER_KERNEL_CACHE": os.path.join(tmp, "kernels")}
            first = whole(plain + ["--explain"], env)
            again = whole(plain + ["--explain"], env)
        print(f"\nfrom empty table and kernel caches: advise --explain {first:.1f} s the first time, {again:.2f} s "
              "the next")


if __name__ == "__main__":
    main()
