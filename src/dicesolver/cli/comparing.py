"""Commands that pit strategies against each other: simulate, compare, match."""

from __future__ import annotations

import sys
from typing import Optional

import typer

from ..core.errors import InputError
from .base import GAME_HELP, JSON_HELP, app, emit, err, game_argument, lazy_module, needs_plot, out, progress, report

matches = lazy_module("dicesolver.analysis.match")
plots = lazy_module("dicesolver.analysis.plots")  # matplotlib, loaded only to draw a --plot
registry = lazy_module("dicesolver.core.registry")
render = lazy_module("dicesolver.terminal.render")
simulation = lazy_module("dicesolver.analysis.simulate")


@app.command()
def simulate(
    game: str = game_argument(),
    player: list[str] = typer.Option(["optimal"], "--player", "-p", help="a strategy (repeat to compare); "
                                     "see 'dicesolver players GAME'"),
    n: int = typer.Option(10_000, "-n", "--games", min=1, max=100_000_000, help="games per player"),
    seed: int = typer.Option(0, "--seed", help="random seed (same seed, same games)"),
    plot: Optional[str] = typer.Option(None, "--plot", callback=needs_plot,
                                       help="write a histogram figure (.png/.svg/.pdf)"),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
    samples: int = typer.Option(0, "--samples", min=0, max=100_000, help="despirala: play a Monte Carlo model that "
                                "averages N sampled throws per state instead of all of them (0: the exact model)"),
) -> None:
    """Play many one-player games with one or more strategies (the same dice for all) and summarise the
    scores. Despirala: the exact model, or a Monte Carlo one with --samples N."""
    g = registry.load(game)
    with progress(f"simulating {g.canonical}") as update:
        runs = simulation.simulate(g, player, n=n, seed=seed, samples=samples, progress=update)
    summaries = [r.summary for r in runs]
    report(summaries, lambda: render.simulation(out, summaries, f"{g.canonical}: {n:,} games per player, seed {seed}"),
           json_output, plot, lambda: plots.simulation_figure(g, runs))


@app.command()
def compare(
    game: str = typer.Argument(..., help="a two-player game: generala, yacht, a rules file without bonuses, or pig, "
                               "skunk, big-pig"),
    a: str = typer.Argument(..., help="strategy A (see 'dicesolver players GAME')"),
    b: str = typer.Argument(..., help="strategy B"),
    exact: bool = typer.Option(True, "--exact/--no-exact", help="exact evaluation over every position"),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Two players: A's exact expected result against B (equity: +1 win, 0 draw, -1 loss; or probability of
    winning), going first and second, with Elo equivalents."""
    if not exact:
        raise InputError("only the exact comparison is available for two players (use --exact)")
    g = registry.load(game)
    with progress(f"{a} against {b}") as update:
        result = registry.family_of(g).compare(g, a, b, progress=update)
    if json_output:
        emit(result)
        return
    render.comparison(out, result)


@app.command()
def facts(
    game: str = typer.Argument(..., help="a two-player game with an exact table: generala, yacht, crag, a rules "
                               "file without bonuses"),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """How the perfect two-player strategy plays, exactly: how often it scores a box 0 (and waives one that
    could have scored), and the opening rolls where it keeps other dice than Maximus."""
    g = registry.load(game)
    with progress(f"{g.canonical}: strategy facts") as update:
        result = registry.family_of(g).strategy_facts(g, progress=update)
    if json_output:
        emit(result)
        return
    render.strategy_facts(out, result)


@app.command()
def match(
    game: str = game_argument(),
    players: list[str] = typer.Argument(..., help="2 to 6 strategies (see 'dicesolver players GAME'); repeats allowed"),
    n: int = typer.Option(10_000, "-n", "--games", min=1, max=100_000_000, help="games (rounded up to whole rotations)"),
    seed: int = typer.Option(0, "--seed", help="random seed (same seed, same games)"),
    plot: Optional[str] = typer.Option(None, "--plot", callback=needs_plot, help="write a figure (.png/.svg/.pdf)"),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Many games between 2-6 bots, every seating order in turn and the same dice for each seat (common random
    numbers): points per game (win n-1, tie shared, loss -1), wins and games won by seat, with 95% intervals."""
    g = registry.load(game)
    with progress(f"playing {g.canonical}") as update:
        result, games = matches.match(g, players, n=n, seed=seed, progress=update)
    report(result, lambda: render.match(out, result), json_output, plot, lambda: plots.match_figure(result, games))


