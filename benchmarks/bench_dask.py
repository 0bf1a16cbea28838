"""The two-person level sweep on a Dask LocalCluster against the single-machine sweep, in one run.

    python benchmarks/bench_dask.py [GAME] [--workers N] [--rounds R]

Each solve runs in a fresh process with its own empty cache (nothing cached, JIT from numba's cache), the
two alternating; the script prints each time, the ratio and whether the two tables are the same bytes.
Goal (issue 18): LocalCluster overhead <= 1.5x on two-person Generala.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

SOLVE = """
import json, resource, sys, time
from dicesolver.core import distributed, registry
from dicesolver.scorecard.duel import table as duel
game = registry.load(sys.argv[1], 1)
cluster = distributed.parse_cluster(sys.argv[2]) if sys.argv[2] != "-" else None
start = time.perf_counter()
solution, _, built = duel.load_or_solve(game, cluster=cluster)
seconds = time.perf_counter() - start
manifest = json.load(open(duel.table_key(game).directory / "manifest.json"))
print(json.dumps({"seconds": seconds, "built": built, "equity": solution.first_player_equity(),
                  "sha256": manifest["arrays"]["values"]["sha256"],
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def solve(game: str, cluster: str) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "DICESOLVER_CACHE_DIR": cache}
        done = subprocess.run([sys.executable, "-c", SOLVE, game, cluster], env=env, check=True,
                              capture_output=True, text=True)
        return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="generala")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    cluster = f"local:{args.workers}"
    print(f"{args.game}, two players: one machine against {cluster} ({time.strftime('%Y-%m-%d %H:%M')})")
    for _ in range(args.rounds):
        here = solve(args.game, "-")
        print(f"  one machine: {here['seconds']:7.1f} s, peak RSS {here['peak_rss_mb']:,.0f} MB, "
              f"equity {here['equity']:+.7f}")
        dask = solve(args.game, cluster)
        print(f"  {cluster:11s}: {dask['seconds']:7.1f} s, driver's peak RSS {dask['peak_rss_mb']:,.0f} MB, "
              f"equity {dask['equity']:+.7f}")
        same = "the same bytes" if here["sha256"] == dask["sha256"] else "DIFFERENT TABLES"
        print(f"  ratio {dask['seconds'] / here['seconds']:.2f}x; tables: {same}")


if __name__ == "__main__":
    main()
