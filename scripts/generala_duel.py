"""Reproduce the Generala essay's two-player figures exactly (issue 4).

Solves (or loads) the full two-person Generala equity table, then prints the positions stored, the
first player's equity, Malina against Maximus both ways, and the essay's player table: each strategy
against Malina, going first and second, with Elo equivalents. Run: ``python scripts/generala_duel.py``.
"""

from __future__ import annotations

import time

from dicesolver.analysis.duel_compare import compare_exact
from dicesolver.games import load_game
from dicesolver.solvers.duel import load_or_solve


def main() -> None:
    game = load_game("generala")
    start = time.perf_counter()
    solution, seconds, built = load_or_solve(game)
    how = f"solved in {seconds:.1f} s" if built else f"loaded in {time.perf_counter() - start:.1f} s"
    model = solution.model
    print(f"two-person Generala: {model.size:,} positions stored ({how}); "
          f"{model.attainable_positions():,} counted as in the essay")
    print(f"first player's equity under perfect play: {solution.first_player_equity():+.4f}")
    print()
    print("| player | vs Malina, first | second | average | Elo | time (s) |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in ["maximus", "joe", "whatever", "greedy", "random"]:
        r = compare_exact(solution, game, name, "malina")
        print(f"| {name} | {r.first:+.4f} | {r.second:+.4f} | {r.average:+.4f} | {r.elo:+.1f} | {r.seconds:.1f} |")
        if name == "maximus":
            print(f"|   (Malina vs Maximus: {-r.second:+.4f} going first, {-r.first:+.4f} going second) | | | | | |")


if __name__ == "__main__":
    main()
