"""Reproduce the Generala essay's two-player figures exactly (issue 4).

Solves (or loads) the full two-person Generala equity table, then prints the positions stored, the
first player's equity, Malina against Maximus both ways, and the essay's player table: each strategy
against Malina, going first and second, with Elo equivalents; then how often Malina scratches a box
(exactly, over Malina-against-Malina play) and her opening keeps.
Run: ``python scripts/generala_duel.py [--facts-only]``.
"""

from __future__ import annotations

import sys
import time

from dicesolver import load_game
from dicesolver.scorecard.duel.compare import compare_exact
from dicesolver.scorecard.duel.table import load_or_solve
from dicesolver.scorecard.duel.facts import opening_keeps, waive_facts


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
    if "--facts-only" not in sys.argv:
        player_table(game, solution)
    facts(solution)


def facts(solution) -> None:
    start = time.perf_counter()
    f = waive_facts(solution)
    print(f"\nMalina against Malina ({time.perf_counter() - start:.0f} s, exact):")
    print(f"- boxes scored 0: {10 * f.zero_per_turn:.2f} per 10 turns; scratched although another open box "
          f"would have scored: {10 * f.waives_per_turn:.2f} per 10 turns, i.e. per player and game)")
    print("- zeros per game (both players) by box: " + ", ".join(f"{k} {v:.3f}" for k, v in
                                                sorted(f.zero_by_category.items(), key=lambda x: -x[1])))
    print("- voluntary scratches per game (both players) by box: " + ", ".join(
        f"{k} {v:.3f}" for k, v in sorted(f.waives_by_category.items(), key=lambda x: -x[1])))
    keeps = opening_keeps(solution)
    print("- opening keeps: " + ", ".join(f"{r}->{keeps[r][0]}" for r in
                                          ["11225", "11234", "12366", "23466", "22345", "23345", "12245", "11166", "22666"]))


def player_table(game, solution) -> None:
    print("| player | vs Malina, first | second | average | Elo | time (s) |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in ["maximus", "joe", "whatever", "greedy", "random"]:
        r = compare_exact(solution, game, name, "malina")
        print(f"| {name} | {r.first:+.4f} | {r.second:+.4f} | {r.average:+.4f} | {r.elo:+.1f} | {r.seconds:.1f} |")
        if name == "maximus":
            print(f"|   (Malina vs Maximus: {-r.second:+.4f} going first, {-r.first:+.4f} going second) | | | | | |")


if __name__ == "__main__":
    main()
