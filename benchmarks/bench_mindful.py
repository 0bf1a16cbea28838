"""Benchmarks for issue 5: future-score distribution tables and Mindful Maximus.

* ``tables``: the distribution tables of yacht-dice, yatzy and yahtzee built from the solved expected-score
  tables (target for yahtzee <= 60 s), warm JIT, with their size;
* ``decision``: one Mindful Maximus decision through the Python player (keep with two throws left, and
  a category), yahtzee with 2 and 4 players, median and 99th percentile (target <= 50 ms);
* ``match``: games per second of mindful against maximus in the match kernel.

Prints Markdown for BENCHMARKS.md. Usage: ``python benchmarks/bench_mindful.py``.
"""

from __future__ import annotations

import resource
import time

import numpy as np

from dicesolver import load_game
from dicesolver.analysis.match import summarize
from dicesolver.scorecard.mindful import future
from dicesolver.scorecard.match.play import play_match
from dicesolver.scorecard.mindful.player import MindfulPlayer
from dicesolver.scorecard.game.position import Position
from dicesolver.scorecard.solitaire.table import load_or_solve


def tables() -> None:
    for name in ("yacht-dice", "yatzy", "yahtzee"):
        game = load_game(name)
        solution, _ = load_or_solve(game)
        if name == "yacht-dice":
            future.build(solution)  # compile
        start = time.perf_counter()
        arrays = future.build(solution)
        seconds = time.perf_counter() - start
        size = sum(a.nbytes for a in arrays.values())
        print(f"- {name}: distribution tables built in {seconds:.1f} s; {len(arrays['data']):,} probabilities, "
              f"{size / 1e6:,.0f} MB (float32), longest distribution {int(arrays['length'].max())} points")
    print(f"- peak RSS of the process so far: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3:,.0f} MB")


def random_position(game, rng, turn: int, dice: bool) -> Position:
    """A plausible position: ``turn`` boxes filled with one of their possible scores."""
    boxes = [None] * game.n_categories
    for c in rng.choice(game.n_categories, size=turn, replace=False):
        boxes[c] = int(rng.choice(game.possible_scores(int(c))))
    roll = tuple(sorted(int(x) for x in rng.integers(1, game.faces + 1, size=game.n_dice))) if dice else None
    return Position(tuple(boxes), roll, 2 if dice else game.rolls)


def decisions() -> None:
    game = load_game("yahtzee")
    player = MindfulPlayer(game)
    rng = np.random.default_rng(1)
    for n_players in (2, 4):
        keep_ms, cat_ms = [], []
        for i in range(201):
            turn = int(rng.integers(0, game.n_categories))
            me = random_position(game, rng, turn, True)
            others = [random_position(game, rng, turn + int(rng.integers(0, 2)), False) for _ in range(n_players - 1)]
            start = time.perf_counter()
            player.choose_keep(me, rng, others)
            t1 = time.perf_counter()
            player.choose_category(Position(me.boxes, me.dice, 0), rng, others)
            t2 = time.perf_counter()
            if i:  # the first call compiles
                keep_ms.append(1e3 * (t1 - start))
                cat_ms.append(1e3 * (t2 - t1))
        print(f"- yahtzee, {n_players} players, one mindful decision: keep {np.median(keep_ms):.2f} ms "
              f"(p99 {np.percentile(keep_ms, 99):.2f}), category {np.median(cat_ms):.2f} ms "
              f"(p99 {np.percentile(cat_ms, 99):.2f})")


def match() -> None:
    game = load_game("yahtzee")
    play_match(game, ["mindful", "maximus"], n=200, seed=1)  # compile, load
    start = time.perf_counter()
    games = play_match(game, ["mindful", "maximus"], n=20_000, seed=2)
    seconds = time.perf_counter() - start
    n = len(games.totals)
    p = summarize(games)[0]
    print(f"- match kernel, yahtzee mindful vs maximus: {n:,} games in {seconds:.1f} s = "
          f"{n / seconds:,.0f} games/s; mindful {p.points_per_game:+.4f} +- {p.points_ci95:.4f}")


def main() -> None:
    print(f"## Score distributions and Mindful Maximus ({time.strftime('%Y-%m-%d')})\n")
    tables()
    decisions()
    match()


if __name__ == "__main__":
    main()
