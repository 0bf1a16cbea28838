"""How well the size estimate (scorecard/game/size.py) predicts a solve, on this machine.

The estimate decides whether a custom game is refused, so its constants are fitted here: for presets and
custom games from a second to minutes, the estimated and the measured compile and solve times, side by
side. Prints a Markdown table (paste it into BENCHMARKS.md). Usage:
``python benchmarks/bench_size.py [--big]`` (``--big`` adds 8d6 with 16 boxes: about 3 minutes).
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from pathlib import Path

from dicesolver import load_game
from dicesolver.scorecard.game.size import solve_cost
from dicesolver.scorecard.solitaire.table import SolitaireModel


def custom_rules(folder: Path, dice: int, faces: int, boxes: int, threshold: int | None = None) -> str:
    """Upper boxes for the first faces, then 'the dice sum to t' boxes: any size, valid by construction."""
    tables = [f"[[categories]]\nname = 'u{f}'\nkind = 'upper'\nface = {f}\n" for f in range(1, faces + 1)]
    tables += [f"[[categories]]\nname = 's{t}'\nkind = 'sum_equals'\ntotal = {t}\npoints = 10\n"
               for t in range(dice, dice * faces + 1)]
    bonus = f"[upper_bonus]\nthreshold = {threshold}\npoints = 35\n" if threshold else ""
    path = folder / f"c{dice}d{faces}x{boxes}{'b' if threshold else ''}.toml"
    path.write_text(f"name = 'custom'\ndice = {dice}\nfaces = {faces}\n{bonus}" + "".join(tables[:boxes]))
    return str(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--big", action="store_true", help="add 8d6 with 16 boxes and an upper bonus (minutes)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    games = ["yacht", "yahtzee", "yatzy",
             custom_rules(folder, 6, 10, 12), custom_rules(folder, 7, 8, 11), custom_rules(folder, 5, 6, 14, 63)]
    if args.big:
        games.append(custom_rules(folder, 8, 6, 16, 1000))
    SolitaireModel(load_game("yacht")).solve()  # compile the kernels first
    print(f"Size estimate vs measured: {platform.node()}, {os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}\n")
    print("| game | states | est. compile | compile | est. solve | solve | solve ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for spec in games:
        game = load_game(spec)
        cost = solve_cost(game)
        start = time.perf_counter()
        model = SolitaireModel(game)
        compiled = time.perf_counter()
        model.solve()
        solved = time.perf_counter()
        name = Path(spec).stem if spec.endswith(".toml") else spec
        print(f"| {name} | {cost.states:,} | {cost.compile_seconds:.2f} s | {compiled - start:.2f} s | "
              f"{cost.solve_seconds:.2f} s | {solved - compiled:.2f} s | {(solved - compiled) / cost.solve_seconds:.2f} |",
              flush=True)


if __name__ == "__main__":
    main()
