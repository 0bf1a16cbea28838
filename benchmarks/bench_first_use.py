"""A newcomer's first answers (issue 51): each command of the README's tour as a whole process on a fresh
install, from empty kernel and table caches, and the warm one-shot commands.

* first use: every command in its own empty caches (the first thing a user runs), whole process: wall
  time, CPU time (user + system) and peak memory, and every kernel numba compiled for it with its
  compile time per signature (numba's compile events; nested compilations are inside their caller's time);
* warm: ``advise yahtzee /13456/2`` and ``solve yahtzee`` with the table cached, and ``solve yahtzee`` from
  an empty table cache with the kernels compiled, the best of N whole processes, side by side with
  ``yatzy-solver`` building the same table (where installed: ``make bench``).

Prints Markdown for BENCHMARKS.md. Usage: ``python benchmarks/bench_first_use.py [--runs 5] [--only advise]
[--kernels N]``. The first-use part takes 5-10 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TOUR = [
    ["advise", "yahtzee", "/13456/2", "--top", "3"],
    ["games"],
    ["rules", "yahtzee(joker=free)"],
    ["solve", "yahtzee"],
    ["solve", "yacht-dice", "--json"],
    ["advise", "yahtzee", "aces=3,fives=25,yahtzee=50/55555/0"],
    ["odds", "generala", "--exact"],
    ["simulate", "yahtzee", "-p", "optimal", "-p", "greedy", "-n", "100000"],
    ["distribution", "yahtzee"],
    ["advise", "skunk", "0,87,32"],
    ["advise", "despirala", "none;5;123456", "--top", "3"],
    ["advise", "farkle(goal=1000,floor=-500)", "0,0,350,=112356"],
    ["label", "yacht-dice", "-n", "10", "--out", "{tmp}/labels.jsonl"],
]
PEERS = {"yahtzee": "american+forced-joker"}


def run(argv: list[str], env: dict[str, str]) -> dict[str, float]:
    """One whole process: wall seconds, CPU seconds (user + system) and peak resident memory (MiB)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {err.decode()[-2000:]}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_mib": usage.ru_maxrss / 1024,
            "stderr_lines": len(err.decode().splitlines())}


def child(log: str, argv: list[str]) -> None:
    """Run the command line in this process with a listener on numba's compile events (``--child``)."""
    from dicesolver.core.jit import log_compiles

    log_compiles(log)
    from dicesolver.cli import main

    main(argv)


def first_use(commands: list[list[str]], kernels: int) -> None:
    print(f"### First use, from empty kernel and table caches ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores)\n")
    print("Each command alone on a fresh install: its own empty caches, stderr not a terminal.\n")
    print("| command | wall (s) | CPU (s) | peak (MiB) | progress lines | kernels compiled | compiling (s) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    compiles: list[tuple[str, dict]] = []
    for argv in commands:
        with tempfile.TemporaryDirectory() as tmp:
            log = Path(tmp) / "compiles.jsonl"
            env = {**os.environ, "DICESOLVER_KERNEL_CACHE": f"{tmp}/kernels", "DICESOLVER_CACHE_DIR": f"{tmp}/tables"}
            env.pop("NUMBA_CACHE_DIR", None)
            args = [a.replace("{tmp}", tmp) for a in argv]
            got = run([sys.executable, __file__, "--child", str(log), "--", *args], env)
            rows = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
            mine = [r for r in rows if r["kernel"].startswith("dicesolver.")]
            compiles += [(" ".join(argv), r) for r in mine]
            outer = sum(r["seconds"] for r in outermost(rows))
            print(f"| `dicesolver {' '.join(argv)}` | {got['wall']:.1f} | {got['cpu']:.1f} | {got['peak_mib']:.0f} | "
                  f"{got['stderr_lines']} | {len(mine)} | {outer:.1f} |", flush=True)
    print(f"\nThe {kernels} longest compilations (inclusive of the kernels they call, first compiled there):\n")
    print("| command | kernel | signature | seconds |\n|---|---|---|---:|")
    for command, r in sorted(compiles, key=lambda c: -c[1]["seconds"])[:kernels]:
        sig = r["signature"].replace("Array(", "A(").replace(", aligned=True", "").replace("'C', ", "")
        print(f"| `{command}` | `{r['kernel'].removeprefix('dicesolver.')}` | `{sig[:90]}` | {r['seconds']:.2f} |")
    print()


def outermost(rows: list[dict]) -> list[dict]:
    """The compilations that no other one contains (summed, they count each second once). The log is in
    the order the compilations ended, innermost first: the rows an outer one contains are the last ones
    before it that fit in its time."""
    out: list[dict] = []
    for r in rows:
        inner = 0.0
        while out and inner + out[-1]["seconds"] <= r["seconds"] + 1e-9:
            inner += out.pop()["seconds"]
        out.append(r)
    return out


def best(argv: list[str], runs: int, env: dict[str, str]) -> float:
    return min(run(argv, env)["wall"] for _ in range(runs))


def warm(runs: int) -> None:
    cli = [sys.executable, "-m", "dicesolver"]
    env = dict(os.environ)
    run(cli + ["warmup", "yahtzee"], env)
    print(f"### Warm one-shot commands (best of {runs} whole processes, kernels compiled)\n")
    print("| command | best (s) | target (s) |\n|---|---:|---:|")
    print(f"| `dicesolver advise yahtzee /13456/2` | {best(cli + ['advise', 'yahtzee', '/13456/2'], runs, env):.3f} | 0.3 |")
    print(f"| `dicesolver solve yahtzee` (table cached) | {best(cli + ['solve', 'yahtzee'], runs, env):.3f} | 0.3 |")
    ours, theirs = [], []
    try:
        import yatzy_solver  # noqa: F401
        peer = True
    except ImportError:
        peer = False
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(runs):
            env_k = {**env, "DICESOLVER_CACHE_DIR": f"{tmp}/run{k}"}
            ours.append(run(cli + ["solve", "yahtzee"], env_k)["wall"])
            if peer:
                theirs.append(run([sys.executable, "-c", "import yatzy_solver as y; "
                                   f"y.Solver.build(y.Variant({PEERS['yahtzee']!r}))"], env)["wall"])
    line = f"| `dicesolver solve yahtzee` (empty table cache) | {min(ours):.3f} | 1.0 |"
    print(line)
    if peer:
        print(f"\nyatzy-solver building the same table in the same runs: {min(theirs):.3f} s "
              f"(peer / ours: {min(theirs) / min(ours):.2f}x)")
    print()


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[4:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", help="only the tour's commands containing this word")
    parser.add_argument("--kernels", type=int, default=15, help="how many of the longest compilations to list")
    parser.add_argument("--skip-first-use", action="store_true")
    parser.add_argument("--skip-warm", action="store_true")
    args = parser.parse_args()
    commands = [c for c in TOUR if not args.only or args.only in " ".join(c)]
    if not args.skip_first_use:
        first_use(commands, args.kernels)
    if not args.skip_warm:
        warm(args.runs)


if __name__ == "__main__":
    main()
