"""The ``dicesolver`` command: a thin front end (parse, call the library, render with rich or JSON).

User errors (bad dice, impossible scorecards, unknown games, malformed rules files) print one line
and exit with code 2; nothing here prints a traceback for them.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Any, Optional

import numpy as np
import typer
from rich.console import Console
from rich.table import Table

from ..core.errors import DicesolverError, InputError

app = typer.Typer(
    help="Optimal strategies for dice games: solve, advise, odds.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

GAME_HELP = "a game: a preset name with optional variants, e.g. 'yahtzee(joker=free)', or a .toml rules file"


def _emit_json(obj: Any) -> None:
    print(json.dumps(dataclasses.asdict(obj) if dataclasses.is_dataclass(obj) else obj, indent=2))


# how a decision's label is shown in the review tables
LABEL_STYLES = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "red", "massive blunder": "bold red"}


def emit_review_json(result, events: str = "rolls") -> None:
    """A review as JSON: its summary, its decisions and its throws (``events``: the attribute holding them)."""
    _emit_json({"summary": dataclasses.asdict(result.summary),
                "decisions": [dataclasses.asdict(d) for d in result.decisions],
                events: [dataclasses.asdict(e) for e in getattr(result, events)]})


def _progress_solve(game, rebuild: bool = False, quiet: bool = False):
    """Load or solve a game's table, with a progress bar when solving on a terminal."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from ..scorecard.solitaire import load_or_solve

    def warn(message: str) -> None:
        err.print(f"[yellow]warning:[/] {message}")

    with Progress(
        TextColumn(f"solving {game.canonical}"),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f}%"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=quiet or not err.is_terminal,
    ) as progress:
        task = progress.add_task("solve", total=None)

        def update(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        return load_or_solve(game, progress=update, rebuild=rebuild, on_problem=warn)


@app.command()
def games(json_output: bool = typer.Option(False, "--json", help="print JSON")) -> None:
    """List the games and their variants."""
    from ..registry import load_any_game, load_game, push_game_names
    from ..scorecard.presets import preset_names

    rows = []
    for name in preset_names():
        game = load_game(name)
        rows.append({
            "name": name,
            "title": game.title,
            "dice": game.n_dice,
            "faces": game.faces,
            "rolls": game.rolls,
            "categories": game.n_categories,
            "variants": {v.key: {"values": list(v.values), "default": v.default, "help": v.help} for v in game.variant_specs},
        })
    push_rows = []
    for name in push_game_names():
        pg = load_any_game(name)
        push_rows.append({"name": name, "title": pg.title, "kind": "push-your-luck", "dice": pg.n_dice,
                          "faces": pg.faces, "goal": pg.goal})
    if json_output:
        _emit_json(rows + push_rows)
        return
    table = Table(title="Games (any of them, or a .toml rules file, wherever GAME is asked)")
    for col in ("game", "dice", "rolls", "boxes", "variants (default first)"):
        table.add_column(col)
    for row in rows:
        variants = "; ".join(
            f"{k}={'|'.join([v['default']] + [x for x in v['values'] if x != v['default']])}"
            for k, v in row["variants"].items()
        )
        table.add_row(row["name"], f"{row['dice']}d{row['faces']}", str(row["rolls"]), str(row["categories"]), variants or "-")
    out.print(table)
    push = Table(title="Push-your-luck games for two (solve, advise, chart, compare, play, analyze)")
    for col in ("game", "dice", "goal", "parameters"):
        push.add_column(col)
    for row in push_rows:
        push.add_row(row["name"], f"{row['dice']}d{row['faces']}", str(row["goal"]),
                     "goal=N" + (", faces=N (faces=2: piglet, a coin)" if row["name"] == "pig" else ""))
    out.print(push)


@app.command()
def rules(game: str = typer.Argument(..., help=GAME_HELP)) -> None:
    """Show the rules of a game in words."""
    from ..registry import load_any_game

    g = load_any_game(game)
    out.print(f"[bold]{g.canonical}[/]")
    for line in g.describe():
        out.print(line, highlight=False)


@dataclasses.dataclass
class SolveReport:
    game: str
    value: float
    seconds: float
    solved_now: bool
    states: int
    table_bytes: int
    table_dir: str


@app.command()
def solve(
    game: str = typer.Argument(..., help=GAME_HELP),
    json_output: bool = typer.Option(False, "--json", help="print JSON (key 'value' is the expected score)"),
    rebuild: bool = typer.Option(False, "--rebuild", help="solve again even if a sound table is cached"),
) -> None:
    """Solve a game exactly: the optimal expected final score, or for push-your-luck games the first
    player's probability of winning (cached for later use)."""
    from ..despirala.rules import DespiralaGame
    from ..pushluck.rules import PushGame
    from ..registry import load_any_game

    g = load_any_game(game)
    if isinstance(g, PushGame):
        from . import pushluck as cli_push

        cli_push.solve(g, json_output, rebuild)
        return
    if isinstance(g, DespiralaGame):
        from . import despirala as cli_despirala

        cli_despirala.solve(g, json_output, rebuild)
        return
    solution, info = _progress_solve(g, rebuild=rebuild, quiet=json_output)
    report = SolveReport(g.canonical, solution.root_value, info.seconds, info.built, int(solution.values.shape[0]),
                         info.table_bytes, info.directory)
    if json_output:
        _emit_json(report)
        return
    how = f"solved in {info.seconds:.2f} s" if info.built else f"loaded from cache in {info.seconds:.2f} s"
    out.print(f"[bold]{g.canonical}[/]: optimal expected score [bold green]{report.value:.6f}[/]")
    out.print(f"{how}; table {report.states:,} states, {report.table_bytes / 2**20:.1f} MiB at {info.directory}",
              highlight=False)


@app.command()
def advise(
    game: str = typer.Argument(..., help=GAME_HELP),
    position: str = typer.Argument(..., help="CARD/DICE/ROLLS, e.g. 'aces=3,fh=25/11345/1', '/11345/2' (empty card) or '/-/3'; two players: MOVER;OTHER/DICE/ROLLS (see README)"),
    json_output: bool = typer.Option(False, "--json", help="print JSON"),
    top: int = typer.Option(0, "--top", min=0, help="show only the best N options (0: all)"),
) -> None:
    """Rank every option in a position by expected final score, with its cost against the best.
    Push-your-luck games: POSITION is MINE,THEIRS,TURN_TOTAL and options are ranked by P(win).
    Despirala: POSITION is USED;GOODS;DICE (e.g. 'none;5;113456'), moves ranked by expected final score."""
    from ..core.dice import format_dice
    from ..despirala.rules import DespiralaGame
    from ..pushluck.rules import PushGame
    from ..registry import load_any_game, load_game
    from ..scorecard.advice import advise as make_advice
    from ..scorecard.position import parse_position

    g = load_any_game(game)
    if isinstance(g, PushGame):
        from . import pushluck as cli_push

        cli_push.advise(g, position, json_output)
        return
    if isinstance(g, DespiralaGame):
        from . import despirala as cli_despirala

        cli_despirala.advise(g, position, json_output, top)
        return
    g = load_game(game)  # anything else must be a scorecard game (a clear error otherwise)
    if ";" in position:
        from ..scorecard.duel_advice import duel_advise

        advice = duel_advise(g, position)
        if json_output:
            _emit_json(advice)
            return
        _print_duel_advice(g, advice, top)
        return
    pos = parse_position(g, position)
    solution, _ = _progress_solve(g, quiet=json_output)
    advice = make_advice(solution, pos)
    if json_output:
        _emit_json(advice)
        return
    out.print(f"[bold]{g.canonical}[/]  {advice.position}  score so far {advice.score_so_far}", highlight=False)
    if not advice.options:
        if pos.is_over():
            out.print(f"The game is over: final score {advice.score_so_far}.")
        else:
            out.print(f"Roll the dice. Expected final score with best play: [bold]{advice.value:.4f}[/]")
        return
    what = "keep (then roll the rest)" if advice.options[0].kind == "keep" else "score in"
    table = Table()
    table.add_column("#", justify="right")
    table.add_column(what)
    if advice.options[0].kind == "category":
        table.add_column("points", justify="right")
    table.add_column("expected final score", justify="right")
    table.add_column("cost", justify="right")
    shown = advice.options[:top] if top else advice.options
    stand = format_dice(pos.dice, g.faces)
    for i, opt in enumerate(shown, 1):
        name = opt.option
        if opt.kind == "keep":
            if name == "-":
                name = "nothing (reroll all)"
            elif name == stand:
                name += " (all: stand)"
        cells = [str(i), name]
        if opt.kind == "category":
            cells.append(str(opt.points))
        cells += [f"{opt.value:.4f}", f"{opt.cost:.4f}"]
        table.add_row(*cells, style="bold green" if i == 1 else None)
    out.print(table)
    if top and len(advice.options) > top:
        out.print(f"({len(advice.options) - top} more options; --top 0 shows all)")


def _print_duel_advice(g, advice, top: int) -> None:
    d = advice.score_so_far
    standing = f"leads by {d}" if d > 0 else f"trails by {-d}" if d < 0 else "is level"
    out.print(f"[bold]{g.canonical}[/] two players  {advice.position}  the mover {standing}")
    if not advice.options:
        out.print(f"Roll the dice. The mover's equity: [bold]{advice.value:+.4f}[/] (+1 win, 0 draw, -1 loss)")
        return
    table = Table()
    table.add_column("#", justify="right")
    table.add_column("keep" if advice.options[0].kind == "keep" else "score in")
    if advice.options[0].kind == "category":
        table.add_column("points", justify="right")
    table.add_column("equity", justify="right")
    table.add_column("cost", justify="right")
    shown = advice.options[:top] if top else advice.options
    for i, o in enumerate(shown, 1):
        cells = [str(i), "nothing (reroll all)" if o.option == "-" else o.option]
        if o.kind == "category":
            cells.append(str(o.points))
        cells += [f"{o.value:+.4f}", f"{o.cost:.4f}"]
        table.add_row(*cells, style="bold green" if i == 1 else None)
    out.print(table)


@app.command()
def odds(
    game: str = typer.Argument(..., help=GAME_HELP),
    category: Optional[str] = typer.Option(None, "--category", "-c", help="only this category"),
    exact: bool = typer.Option(False, "--exact", help="also give the probability of the maximum as a fraction"),
    json_output: bool = typer.Option(False, "--json", help="print JSON"),
) -> None:
    """One-turn odds: for each category, the expected points and the chance of its maximum when a whole
    turn is played only for it."""
    from ..registry import load_game
    from ..scorecard.odds import one_turn_odds

    g = load_game(game)
    selected = None if category is None else g.categories[g.category_index(category)].name
    rows = [r for r in one_turn_odds(g, exact=exact) if selected is None or r.category == selected]
    if json_output:
        _emit_json([dataclasses.asdict(r) for r in rows])
        return
    table = Table(title=f"{g.canonical}: one turn played only for each category")
    table.add_column("category")
    table.add_column("expected points", justify="right")
    table.add_column("max", justify="right")
    table.add_column("P(max)", justify="right")
    if exact:
        table.add_column("P(max) exactly", justify="right")
    for r in rows:
        cells = [r.category, f"{r.expected_points:.4f}", str(r.max_points), f"{r.p_max:.6f}"]
        if exact:
            cells.append(r.p_max_exact or "")
        table.add_row(*cells)
    out.print(table)


@app.command()
def simulate(
    game: str = typer.Argument(..., help=GAME_HELP),
    player: list[str] = typer.Option(["optimal"], "--player", "-p", help="a strategy (repeat to compare); see 'dicesolver players'"),
    n: int = typer.Option(10_000, "-n", "--games", min=1, max=100_000_000, help="games per player"),
    seed: int = typer.Option(0, "--seed", help="random seed (same seed, same games)"),
    plot: Optional[str] = typer.Option(None, "--plot", help="write a histogram figure (.png/.svg/.pdf)"),
    json_output: bool = typer.Option(False, "--json", help="print JSON"),
    samples: int = typer.Option(0, "--samples", min=0, max=100_000, help="despirala: play a Monte Carlo model that "
                                "averages N sampled throws per state instead of all of them (0: the exact model)"),
) -> None:
    """Play many games with one or more strategies (the same dice for all) and summarise the scores.
    Despirala: the exact model (or a Monte Carlo one, --samples N) with the seed's statistics."""
    from ..despirala.rules import DespiralaGame
    from ..registry import load_any_game

    dg = load_any_game(game)
    if isinstance(dg, DespiralaGame):
        from . import despirala as cli_despirala

        cli_despirala.simulate(dg, n, seed, samples, plot, json_output)
        return
    if samples:
        raise InputError("--samples is for despirala")
    from rich.progress import Progress

    from ..registry import load_game
    from ..scorecard.simulate import simulate as run_simulation

    g = load_game(game)
    with Progress(console=err, transient=True, disable=json_output or not err.is_terminal) as progress:
        task = progress.add_task(f"simulating {g.canonical}", total=None)
        runs = run_simulation(g, player, n=n, seed=seed,
                              progress=lambda done, total: progress.update(task, completed=done, total=total))
    if plot:
        from ..analysis.plots import save_figure, simulation_figure

        save_figure(simulation_figure(g, runs), plot)
    if json_output:
        _emit_json([dataclasses.asdict(r.summary) for r in runs])
        return
    table = Table(title=f"{g.canonical}: {n:,} games per player, seed {seed}")
    for col in ("player", "mean", "sd", "±95%", "p5", "p25", "median", "p75", "p95", "mode"):
        table.add_column(col, justify="left" if col == "player" else "right")
    if g.has_upper_bonus:
        table.add_column("bonus", justify="right")
    for r in runs:
        s = r.summary
        row = [s.player, f"{s.mean:.2f}", f"{s.sd:.2f}", f"{1.96 * s.stderr:.2f}"]
        row += [f"{s.percentiles[str(p)]:.0f}" for p in (5, 25, 50, 75, 95)] + [str(s.mode)]
        if g.has_upper_bonus:
            row.append(f"{100 * s.bonus_rate:.1f}%")
        table.add_row(*row)
    out.print(table)
    cats = Table(title="categories: how often each scores (mean points)")
    cats.add_column("category")
    for r in runs:
        cats.add_column(r.summary.player, justify="right")
    for k, cat in enumerate(g.categories):
        cats.add_row(cat.name, *[f"{100 * r.summary.categories[k].scored_rate:.1f}% ({r.summary.categories[k].mean:.2f})" for r in runs])
    out.print(cats)
    if plot:
        out.print(f"plot written to {plot}")


@app.command()
def analyze(
    record: str = typer.Argument(..., help="a game record (.jsonl), as written by 'dicesolver play'"),
    json_output: bool = typer.Option(False, "--json", help="print JSON"),
    player: int = typer.Option(0, "--player", min=0, help="which player of the record (0 = first)"),
    plot: Optional[str] = typer.Option(None, "--plot", help="write a timeline of cumulative luck and loss"),
    points: bool = typer.Option(False, "--points", help="for a record of several players: judge by expected "
                                "points instead of results"),
    mindful: bool = typer.Option(False, "--mindful", help="for a two-player game without bonuses: judge by the "
                                 "mindful model instead of the exact equity table"),
) -> None:
    """Review a recorded game: each decision's loss (with a label) and each throw's luck.

    Two-player records of games without bonuses are judged in exact equity (+1 win, 0 draw, -1 loss);
    other records of several players by the mindful model (win n-1, tie shared, loss -1, everyone
    assumed to play Maximus from then on)."""
    from rich.progress import Progress

    from ..analysis.review_any import REVIEW_EVENTS, review_figure_for, review_record
    from ..registry import read_any_record

    warnings: list[str] = []
    rec = read_any_record(record, warnings)
    for w in warnings:
        err.print(f"[yellow]warning:[/] {w}")
    with Progress(console=err, transient=True, disable=json_output or not err.is_terminal) as progress:
        def step(label: str):
            task = progress.add_task(label, total=None)
            return lambda d, t: progress.update(task, completed=d, total=t)

        kind, result = review_record(rec, player, points=points, mindful=mindful, progress=step)
    if plot:
        from ..analysis.plots import save_figure

        save_figure(review_figure_for(kind, result), plot)
    if json_output:
        emit_review_json(result, REVIEW_EVENTS.get(kind, "rolls"))
        return
    if kind == "push":
        from .pushluck import print_review as print_push_review

        print_push_review(result)
    elif kind == "despirala":
        from .despirala import print_review as print_despirala_review

        print_despirala_review(result)
    else:
        {"duel": _print_duel_review, "mindful": _print_mindful_review, "solitaire": _print_review}[kind](result)
    if plot:
        out.print(f"plot written to {plot}", highlight=False)


def _print_review(result) -> None:
    s = result.summary
    table = Table(title=f"{s.game}: review of {s.player}'s game")
    for col in ("turn", "dice", "left", "choice", "value", "best instead", "loss", ""):
        table.add_column(col, justify="right" if col in ("turn", "left", "value", "loss") else "left")
    for d in result.decisions:
        if d.options <= 1:
            continue
        best = "" if d.chosen == d.best else f"{d.best} ({d.best_value:.2f})"
        _, dice, left = d.position.split("/")
        table.add_row(str(d.turn), dice, left, f"{d.kind} {d.chosen}", f"{d.chosen_value:.2f}", best,
                      f"{d.loss:.2f}" if d.loss else "", d.label if d.loss else "", style=LABEL_STYLES.get(d.label))
    out.print(table)
    luckiest = sorted(result.rolls, key=lambda r: r.luck)
    if luckiest:
        out.print(f"unluckiest throw: turn {luckiest[0].turn} {luckiest[0].dice} ({luckiest[0].luck:+.2f}); "
                  f"luckiest: turn {luckiest[-1].turn} {luckiest[-1].dice} ({luckiest[-1].luck:+.2f})", highlight=False)
    word = "final score" if s.complete else "expected final score (unfinished game)"
    out.print(f"baseline {s.baseline:.2f} + luck {s.luck:+.2f} - loss {s.loss:.2f} = {word} {s.final_score:.2f}",
              highlight=False)
    out.print(f"{s.decisions_with_choice} decisions with a choice, mean loss {s.mean_loss:.3f}; "
              + ", ".join(f"{k}: {v}" for k, v in sorted(s.labels.items())), highlight=False)


def terminal_ask(prompt: str) -> str:
    """A line typed at the terminal; end of input stops the game (it is saved)."""
    from ..scorecard.console import QuitGame

    try:
        return out.input(prompt)
    except EOFError:
        raise QuitGame from None


def print_saved(stop: Exception, game: str, record: Optional[str]) -> None:
    out.print(f"saved in {stop.args[0] if stop.args else 'the record'}; continue with: "
              f"dicesolver play '{game}' --resume" + (f" --record {record}" if record else ""), highlight=False)


@app.command()
def play(
    game: str = typer.Argument(..., help=GAME_HELP),
    seed: Optional[int] = typer.Option(None, "--seed", help="seed for the dice (default: random, recorded)"),
    manual_dice: bool = typer.Option(False, "--manual-dice", help="type the dice you roll at a real table"),
    resume: bool = typer.Option(False, "--resume", help="continue the latest unfinished game (or --record FILE)"),
    record: Optional[str] = typer.Option(None, "--record", help="the game record file to write or resume"),
    vs: Optional[list[str]] = typer.Option(None, "--vs", help="play against a bot (repeat for up to 5 bots): malina "
                                           "(generala), mindful, joe, optimal, greedy, ...; pig/skunk: optimal, hold-at-N, "
                                           "keep-pace (see 'dicesolver players')"),
    first: str = typer.Option("random", "--first", help="who moves first against bots: you, bot (the first "
                              "bot) or random"),
) -> None:
    """Play a game in the terminal, with hints, a review at the end, and saving after every move."""
    from ..despirala.rules import DespiralaGame
    from ..pushluck.rules import PushGame
    from ..registry import load_any_game, load_game
    from ..scorecard.console import QuitGame
    from ..scorecard.console import play as play_game

    g = load_any_game(game)
    if isinstance(g, PushGame):
        from . import pushluck as cli_push

        cli_push.play(g, seed, manual_dice, resume, record, vs, first)
        return
    if isinstance(g, DespiralaGame):
        from . import despirala as cli_despirala

        cli_despirala.play(g, seed, manual_dice, resume, record, vs, first)
        return
    g = load_game(game)  # anything else must be a scorecard game (a clear error otherwise)
    solution, _ = _progress_solve(g)

    def duel_loader():
        from ..scorecard.duel import check_duel_game, load_or_solve

        try:
            check_duel_game(g)
        except InputError:
            return None
        from rich.progress import Progress

        with Progress(console=err, transient=True, disable=not err.is_terminal) as progress:
            task = progress.add_task(f"solving two-player {g.canonical} (once; cached)", total=None)
            return load_or_solve(g, progress=lambda d, t: progress.update(task, completed=d, total=t))[0]

    try:
        if vs and "malina" in [v.strip().lower() for v in vs]:
            from ..scorecard.duel import check_duel_game

            check_duel_game(g)
        rec, result, path = play_game(g, solution, out, terminal_ask, seed=seed, manual_dice=manual_dice, resume=resume,
                                      record_path=record, opponent=vs, first=first, duel_loader=duel_loader)
    except QuitGame as stop:
        print_saved(stop, g.canonical, record)
        return
    out.print(f"the game is recorded in {path}", highlight=False)
    if hasattr(result.summary, "opponent_loss"):
        _print_duel_review(result)
    elif hasattr(result.summary, "others"):
        _print_mindful_review(result)
    else:
        _print_review(result)


@dataclasses.dataclass
class DistributionReport:
    game: str
    mean: float
    sd: float
    percentiles: dict
    mode: int
    min: int
    max: int
    bonus_probability: Optional[float]
    extra_bonus_mean: Optional[float]
    category_probabilities: dict
    perfect_game_probability: float
    perfect_game_one_in: float
    probabilities: dict


@app.command()
def distribution(
    game: str = typer.Argument(..., help=GAME_HELP),
    plot: Optional[str] = typer.Option(None, "--plot", help="write the distribution's histogram (.png/.svg/.pdf)"),
    json_output: bool = typer.Option(False, "--json", help="print JSON (with every score's probability)"),
) -> None:
    """The exact final-score distribution of optimal play (no simulation): mean, SD, percentiles,
    P(upper bonus), P(each box scores) and the best probability of a perfect game."""
    from rich.progress import Progress

    from ..registry import load_game
    from ..scorecard.distribution import perfect_game_probability, score_distribution

    g = load_game(game)
    solution, _ = _progress_solve(g, quiet=json_output)
    with Progress(console=err, transient=True, disable=json_output or not err.is_terminal) as progress:
        task = progress.add_task(f"propagating {g.canonical}", total=g.n_categories)
        dist = score_distribution(solution, progress=lambda d, t: progress.update(task, completed=d, total=t))
    perfect = perfect_game_probability(solution)
    p = dist.probabilities
    support = np.nonzero(p > 0)[0]
    report = DistributionReport(
        game=g.canonical, mean=dist.mean, sd=dist.sd,
        percentiles={str(q): dist.percentile(q) for q in (1, 5, 10, 25, 50, 75, 90, 95, 99)},
        mode=dist.mode, min=int(support[0]), max=int(support[-1]),
        bonus_probability=dist.bonus_probability, extra_bonus_mean=dist.extra_bonus_mean,
        category_probabilities={c.name: float(x) for c, x in zip(g.categories, dist.category_probabilities)},
        perfect_game_probability=perfect, perfect_game_one_in=1 / perfect if perfect > 0 else float("inf"),
        probabilities={int(s): float(p[s]) for s in support},
    )
    if plot:
        from ..analysis.plots import distribution_figure, save_figure

        save_figure(distribution_figure(g, dist), plot)
    if json_output:
        _emit_json(report)
        return
    out.print(f"[bold]{g.canonical}[/]: exact final-score distribution of optimal play")
    out.print(f"mean {report.mean:.6f}  sd {report.sd:.4f}  mode {report.mode}  range {report.min}..{report.max}")
    out.print("percentiles: " + "  ".join(f"p{q} {v}" for q, v in report.percentiles.items()))
    if report.bonus_probability is not None:
        out.print(f"P(upper bonus) {report.bonus_probability:.4f}")
    if report.extra_bonus_mean is not None:
        out.print(f"extra-yacht bonuses per game {report.extra_bonus_mean:.4f}")
    table = Table(title="P(box scores more than 0)")
    table.add_column("category")
    table.add_column("probability", justify="right")
    for name, x in report.category_probabilities.items():
        table.add_row(name, f"{x:.4f}")
    out.print(table)
    out.print(f"best probability of a perfect game (every box at its maximum): {perfect:.6g} "
              f"= 1 in {report.perfect_game_one_in:.4g}")
    if plot:
        out.print(f"plot written to {plot}")


@app.command()
def compare(
    game: str = typer.Argument(..., help="a two-player game without bonuses (generala, crag, yacht, custom), "
                               "or pig, skunk, big-pig"),
    a: str = typer.Argument(..., help="strategy A: malina, mindful, maximus, joe, whatever, greedy or random; "
                            "push-your-luck: optimal, hold-at-N, keep-pace"),
    b: str = typer.Argument(..., help="strategy B"),
    exact: bool = typer.Option(True, "--exact/--no-exact", help="exact evaluation over every position"),
    json_output: bool = typer.Option(False, "--json", help="print JSON"),
) -> None:
    """Two players: the exact expected result (+1 win, 0 draw, -1 loss) of A against B, going first and
    second, with Elo equivalents; for push-your-luck games, A's exact probability of winning."""
    from rich.progress import Progress

    from ..pushluck.rules import PushGame
    from ..registry import load_any_game, load_game
    from ..scorecard.compare import compare_exact, duel_strategy
    from ..scorecard.duel import check_duel_game, load_or_solve

    g = load_any_game(game)
    if isinstance(g, PushGame):
        from . import pushluck as cli_push

        cli_push.compare(g, a, b, json_output)
        return
    g = load_game(game)  # anything else must be a scorecard game (a clear error otherwise)
    check_duel_game(g)
    duel_strategy(a, g), duel_strategy(b, g)  # unknown names fail before any long work
    if not exact:
        raise InputError("only the exact comparison is available for two players (use --exact)")
    optimal = None
    with Progress(console=err, transient=True, disable=json_output or not err.is_terminal) as progress:
        if "malina" in (a.strip().lower(), b.strip().lower()):
            task = progress.add_task(f"solving two-player {g.canonical}", total=None)
            optimal, _, _ = load_or_solve(g, progress=lambda d, t: progress.update(task, completed=d, total=t))
        task2 = progress.add_task(f"{a} against {b}", total=None)
        result = compare_exact(optimal, g, a, b, progress=lambda d, t: progress.update(task2, completed=d, total=t))
    if json_output:
        _emit_json(result)
        return
    out.print(f"[bold]{g.canonical}[/]: {result.a} against {result.b}, exactly")
    out.print(f"  going first:  {result.first:+.4f}  (Elo {result.elo_first:+.1f})")
    out.print(f"  going second: {result.second:+.4f}  (Elo {result.elo_second:+.1f})")
    out.print(f"  average:      {result.average:+.4f}  (Elo {result.elo:+.1f}); {result.seconds:.1f} s")


@app.command()
def match(
    game: str = typer.Argument(..., help=GAME_HELP),
    players: list[str] = typer.Argument(..., help="2 to 6 strategies (see 'dicesolver players'); repeats allowed"),
    n: int = typer.Option(10_000, "-n", "--games", min=1, max=100_000_000, help="games (rounded up to whole rotations)"),
    seed: int = typer.Option(0, "--seed", help="random seed (same seed, same games)"),
    plot: Optional[str] = typer.Option(None, "--plot", help="write a figure (.png/.svg/.pdf)"),
    json_output: bool = typer.Option(False, "--json", help="print JSON"),
) -> None:
    """Many games between 2-6 players, every seating order in turn and the same dice for each seat
    (common random numbers): points per game (win n-1, tie shared, loss -1) and win rates with 95%
    confidence intervals."""
    from rich.progress import Progress

    from ..despirala.rules import DespiralaGame
    from ..registry import load_any_game, load_game
    from ..scorecard.match import MatchSetup, play_match

    despirala = load_any_game(game)
    if isinstance(despirala, DespiralaGame):
        from . import despirala as cli_despirala

        cli_despirala.match(despirala, players, n, seed, json_output)
        return
    g = load_game(game)
    names = [p.strip().lower() for p in players]
    MatchSetup.check_names(g, names)  # unknown names fail before any long work
    with Progress(console=err, transient=True, disable=json_output or not err.is_terminal) as progress:
        if "mindful" in names:
            from ..scorecard.future import load_or_build

            task = progress.add_task(f"score distributions of {g.canonical}", total=None)
            load_or_build(g, progress=lambda d, t: progress.update(task, completed=d, total=t))
        if "malina" in names:
            from ..scorecard.duel import load_or_solve

            task = progress.add_task(f"solving two-player {g.canonical}", total=None)
            load_or_solve(g, progress=lambda d, t: progress.update(task, completed=d, total=t))
        task = progress.add_task(f"playing {g.canonical}", total=None)
        result = play_match(g, names, n=n, seed=seed,
                            progress=lambda d, t: progress.update(task, completed=d, total=t))
    if plot:
        from ..analysis.plots import match_figure, save_figure

        save_figure(match_figure(result), plot)
    if json_output:
        data = dataclasses.asdict(result)
        data.pop("totals")
        _emit_json(data)
        return
    table = Table(title=f"{g.canonical}: {result.games:,} games ({result.deals:,} deals x {result.rotations} "
                        f"seating orders), seed {seed}")
    for col in ("player", "points/game", "±95%", "wins", "±95%", "ties", "mean score", "sd"):
        table.add_column(col, justify="left" if col == "player" else "right")
    for p in result.players:
        table.add_row(p.player, f"{p.points_per_game:+.4f}", f"{p.points_ci95:.4f}", f"{100 * p.win_rate:.2f}%",
                      f"{100 * p.win_ci95:.2f}%", f"{100 * p.tie_rate:.2f}%", f"{p.mean_score:.2f}", f"{p.score_sd:.2f}")
    out.print(table)
    if plot:
        out.print(f"plot written to {plot}")


def _print_equity_decisions(result, title: str, value_name: str) -> None:
    """The decisions of a review in results (two players exactly, or the mindful model)."""
    table = Table(title=title)
    for col in ("turn", "dice", "left", "choice", value_name, "best instead", "loss", ""):
        table.add_column(col, justify="right" if col in ("turn", "left", value_name, "loss") else "left")
    for d in result.decisions:
        if d.options <= 1:
            continue
        _, dice, left = d.position.split("/")
        best = "" if d.chosen == d.best else f"{d.best} ({d.best_value:+.3f})"
        table.add_row(str(d.turn), dice, left, f"{d.kind} {d.chosen}", f"{d.chosen_value:+.3f}", best,
                      f"{d.loss:.3f}" if d.loss else "", d.label if d.loss else "", style=LABEL_STYLES.get(d.label))
    out.print(table)
    s = result.summary
    out.print(f"{s.decisions_with_choice} decisions with a choice, mean loss {s.mean_loss:.4f}; "
              + ", ".join(f"{k}: {v}" for k, v in sorted(s.labels.items())))


def _print_mindful_review(result) -> None:
    s = result.summary
    others = ", ".join(p for i, p in enumerate(s.players) if i != s.seat)
    _print_equity_decisions(result, f"{s.game}: review of {s.player}'s game against {others} (mindful model: "
                                    f"win {len(s.players) - 1}, loss -1)", "value")
    word = "result" if s.complete else "value now (unfinished game)"
    out.print(f"baseline {s.baseline:+.3f} + luck {s.luck:+.3f} - your loss {s.loss:.3f} + the others' turns "
              f"{s.others:+.3f} = {word} {s.result:+.3f}")


def _print_duel_review(result) -> None:
    s = result.summary
    _print_equity_decisions(result, f"{s.game}: review of {s.player}'s game against {s.opponent} (equity)", "equity")
    word = "result" if s.complete else "equity now (unfinished game)"
    out.print(f"baseline {s.baseline:+.3f} + luck {s.luck:+.3f} - your loss {s.loss:.3f} + "
              f"{s.opponent}'s loss {s.opponent_loss:.3f} = {word} {s.result:+.3f}")


@app.command()
def chart(
    game: str = typer.Argument(..., help="pig, skunk or big-pig (with goal=N / faces=N)"),
    me: Optional[int] = typer.Option(None, "--me", help="only the rows with this score of mine"),
    them: Optional[int] = typer.Option(None, "--them", help="only the rows with this opponent's score"),
    png: Optional[str] = typer.Option(None, "--png", help="also draw the chart (win probability, hold totals, "
                                      "throw/hold regions) to this .png/.svg/.pdf"),
    json_output: bool = typer.Option(False, "--json", help="print JSON"),
) -> None:
    """The strategy chart of a push-your-luck game (seed 003): for each (my score, opponent's score) the
    probability of winning at the start of my turn and the turn totals where the best action switches."""
    from ..pushluck.rules import PushGame
    from ..registry import load_any_game

    g = load_any_game(game)
    if not isinstance(g, PushGame):
        raise InputError(f"chart is for push-your-luck games (pig, skunk, big-pig), not {g.canonical}")
    from . import pushluck as cli_push

    cli_push.chart(g, me, them, png, json_output)


@app.command()
def players() -> None:
    """List the strategies a player can be."""
    from ..despirala.players import DESPIRALA_STRATEGIES
    from ..pushluck.players import PUSH_STRATEGIES
    from ..scorecard.compare import DUEL_STRATEGIES
    from ..scorecard.match import MATCH_STRATEGIES
    from ..scorecard.players import STRATEGIES

    scorecard = dict(STRATEGIES, joe="the Generala essay's closest-pattern player (play --vs, compare, match)")
    for title, items in (
        ("Strategies for scorecard games (simulate -p, play --vs)", scorecard),
        ("Also for matches of 2-6 players (match GAME P1 P2 ...)",
         {name: MATCH_STRATEGIES[name] for name in ("maximus", "mindful", "malina")}),
        ("Two-player strategies (compare GAME A B --exact, play --vs) for games without bonuses", DUEL_STRATEGIES),
        ("Push-your-luck strategies (pig, skunk, big-pig: compare, play --vs)", PUSH_STRATEGIES),
        ("Despirala strategies (play --vs, match despirala A B)", DESPIRALA_STRATEGIES),
    ):
        table = Table(title=title)
        table.add_column("name")
        table.add_column("plays")
        for name, text in items.items():
            table.add_row(name, text)
        out.print(table)


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on (default: this machine only)"),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="port"),
) -> None:
    """Serve the web app (advisor, play, review, explore) and its JSON API (schema at /docs)."""
    from ..web.app import serve as run_server

    out.print(f"dicesolver at http://{host}:{port}/ (API schema at /docs); Ctrl-C stops", highlight=False)
    run_server(host, port)


