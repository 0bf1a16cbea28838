"""Benchmark for issue 20, item 2: playing for a target score.

For each game: the target table for needs up to N (every target up to N): build time (numba compile
included on a cold kernel cache), size and peak memory are printed with the best chance of reaching
several targets beside the expected-score strategy's own chance (from its exact final-score
distribution). Then the target player's simulation speed (target:N, the kernels, games per second, after
a warm-up) beside the expected-score strategy's on the same dice.

Prints Markdown for BENCHMARKS.md. Usage: ``python benchmarks/bench_target.py [GAME:N ...]`` (default
``yahtzee:300``; ``yatzy:300`` takes about four times as long).
"""

from __future__ import annotations

import resource
import sys
import time

import numpy as np

import dicesolver as ds
from dicesolver.core.aims import AtLeast
from dicesolver.scorecard.target import table as target
from dicesolver.scorecard.mindful.future import load_or_build as load_future
from dicesolver.scorecard.solitaire.table import TurnState


def main(specs: list[str]) -> None:
    print("| game | needs | build (s) | table (GB) | peak RSS (GB) | T | best P(>= T) | expected-score strategy's P(>= T) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    speeds = []
    for spec in specs:
        name, _, needs = spec.partition(":")
        game = ds.load_game(name)
        N = int(needs or 300)
        start = time.perf_counter()
        table = target.build(game, N)
        seconds = time.perf_counter() - start
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
        curve = table.curve()
        maximus, _, _ = load_future(game)
        lo, p = maximus.distribution(TurnState(0))
        for T in range(N // 6, N + 1, N // 6):
            theirs = float(p[max(T - lo, 0):].sum()) if T - lo < len(p) else 0.0
            print(f"| {name} | {N} | {seconds:.1f} | {table.V.nbytes / 1e9:.2f} | {rss:.2f} | {T} | {curve[T]:.6f} | "
                  f"{theirs:.6f} |")
        assert np.all(curve >= 0) and curve[0] == 1.0
        speeds.append(play_speed(game, table, N))
    print()
    print("| game | target player (games/s) | expected-score strategy (games/s) | games |")
    print("|---|---:|---:|---:|")
    for line in speeds:
        print(line)


def play_speed(game, table, N: int, n: int = 100_000) -> str:
    from dicesolver.scorecard.bots.players import make_player
    from dicesolver.scorecard.target.player import TargetPlayer
    from dicesolver.scorecard.solitaire.policy_table import dice_stream

    players = [TargetPlayer(game, N, table, AtLeast(N)), make_player("optimal", game)]
    rates = []
    for player in players:
        small = dice_stream(game, 1, 0, 100)
        player.play_many(*small)  # compile or load the kernel first
        throws, rand = dice_stream(game, 2, 0, n)
        start = time.perf_counter()
        player.play_many(throws, rand)
        rates.append(n / (time.perf_counter() - start))
    return f"| {game.canonical} | {rates[0]:,.0f} | {rates[1]:,.0f} | {n:,} |"


if __name__ == "__main__":
    main(sys.argv[1:] or ["yahtzee:300"])
