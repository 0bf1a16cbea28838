"""Benchmark for issue 34's labelled datasets, side by side with the PyPI peer ``yatzy-solver``'s exporter.

Both write ``--n`` Yahtzee decisions of games sampled by the optimal player, each with every legal
option's value, as Parquet and as JSON Lines:

* ours: ``dicesolver label yahtzee -n N --out FILE`` as a whole process (what a user waits for: start-up
  and the cached table's loading included), the rate it prints (from its first step, the table and the
  kernels loaded), and in-process (``analysis.labels.sample`` written by
  ``analysis.label_files.write``, the solution loaded before the clock starts). A row holds the
  situation's arrays, every option's code, value and cost, and the situation's value;
* the peer: ``Solver.export(path, N, source="optimal", format=...)`` in its own virtual environment
  (``benchmarks/.peer-venv``, made on first use, as ``bench_answers.py`` does), its solver built before
  the clock starts. A row holds the situation's fields and notation, and every option's code, kind,
  notation and value.

Runs alternate, ours then the peer's, so that both see the same machine. JSON Lines is written for
``--n-json`` rows (a line a row, some five times Parquet's bytes). Prints Markdown for BENCHMARKS.md.
Usage: ``python benchmarks/bench_label.py [--n 1000000] [--n-json 100000] [--repeat 2]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from bench_answers import peer_python

PEER_SCRIPT = textwrap.dedent("""
    import json, sys, time
    import yatzy_solver as y
    n, fmt, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    solver = y.Solver.build(y.Variant("american+forced-joker"))
    began = time.perf_counter()
    solver.export(out, n, source="optimal", seed=3, format=fmt)
    print(json.dumps({"seconds": time.perf_counter() - began}))
""")

OURS_SCRIPT = textwrap.dedent("""
    import json, sys, time
    import dicesolver as ds
    from dicesolver.analysis import label_files, labels
    n, out = int(sys.argv[1]), sys.argv[2]
    solution = ds.solve("yahtzee")
    label_files.warm_up(solution, n, "optimal", 0.1, "parquet")  # the kernels loaded, as the command does
    began = time.perf_counter()
    label_files.write(out, solution, labels.sample(solution, n, seed=3),
                      label_files.metadata(solution, "optimal", 0.1, 3))
    print(json.dumps({"seconds": time.perf_counter() - began}))
""")


def timed_json(argv: list[str]) -> float:
    """The seconds a script prints (as {"seconds": s})."""
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    return float(json.loads(out.strip().splitlines()[-1])["seconds"])


def whole_process(n: int, path: Path) -> tuple[float, float]:
    """``dicesolver label`` as a user runs it: seconds from start to exit, and the rows a second it prints
    (timed from the first step, after the table and the kernels are loaded)."""
    began = time.perf_counter()
    command = Path(sys.executable).with_name("dicesolver")  # the virtual environment's script
    done = subprocess.run([str(command), "label", "yahtzee", "-n", str(n), "--seed", "3", "--out", str(path)],
                          check=True, capture_output=True, text=True)
    seconds = time.perf_counter() - began
    printed = re.search(r"\(([\d,]+)/s\)", done.stdout)
    assert printed, done.stdout
    return seconds, float(printed.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="Parquet rows")
    parser.add_argument("--n-json", type=int, default=100_000, help="JSON Lines rows")
    parser.add_argument("--repeat", type=int, default=2, help="alternating runs of each")
    args = parser.parse_args()
    peer = str(peer_python())
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for fmt, n in (("parquet", args.n), ("jsonl", args.n_json)):
            ours_path, peer_path = Path(tmp) / f"ours.{fmt}", Path(tmp) / f"peer.{fmt}"
            ours_in, ours_whole, ours_printed, theirs = [], [], [], []
            for _ in range(args.repeat):
                ours_in.append(timed_json([sys.executable, "-c", OURS_SCRIPT, str(n), str(ours_path)]))
                whole, printed = whole_process(n, ours_path)
                ours_whole.append(whole)
                ours_printed.append(printed)
                theirs.append(timed_json([peer, "-c", PEER_SCRIPT, str(n), fmt, str(peer_path)]))
            rows.append((fmt, n, min(ours_in), max(ours_printed), min(ours_whole), min(theirs),
                         ours_path.stat().st_size, peer_path.stat().st_size))
    print(f"## Labelled datasets side by side ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, Yahtzee, "
          f"the optimal player, best of {args.repeat})\n")
    print("| format | rows | dicesolver in-process (rows/s) | as `dicesolver label` prints it (rows/s) | "
          "`dicesolver label`, whole process (rows/s) | yatzy-solver `export` (rows/s) | ours / peer (in-process) "
          "| file MB, ours / peer |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for fmt, n, ours_in, ours_printed, ours_whole, theirs, ours_size, peer_size in rows:
        print(f"| {fmt} | {n:,} | {n / ours_in:,.0f} | {ours_printed:,.0f} | {n / ours_whole:,.0f} | "
              f"{n / theirs:,.0f} | {theirs / ours_in:.2f} | {ours_size / 2**20:,.0f} / {peer_size / 2**20:,.0f} |")


if __name__ == "__main__":
    main()
