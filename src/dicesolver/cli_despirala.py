"""The ``dicesolver`` commands for Despirala: the bodies behind solve and simulate."""

from __future__ import annotations

import dataclasses
from typing import Optional

from rich.table import Table

from .cli import _emit_json, err, out
from .games.despirala import DespiralaGame


def load_solution(game: DespiralaGame, rebuild: bool = False, quiet: bool = False):
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from .solvers.despirala import load_or_solve

    with Progress(TextColumn(f"solving {game.canonical}"), BarColumn(), TimeElapsedColumn(), console=err,
                  transient=True, disable=quiet or not err.is_terminal) as progress:
        task = progress.add_task("solve", total=14)
        return load_or_solve(game.mode, rebuild=rebuild, progress=lambda d, t: progress.update(task, completed=d),
                             on_problem=lambda m: err.print(f"[yellow]warning:[/] {m}", highlight=False))


def solve(game: DespiralaGame, json_output: bool, rebuild: bool) -> None:
    solution, info = load_solution(game, rebuild=rebuild, quiet=json_output)
    report = {"game": game.canonical, "value": solution.root_value, "seconds": info.seconds, "solved_now": info.built,
              "states": int(solution.W.shape[0] * solution.W.shape[1]), "table_bytes": info.table_bytes,
              "table_dir": info.directory}
    if json_output:
        _emit_json(report)
        return
    goal = "highest" if game.mode == "normal" else "lowest"
    how = f"solved in {info.seconds:.2f} s" if info.built else f"loaded from cache in {info.seconds:.2f} s"
    out.print(f"[bold]{game.canonical}[/]: expected final score [bold green]{solution.root_value:.3f}[/] "
              f"playing for the {goal} score")
    out.print(f"{how}; table {info.table_bytes / 2**20:.1f} MiB at {info.directory}", highlight=False)


def simulate(game: DespiralaGame, n: int, seed: int, samples: int, plot: Optional[str], json_output: bool) -> None:
    from .analysis.despirala_simulate import simulate_despirala

    if not samples:
        load_solution(game, quiet=json_output)
    stats, scores = simulate_despirala(game.mode, n, seed, samples)
    if plot:
        from .analysis.plots import despirala_figure, save_figure

        save_figure(despirala_figure(stats, scores), plot)
    if json_output:
        _emit_json(dataclasses.asdict(stats))
        return
    table = Table(title=f"{game.canonical}: {stats.games:,} games, {stats.model} model (seed {seed})")
    table.add_column("statistic")
    table.add_column("value", justify="right")
    table.add_row("the model's expected score", f"{stats.expected:.3f}")
    table.add_row("mean (95% interval)", f"{stats.mean:.3f} ± {1.96 * stats.stderr:.3f}")
    table.add_row("stdev", f"{stats.stdev:.3f}")
    for p, v in stats.percentiles.items():
        table.add_row(f"{p}th percentile", str(v))
    table.add_row("mode", str(stats.mode_score))
    table.add_row("time", f"{stats.seconds:.1f} s")
    out.print(table)
    if plot:
        out.print(f"plot written to {plot}", highlight=False)


def advise(game: DespiralaGame, position: str, json_output: bool, top: int) -> None:
    from .games.despirala import parse_decision_point
    from .solvers.despirala import turn_options

    point = parse_decision_point(position)
    solution, _ = load_solution(game, quiet=json_output)
    options = turn_options(solution, point.free, point.goods, point.dice)
    best = options[0][1]
    rows = [{"move": m.text(), "value": v, "cost": abs(best - v)} for m, v in options]
    if json_output:
        _emit_json({"game": game.canonical, "position": point.text(), "options": rows})
        return
    out.print(f"[bold]{game.canonical}[/]  {point.text()}  (expected final score from here, "
              f"{'higher' if game.mode == 'normal' else 'lower'} is better)", highlight=False)
    table = Table()
    for col in ("#", "move", "expected", "cost"):
        table.add_column(col, justify="left" if col == "move" else "right")
    shown = rows[:top] if top else rows
    for i, r in enumerate(shown, 1):
        table.add_row(str(i), r["move"], f"{r['value']:.3f}", f"{r['cost']:.3f}", style="bold green" if i == 1 else None)
    out.print(table)
    if top and len(rows) > top:
        out.print(f"({len(rows) - top} more moves; --top 0 shows all)")
