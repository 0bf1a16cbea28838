"""The ``dicesolver`` commands for push-your-luck games (pig, skunk, big-pig): the bodies behind
solve, advise, chart, compare, play and analyze when the game is one of them."""

from __future__ import annotations

import dataclasses
from typing import Optional

from rich.table import Table

from ..core.errors import InputError
from ..pushluck.rules import PushGame
from .app import LABEL_STYLES, _emit_json, err, out, print_saved, terminal_ask


def load_solution(game: PushGame, rebuild: bool = False, quiet: bool = False):
    """The solved game (solved in about a second on first use, then cached)."""
    from rich.progress import Progress

    from ..pushluck.solver import load_or_solve

    with Progress(console=err, transient=True, disable=quiet or not err.is_terminal) as progress:
        progress.add_task(f"solving {game.canonical} (once; cached)", total=None)
        return load_or_solve(game, rebuild=rebuild,
                             on_problem=lambda m: err.print(f"[yellow]warning:[/] {m}", highlight=False))


def solve(game: PushGame, json_output: bool, rebuild: bool) -> None:
    solution, info = load_solution(game, rebuild=rebuild, quiet=json_output)
    report = {"game": game.canonical, "value": solution.root_value, "seconds": info.seconds, "solved_now": info.built,
              "states": game.goal * (game.goal + 1) * game.goal // 2, "sweeps": info.sweeps,
              "table_bytes": info.table_bytes, "table_dir": info.directory}
    if json_output:
        _emit_json(report)
        return
    how = f"solved in {info.seconds:.2f} s ({info.sweeps} sweeps)" if info.built else f"loaded from cache in {info.seconds:.2f} s"
    out.print(f"[bold]{game.canonical}[/]: the first player wins with probability [bold green]"
              f"{solution.root_value:.7f}[/] under optimal play by both")
    out.print(f"{how}; table {info.table_bytes / 2**20:.1f} MiB at {info.directory}", highlight=False)




def advise(game: PushGame, position: str, json_output: bool) -> None:
    from ..pushluck.chart import push_advice
    from ..pushluck.rules import parse_push_position

    mine, theirs, total = parse_push_position(position, game)
    solution, _ = load_solution(game, quiet=json_output)
    result = push_advice(solution, mine, theirs, total)
    options = result["options"]
    if json_output:
        _emit_json(result)
        return
    out.print(f"[bold]{game.canonical}[/]: you {mine}, opponent {theirs}, turn total {total}", highlight=False)
    table = Table()
    for col in ("option", "P(win)", "cost"):
        table.add_column(col, justify="left" if col == "option" else "right")
    for i, o in enumerate(options):
        table.add_row(o["option"], f"{o['value']:.6f}", f"{o['cost']:.6f}", style="bold green" if i == 0 else None)
    out.print(table)
    if total == 0 and mine + total < game.goal:
        out.print("(a turn starts with a throw)")
    out.print(f"this turn's stop/go turn totals: {' '.join(map(str, result['thresholds'])) or '-'}", highlight=False)


def chart(game: PushGame, mine: Optional[int], theirs: Optional[int], png: Optional[str], json_output: bool) -> None:
    from ..pushluck.chart import chart_figure, chart_rows

    solution, _ = load_solution(game, quiet=json_output)
    rows = chart_rows(solution, mine, theirs)
    if png:
        from ..analysis.plots import save_figure

        save_figure(chart_figure(solution), png)
    if json_output:
        _emit_json([dataclasses.asdict(r) for r in rows])
        return
    if mine is None and theirs is None:
        out.print(f"# {game.canonical}: (my score, opponent's score) P(win) at the start of my turn - turn totals "
                  "where the best action switches: throw below the first, hold from it, throw again from the second...",
                  highlight=False, soft_wrap=True)
    for row in rows:
        out.print(row.line(), highlight=False)
    if png:
        out.print(f"picture written to {png}", highlight=False)


def compare(game: PushGame, a: str, b: str, json_output: bool) -> None:
    from ..pushluck.compare import compare_push

    solution, _ = load_solution(game, quiet=json_output)
    result = compare_push(solution, a, b)
    if json_output:
        _emit_json(result)
        return
    out.print(f"[bold]{game.canonical}[/]: {result.a} against {result.b}, exactly (probability that {result.a} wins)")
    out.print(f"  going first:  {result.first:.6f}")
    out.print(f"  going second: {result.second:.6f}")
    out.print(f"  average:      {result.average:.6f}; {result.seconds:.2f} s")


