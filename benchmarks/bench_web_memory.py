"""Resident memory per live game in the web server, for a game of every family (issue 77: at most 2 MB a game
beyond the tables the process shares).

In one process with a fresh cache folder: the app (``create_app``) is built, one game of each kind is started
and played one move (its tables built or loaded, its bot made: what every later game shares), then ``--games``
more are started by clients without a cookie (a new browser each) and each played one move. Reported: the
resident memory (RSS, /proc) before and after those games, per game, and the peak. Farkle is left out unless
``--farkle`` is given: its table is built once in about 20 minutes.

Usage: ``python benchmarks/bench_web_memory.py [--games 30] [--farkle] [--game pig ...]``
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

GAMES = [("yacht", ["optimal"]), ("yahtzee", ["optimal"]), ("pig", ["optimal"]), ("skunk", ["optimal"]),
         ("despirala", ["optimal"])]


def rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games started of each kind after the first")
    parser.add_argument("--farkle", action="store_true", help="Farkle too (its table: about 20 minutes once)")
    parser.add_argument("--game", action="append", help="only this game (again for more)")
    args = parser.parse_args()
    os.environ.setdefault("DICESOLVER_CACHE_DIR", tempfile.mkdtemp(prefix="dicesolver-webmem-"))
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from webclient import TestClient

    from dicesolver.web.app import create_app

    games = [g for g in GAMES + ([("farkle", ["optimal"])] if args.farkle else []) if not args.game or g[0] in args.game]
    rows = []
    with TestClient(create_app()) as first:
        def start(client, game, bots):
            for _ in range(3600):
                r = client.post("/api/play", json={"game": game, "opponents": bots, "first": "you", "seed": 1})
                if r.status_code != 202:
                    assert r.status_code == 200, r.text
                    view = r.json()
                    if view.get("prompt"):
                        client.post(f"/api/play/{view['id']}/send", json={"line": view["board"]["actions"][0]["action"]
                                                                          if view.get("board") and view["board"]["actions"]
                                                                          else ""})
                    return view
                time.sleep(1.0)
            raise RuntimeError(f"{game}: its tables were not ready in an hour")

        for game, bots in games:
            start(first, game, bots)  # the tables and the bot every later game shares
            gc.collect()
            before = rss_mb()
            for _ in range(args.games):
                start(TestClient(first.app), game, bots)  # no cookie: a new browser each time
            gc.collect()
            after = rss_mb()
            rows.append((game, bots[0], before, after, (after - before) / args.games))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"Measured {time.strftime('%Y-%m-%d')} by `python benchmarks/bench_web_memory.py --games {args.games}`, "
          f"{os.cpu_count()} cores, Python {platform.python_version()}; peak RSS {peak:.0f} MB.\n")
    print("| game | bot | RSS before (MB) | RSS after (MB) | per live game (MB) |")
    print("|---|---|---:|---:|---:|")
    for game, bot, before, after, each in rows:
        print(f"| {game} | {bot} | {before:.0f} | {after:.0f} | {each:.2f} |")


if __name__ == "__main__":
    main()
