"""The ``dicesolver`` commands for Despirala: the bodies behind solve, simulate, advise, match, play,
analyze and replay when the game is Despirala."""

from __future__ import annotations

import dataclasses
from typing import Optional

from rich.table import Table

from ..despirala.rules import DespiralaGame
from .app import LABEL_STYLES, _emit_json, err, out, print_saved, terminal_ask


def load_solution(game: DespiralaGame, rebuild: bool = False, quiet: bool = False):
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from ..despirala.solver import load_or_solve

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
    from ..despirala.simulate import simulate_despirala

    if not samples:
        load_solution(game, quiet=json_output)
    stats, scores = simulate_despirala(game.mode, n, seed, samples)
    if plot:
        from ..analysis.plots import despirala_figure, save_figure

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
    from ..despirala.rules import parse_decision_point
    from ..despirala.solver import turn_options

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


def match(game: DespiralaGame, players: list[str], n: int, seed: int, json_output: bool) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from ..core.errors import InputError
    from ..despirala.match import despirala_match
    from ..despirala.players import make_despirala_player

    if len(players) != 2:
        raise InputError("a Despirala match is between two strategies, e.g. competitive optimal")
    solution, _ = load_solution(game, quiet=json_output)
    a, b = (make_despirala_player(p, game, solution, seed=seed) for p in players)
    if a.name == b.name:
        b.name = f"{b.name} (2)"
    with Progress(TextColumn(f"{a.name} against {b.name}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, transient=True, disable=json_output or not err.is_terminal) as progress:
        task = progress.add_task("match", total=n + n % 2)
        result = despirala_match(game, a, b, n, seed, progress=lambda d, t: progress.update(task, completed=d))
    if json_output:
        _emit_json(dataclasses.asdict(result))
        return
    table = Table(title=f"{game.canonical}: {result.a} against {result.b}, {result.games:,} games "
                        f"(each deal played both ways), seed {seed}")
    for col in ("", f"{result.a}'s win rate", "95% interval"):
        table.add_column(col, justify="left" if not col else "right")
    table.add_row("all games", f"{100 * result.win_rate:.1f}%", f"{100 * result.win_low:.1f}-{100 * result.win_high:.1f}%")
    table.add_row(f"{result.a} first", f"{100 * result.first:.1f}%", f"{100 * result.first_low:.1f}-{100 * result.first_high:.1f}%")
    table.add_row(f"{result.a} second", f"{100 * result.second:.1f}%",
                  f"{100 * result.second_low:.1f}-{100 * result.second_high:.1f}%")
    out.print(table)
    out.print(f"mean final score: {result.a} {result.a_mean:.2f}, {result.b} {result.b_mean:.2f}; "
              f"ties {result.ties}; {result.seconds:.0f} s (ties count half a win)", highlight=False)


def play(game: DespiralaGame, seed, manual_dice: bool, resume: bool, record, vs, first: str) -> None:
    from ..despirala.console import play_despirala
    from ..scorecard.console import QuitGame

    solution, _ = load_solution(game)
    try:
        rec, result, path = play_despirala(game, solution, out, terminal_ask, seed=seed, manual_dice=manual_dice,
                                           resume=resume, record_path=record, opponents=vs, first=first)
    except QuitGame as stop:
        print_saved(stop, game.canonical, record)
        return
    out.print(f"the game is recorded in {path}", highlight=False)
    print_review(result)


def print_review(result) -> None:
    s = result.summary
    table = Table(title=f"{s.game}: review of {s.player}'s game (expected final score)")
    for col in ("round", "goods", "dice", "choice", "value", "best instead", "loss", ""):
        table.add_column(col, justify="right" if col in ("round", "goods", "value", "loss") else "left")
    for d in result.decisions:
        if d.options <= 1:
            continue
        best = "" if d.chosen == d.best else f"{d.best} ({d.best_value:.2f})"
        _, goods, dice = d.position.split(";", 2)
        table.add_row(str(d.round), goods, dice, d.chosen, f"{d.chosen_value:.2f}", best,
                      f"{d.loss:.2f}" if d.loss else "", d.label if d.loss else "", style=LABEL_STYLES.get(d.label))
    out.print(table)
    if result.luck:
        worst = min(result.luck, key=lambda e: e.luck)
        best = max(result.luck, key=lambda e: e.luck)
        out.print(f"unluckiest: round {worst.round} {worst.kind} {worst.what} ({worst.luck:+.2f}); "
                  f"luckiest: round {best.round} {best.kind} {best.what} ({best.luck:+.2f})", highlight=False)
    word = "final score" if s.complete else "expected final score (unfinished game)"
    if s.game.endswith("(misere)"):
        out.print(f"baseline {s.baseline:.2f} - luck {s.luck:+.2f} + mistakes {s.loss:.2f} = {word} {s.final_score:.2f} "
                  "(misere: good luck lowers the score)", highlight=False)
    else:
        out.print(f"baseline {s.baseline:.2f} + luck {s.luck:+.2f} - mistakes {s.loss:.2f} = {word} {s.final_score:.2f}",
                  highlight=False)
    out.print(f"{s.decisions_with_choice} decisions with a choice, mean loss {s.mean_loss:.3f}; "
              + (", ".join(f"{k}: {v}" for k, v in sorted(s.labels.items())) or "no mistakes"), highlight=False)


def replay(rec, json_output: bool) -> None:
    """Every event of a Despirala record, one line each, with the scores at the end."""
    from ..despirala.console import describe

    states = rec.states()
    lines = [describe(rec, states[i], e, states[i + 1]) for i, e in enumerate(rec.events)]
    final = states[-1]
    scores = {name: seat.final if final.over else seat.points for name, seat in zip(rec.players, final.seats)}
    if json_output:
        _emit_json({"game": rec.game.canonical, "players": rec.players, "over": final.over, "events": lines,
                    "scores": scores})
        return
    round_ = None
    for i, line in enumerate(lines):
        if states[i].round != round_ and states[i].phase == "throw":
            round_ = states[i].round
            out.print(f"[bold]round {round_}[/]")
        out.print("  " + line, highlight=False)
    what = "final scores" if final.over else f"points so far (unfinished, round {final.round})"
    out.print(f"{what}: " + ", ".join(f"{n} {v}" for n, v in scores.items()), highlight=False)
