"""Reproduce the Generala essay's multi-player figures (issue 5) by matches with confidence intervals.

* Maximus against n - 1 Joes, n = 2..5: points per game (essay: 0.24, 0.31, 0.38, 0.41) and per time
  unit (a game of n players takes n/2 times as long as a two-player game; essay 0.24, 0.21, 0.19, 0.17);
* Malina and Mindful Maximus against two Joes in three-player Generala (essay: 0.359 +- 0.005 and
  "0.0355 +- 0.005", by the essay's own reading about 0.355);
* Mindful Maximus exactly against Malina and against Maximus in two-player Generala (essay: MM about
  0.01 below Malina), with ``--exact`` (about 6 minutes: the equity table plus two exact evaluations).

Run: ``python scripts/multiplayer.py [-n GAMES] [--exact]``.
"""

from __future__ import annotations

import argparse
import time

from dicesolver import load_game
from dicesolver.scorecard.match.play import play_match


def line(result, who: int = 0) -> str:
    p = result.players[who]
    return f"{p.points_per_game:+.4f} +- {p.points_ci95:.4f} (95%), wins {100 * p.win_rate:.1f}%"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=300_000, help="games per match")
    parser.add_argument("--exact", action="store_true", help="also the exact two-player evaluations")
    args = parser.parse_args()
    game = load_game("generala")
    print(f"Generala, {args.n:,} games per match, every seating rotation, common dice per seat\n")
    print("Maximus against n - 1 Joes:")
    for n in range(2, 6):
        t = time.perf_counter()
        r = play_match(game, ["maximus"] + ["joe"] * (n - 1), n=args.n, seed=n)
        p = r.players[0]
        print(f"  {n} players: {line(r)}; per time unit {p.points_per_game * 2 / n:+.3f} "
              f"({time.perf_counter() - t:.0f} s)")
    print("\nThree players, against two Joes:")
    for who in ("malina", "mindful", "maximus"):
        t = time.perf_counter()
        r = play_match(game, [who, "joe", "joe"], n=args.n, seed=7)
        print(f"  {who:8s} {line(r)} ({time.perf_counter() - t:.0f} s)")
    if args.exact:
        from dicesolver.scorecard.duel.compare import compare_exact
        from dicesolver.scorecard.duel.table import load_or_solve

        solution = load_or_solve(game)[0]
        print("\nTwo players, exactly:")
        for other in ("malina", "maximus"):
            c = compare_exact(solution, game, "mindful", other)
            print(f"  mindful vs {other}: first {c.first:+.4f}, second {c.second:+.4f}, average {c.average:+.4f} "
                  f"(Elo {c.elo:+.1f}; {c.seconds:.0f} s)")


if __name__ == "__main__":
    main()