@app.command("rl-eval")
def rl_eval(
    game: str = game_argument(help="a one-player game: " + GAME_HELP),
    policy: str = typer.Option(..., "--policy", help="'random', 'optimal', FILE.py:NAME or MODULE:NAME (a function "
                               "obs -> action, or an object with predict(obs, action_masks=...)), or a saved "
                               "MaskablePPO FILE.zip (with sb3-contrib installed)"),
    n: int = typer.Option(1000, "-n", "--games", min=1, max=1_000_000, help="games"),
    seed: int = typer.Option(0, "--seed", help="random seed (the same dice for the policy and the optimal player)"),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Judge a reinforcement-learning policy in the game's Gymnasium env (dicesolver.rl): its mean score with
    an interval, the optimal player's on the same seeds, and its exact regret per decision."""
    from .. import rl

    chosen = "optimal" if policy == "optimal" else rl.load_policy(policy)
    with progress(f"playing {n:,} games of {game} with {policy} and the optimal player") as update:
        result = rl.evaluate(chosen, game, n=n, seed=seed, name=policy, progress=update)
    if json_output:
        emit(result)
        return
    render.policy_evaluation(out, result)


@app.command()
def label(
    game: str = game_argument(),
    n: int = typer.Option(100_000, "-n", "--rows", min=1, max=1_000_000_000, help="situations to write"),
    source: str = typer.Option("optimal", "--source", help="who plays the sampled games: optimal, perturbed "
                               "(the best option, or with probability --perturb any legal one) or uniform"),
    perturb: float = typer.Option(0.1, "--perturb", min=0.0, max=1.0, help="perturbed: the chance of a uniform move"),
    seed: int = typer.Option(0, "--seed", help="random seed (same seed, same rows)"),
    output: str = typer.Option(..., "--out", "-o", help="FILE.parquet (with pyarrow: the 'parquet' extra), "
                               "FILE.jsonl, or - for JSON Lines on standard output"),
    players: Optional[int] = typer.Option(None, "--players", min=1, max=6, help="how many play (default: the "
                                          "game's usual number)"),
    judge: Optional[str] = typer.Option(None, "--judge", help="the solution that labels (exact, mindful, points; "
                                        "as the game has them)"),
    json_output: bool = typer.Option(False, "--json", help="the summary (game, rows, file, seconds) as JSON"),
) -> None:
    """Write a labelled dataset: the decisions of sampled games, each with every legal option's code,
    value and cost ('dicesolver docs schema'), for learning."""
    import time

    from ..analysis import label_files, labels

    labels.check_source(source, perturb)
    kind = label_files.format_of(output)
    g = registry.load(game, players)
    with progress(f"solving {g.canonical}") as update:
        solution = registry.solve(g, judge=judge, progress=update)
        label_files.warm_up(solution, n, source, perturb, kind)
    about = label_files.metadata(solution, source, perturb, seed)
    began = time.perf_counter()
    chunks = labels.sample(solution, n, source, perturb, seed)
    with progress(f"labelling {n:,} situations of {g.canonical}") as update:
        if output == label_files.STDOUT:  # the rows are the output: the summary goes to stderr
            rows = label_files.stream(sys.stdout.buffer, solution, chunks, about, lambda done: update(done, n))
        else:
            rows = label_files.write(output, solution, chunks, about, lambda done: update(done, n))
    seconds = time.perf_counter() - began
    summary = {"game": g.canonical, "rows": rows, "source": source, "judge": solution.judge, "out": output,
               "seconds": round(seconds, 3)}
    if json_output and output != label_files.STDOUT:
        emit(summary)
        return
    (err if output == label_files.STDOUT else out).print(
        f"{g.canonical}: {rows:,} situations ({source} play, judged by {solution.judge_words}) written to "
        f"{'standard output' if output == label_files.STDOUT else output} in {seconds:.1f} s "
        f"({rows / max(seconds, 1e-9):,.0f}/s)", highlight=False)
