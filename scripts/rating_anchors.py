"""Measure the rating scale's anchors of the built-in games (``core.rating``) and write them to
src/dicesolver/core/rating_anchors.json, where the package reads them: the same bots, games and dice as a
measurement on first use, so the shipped figures are what any machine would find.

Usage: ``python scripts/rating_anchors.py [GAME ...]`` (default: the games below; each solved first, from the
cache where it is).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import dicesolver as ds
from dicesolver.core import registry
from dicesolver.core.calibration import measure

GAMES = ["yacht", "yahtzee", "yatzy", "yacht-dice", "generala", "crag", "despirala", "pig"]
OUT = Path(__file__).resolve().parent.parent / "src" / "dicesolver" / "core" / "rating_anchors.json"


def main(games: list[str]) -> None:
    table = json.loads(OUT.read_text()) if OUT.exists() else {}
    for name in games:
        start = time.perf_counter()
        solution = ds.solve(name)
        anchors = registry.family_of(solution.game).rating_bots
        medians = measure(solution, anchors)
        table.setdefault(solution.game.canonical, {})[f"{solution.judge}:{solution.unit}"] = {
            "root": solution.root_value, "bots": [bot for bot, _ in anchors],
            "levels": [level for _, level in anchors], "medians": medians}
        print(f"{name}: {', '.join(f'{bot} {m:.4g}' for (bot, _), m in zip(anchors, medians))} "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
        OUT.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:] or GAMES)
