"""Benchmark for issue 20, item 1: Despirala played to win.

* the exact final-score distribution table of the expected-score strategy: build time and size;
* ``match despirala competitive optimal`` and ``competitive competitive``: games per second and the win
  shares (ties half) and average places by seat, with 95% intervals (target: >= 54% first, >= 55% second,
  >= 100 games/s, from >= 30,000 games per seat).

Prints Markdown for BENCHMARKS.md. Usage: ``python benchmarks/bench_despirala_competitive.py [GAMES]``
(default 60,000 games a match: 30,000 per seat).
"""

from __future__ import annotations

import sys
import time

from dicesolver.analysis.match import summarize
from dicesolver.despirala import future
from dicesolver.despirala.match import despirala_match
from dicesolver.despirala.players import CompetitivePlayer, ExpectedScorePlayer
from dicesolver.despirala.rules import DespiralaGame
from dicesolver.despirala.solver import load_or_solve


def main(games: int) -> None:
    game = DespiralaGame()
    solution, _ = load_or_solve("normal")
    start = time.perf_counter()
    table = future.build(solution)
    print(f"- distribution table: {time.perf_counter() - start:.1f} s to build (numba compile included), "
          f"{table.nbytes / 1e9:.2f} GB float32, {len(table.F):,} cells")
    competitive = CompetitivePlayer(solution, table)
    optimal = ExpectedScorePlayer("optimal", solution)
    despirala_match(game, competitive, optimal, 20, seed=0)  # compile the match kernel
    print()
    print("| match | games | games/s | seat | won (ties half) | 95% | average place | mean score |")
    print("|---|---:|---:|---|---:|---:|---:|---:|")
    for label, other, seed in (("competitive vs optimal", optimal, 1), ("competitive vs competitive", None, 2)):
        b = other or CompetitivePlayer(solution, table, name="competitive (2)")
        start = time.perf_counter()
        m = despirala_match(game, competitive, b, games, seed=seed)
        rate = len(m.totals) / (time.perf_counter() - start)
        p = summarize(m)[0]
        for seat, name in enumerate(("first", "second")):
            print(f"| {label} | {len(m.totals):,} | {rate:.0f} | {name} | {100 * p.share_by_seat[seat]:.2f}% | "
                  f"± {100 * p.share_ci95_by_seat[seat]:.2f} | {p.rank_by_seat[seat]:.3f} | {p.mean_score:.2f} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 60_000)