@app.command()
def replay(
    record: str = typer.Argument(..., help="a game record (.jsonl), as written by 'dicesolver play'"),
    json_output: bool = typer.Option(False, "--json", help="print JSON"),
) -> None:
    """Replay a recorded game event by event (checked against the rules), with the scores at the end."""
    from ..despirala.records import DespiralaRecord
    from ..pushluck.records import PushRecord
    from ..registry import read_any_record

    warnings: list[str] = []
    rec = read_any_record(record, warnings)
    for w in warnings:
        err.print(f"[yellow]warning:[/] {w}")
    if isinstance(rec, DespiralaRecord):
        from . import despirala as cli_despirala

        cli_despirala.replay(rec, json_output)
        return
    if isinstance(rec, PushRecord):
        from . import pushluck as cli_push

        cli_push.replay(rec, json_output)
        return
    _replay_scorecard(rec, json_output)


def _replay_scorecard(rec, json_output: bool) -> None:
    from ..core.dice import format_dice
    from ..scorecard.records import replay as replay_positions

    positions = replay_positions(rec)[0]
    lines = []
    for e in rec.events:
        who = rec.players[e.player]
        if e.type == "roll":
            lines.append(f"turn {e.turn}: {who} rolls {format_dice(e.dice)}")
        elif e.type == "keep":
            lines.append(f"turn {e.turn}: {who} keeps {format_dice(e.keep) if e.keep else 'nothing'}")
        else:
            lines.append(f"turn {e.turn}: {who} scores {e.points} in {rec.game.categories[e.category].name}")
    scores = {name: int(p.total(rec.game)) for name, p in zip(rec.players, positions)}
    if json_output:
        _emit_json({"game": rec.game.canonical, "players": rec.players, "over": rec.is_over(), "events": lines,
                    "scores": scores})
        return
    for line in lines:
        out.print(line, highlight=False)
    out.print(("final scores: " if rec.is_over() else "scores so far (unfinished): ")
              + ", ".join(f"{n} {v}" for n, v in scores.items()), highlight=False)


def main(argv: list[str] | None = None) -> None:
    """Entry point: exits 0 on success, 2 on a usage or input error, 130 when interrupted."""
    try:
        app(args=argv, prog_name="dicesolver")
    except DicesolverError as exc:
        err.print(f"[red]error:[/] {exc}", highlight=False, soft_wrap=True)
        sys.exit(2)
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