def play(game: PushGame, seed, manual_dice, resume, record, vs, first) -> None:
    from ..pushluck.console import play_push
    from ..scorecard.console import QuitGame

    if vs and len(vs) > 1:
        raise InputError(f"{game.name} is a two-player game: one --vs bot")
    solution, _ = load_solution(game)
    try:
        rec, result, path = play_push(game, solution, out, terminal_ask, seed=seed, manual_dice=manual_dice, resume=resume,
                                      record_path=record, opponent=vs[0] if vs else None, first=first)
    except QuitGame as stop:
        print_saved(stop, game.canonical, record)
        return
    out.print(f"the game is recorded in {path}", highlight=False)
    print_review(result)


def print_review(result) -> None:
    s = result.summary
    table = Table(title=f"{s.game}: review of {s.player}'s game against {s.opponent} (probability of winning)")
    for col in ("turn", "player", "score", "at risk", "choice", "throw", "hold", "loss", ""):
        table.add_column(col, justify="left" if col in ("player", "choice", "") else "right")
    for d in result.decisions:
        table.add_row(str(d.turn), d.player, f"{d.mine}-{d.theirs}", str(d.turn_total), d.chosen, f"{d.throw_value:.3f}",
                      f"{d.hold_value:.3f}", f"{d.loss:.3f}" if d.loss else "", d.label if d.loss else "",
                      style=LABEL_STYLES.get(d.label))
    out.print(table)
    mine = [t for t in result.throws if t.seat == s.seat]
    if mine:
        worst = min(mine, key=lambda t: t.luck)
        best = max(mine, key=lambda t: t.luck)
        out.print(f"unluckiest throw: turn {worst.turn} {worst.dice} ({worst.effect}, {worst.luck:+.3f}); "
                  f"luckiest: turn {best.turn} {best.dice} ({best.effect}, {best.luck:+.3f})", highlight=False)
    word = "result" if s.complete else "probability now (unfinished game)"
    out.print(f"baseline {s.baseline:.3f} + luck {s.luck:+.3f} - your loss {s.loss:.3f} - {s.opponent}'s luck "
              f"{s.opponent_luck:+.3f} + {s.opponent}'s loss {s.opponent_loss:.3f} = {word} {s.result:.3f}", highlight=False)
    out.print(f"{s.decisions_with_choice} decisions, mean loss {s.mean_loss:.4f}; "
              + (", ".join(f"{k}: {v}" for k, v in sorted(s.labels.items())) or "no errors"), highlight=False)


def replay(rec, json_output: bool) -> None:
    """Every throw and hold of a push-your-luck record, with the scores after each."""
    from ..pushluck.rules import format_throw

    states = rec.states()
    lines = []
    for i, e in enumerate(rec.events):
        before, after = states[i], states[i + 1]
        who = rec.players[e.player]
        if e.type == "hold":
            lines.append(f"turn {before.turn}: {who} holds {before.turn_total}: {after.scores[0]}-{after.scores[1]}")
        elif after.winner is not None:
            lines.append(f"turn {before.turn}: {who} throws {format_throw(e.dice)} and wins, {after.scores[0]}-{after.scores[1]}")
        elif after.mover == before.mover:
            lines.append(f"turn {before.turn}: {who} throws {format_throw(e.dice)}: turn total {after.turn_total}")
        else:
            lines.append(f"turn {before.turn}: {who} throws {format_throw(e.dice)}: the turn is lost, "
                         f"{after.scores[0]}-{after.scores[1]}")
    final = states[-1]
    if json_output:
        _emit_json({"game": rec.game.canonical, "players": rec.players, "over": final.winner is not None,
                    "events": lines, "scores": dict(zip(rec.players, final.scores))})
        return
    for line in lines:
        out.print(line, highlight=False)
    what = f"{rec.players[final.winner]} won" if final.winner is not None else "unfinished"
    out.print(f"{what}: " + ", ".join(f"{n} {v}" for n, v in zip(rec.players, final.scores)), highlight=False)
