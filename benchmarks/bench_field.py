"""Benchmark for issue 76, items 2 and 7: blind tournaments.

For each game and field size N: the table of the best chance of the top score among N players, the others
playing for the mean (their exact distribution, from the expected-score table: solved first if it is not
cached, and not counted). Each table is built in a fresh process from an empty goal cache (numba's kernel
cache as it is), so the figure is what a player waits once; then it is cached. Printed beside it: the
aim A the field's needs count from (where its utility is within 1e-7 of 1), the table's size, the peak
memory, the field player's exact chance against the mean-player's 1/N, and 100,000 simulated games of each
on the same dice (the share of fields won, with its 95% interval).

Prints Markdown for BENCHMARKS.md. Usage: ``python benchmarks/bench_field.py [GAME:N ...]`` (default
``yatzy:10 yahtzee:10``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

BUILD = """
import json, resource, sys, time
import dicesolver as ds
from dicesolver.core import registry
game = ds.load_game(sys.argv[1])
registry.family_of(game).distribution(game)  # the mean-players' distribution: not timed
start = time.perf_counter()
solution = ds.solve(game, goal=ds.Field(int(sys.argv[2])))
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "aim": solution.final_goal.aim(), "value": solution.root_value,
                  "bytes": int(solution.table.V.nbytes), "solved_now": solution.info.solved_now,
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20}))
"""

SIMULATE = """
import json, sys
import dicesolver as ds
from dicesolver.scorecard.bots.simulate import simulate
game = ds.load_game(sys.argv[1])
runs = simulate(game, ["optimal", "field:" + sys.argv[2]], n=100_000, seed=1)
print(json.dumps([[r.facts["target_rate"], r.facts.get("target_chance"), r.seconds] for r in runs]))
"""


def run(script: str, env: dict, *args: str) -> dict | list:
    out = subprocess.run([sys.executable, "-c", script, *args], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(specs: list[str]) -> None:
    print("| game | field N | aim A | build once (s) | table (GB) | peak RSS (GB) | best P(top of N) | 1/N | "
          "simulated: field:N | simulated: optimal |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for spec in specs:
        name, _, players = spec.partition(":")
        with tempfile.TemporaryDirectory() as goals:
            env = dict(os.environ)
            cache = env.get("DICESOLVER_CACHE_DIR")
            # the goal table from empty: a cache of its own, the expected-score table linked in from the usual one
            env["DICESOLVER_CACHE_DIR"] = goals
            home = cache or os.path.join(os.path.expanduser("~"), ".cache", "dicesolver")
            for kind in ("solitaire-ev", "score-distribution"):
                if os.path.isdir(os.path.join(home, kind)):
                    os.symlink(os.path.join(home, kind), os.path.join(goals, kind))
            built = run(BUILD, env, name, players)
            assert isinstance(built, dict) and built["solved_now"]
            games = run(SIMULATE, env, name, players)
        n = int(players)
        (mean_rate, _, _), (field_rate, chance, _) = games
        ci = 1.96 * (chance * (1 - chance) / 100_000) ** 0.5
        print(f"| {name} | {n} | {built['aim']} | {built['seconds']:.1f} | {built['bytes'] / 1e9:.2f} | "
              f"{built['rss']:.2f} | {built['value']:.6f} | {1 / n:.6f} | {field_rate:.4f} ± {ci:.4f} | "
              f"{mean_rate:.4f} ± {ci:.4f} |")


if __name__ == "__main__":
    main(sys.argv[1:] or ["yatzy:10", "yahtzee:10"])
