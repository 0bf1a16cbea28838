"""Benchmark for issue 34, item 4: the simulator that reads the optimal player's policy table.

For each game: the policy table's size and the time to build it from the cached expected-score table;
games per second in-process reading the table (dice drawn in the kernel), and the same player deciding as
it goes (``simulate_games``, today's per-game kernel) on the same dice; then ``dicesolver simulate GAME -n
N`` as a whole process, table cached. The peer, dlangk/yatzy (Rust, Scandinavian Yatzy), publishes 5.6
million games/s on 8 cores (700,000 per core) from a 3.17 GB policy table, 232,000/s without it.

Prints Markdown for BENCHMARKS.md. Usage: ``python benchmarks/bench_simulate.py [yahtzee yatzy ...]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from timing import best_of

from dicesolver.core import registry
from dicesolver.scorecard.bots.players import make_player
from dicesolver.scorecard.solitaire.policy_table import POLICY_KIND, dice_stream

PEER_TABLE_BYTES = 3.17e9
PEER_PER_CORE = 700_000


def row(name: str, games: int, deciding_games: int, cli_games: int) -> str:
    from dicesolver.core import tables

    game = registry.load(name)
    player = make_player("optimal", game)  # the expected-score table, solved or cached
    shutil.rmtree(tables.TableKey(POLICY_KIND, game.canonical, game.fingerprint).directory, ignore_errors=True)
    began = time.perf_counter()
    policy = player.policy()
    build = time.perf_counter() - began
    policy.play(1000, seed=0)  # the kernel loaded
    reading = games / best_of(lambda: policy.play(games, seed=1), 3)
    throws, rand = dice_stream(game, 1, 0, deciding_games)
    from dicesolver.scorecard.bots import strategies

    saved = strategies.POLICY_MIN_GAMES
    strategies.POLICY_MIN_GAMES = 10**12  # the deciding kernel, whatever the number of games
    try:
        player.play_many(throws[:100], rand[:100])
        deciding = deciding_games / best_of(lambda: player.play_many(throws, rand), 1)
    finally:
        strategies.POLICY_MIN_GAMES = saved
    command = [str(Path(sys.executable).with_name("dicesolver")), "simulate", name, "-n", str(cli_games), "--json"]
    whole = best_of(lambda: subprocess.run(command, check=True, capture_output=True, env=os.environ), 3)
    return (f"| {name} | {policy.nbytes / 1e6:,.0f} MB ({PEER_TABLE_BYTES / policy.nbytes:.1f}x smaller) | "
            f"{build:.1f} s | {reading:,.0f} | {deciding:,.0f} | {reading / deciding:,.0f}x | "
            f"{cli_games:,} games: {whole:.2f} s |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["yahtzee", "yatzy"])
    parser.add_argument("--n", type=int, default=4_000_000, help="games timed reading the table")
    parser.add_argument("--deciding", type=int, default=50_000, help="games timed deciding as it goes")
    parser.add_argument("--cli", type=int, default=2_000_000, help="games of the whole-process run")
    args = parser.parse_args()
    print(f"2 cores: {os.cpu_count()} logical CPUs; peer: {PEER_PER_CORE:,} games/s per core, "
          f"{PEER_TABLE_BYTES / 1e9:.2f} GB table")
    print()
    print("| game | policy table | build (from the solved table) | games/s reading it | games/s deciding "
          "| ratio | `dicesolver simulate` whole process |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in args.games:
        print(row(name, args.n, args.deciding, args.cli), flush=True)


if __name__ == "__main__":
    main()
