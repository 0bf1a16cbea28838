"""Commands around a game played: play (in the terminal), replay and analyze a record."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer
from rich.text import Text

from ..core.aims import check_theta, theta_player
from ..core.errors import InputError
from .base import (GAME_HELP, JSON_HELP, app, emit, err, game_argument, lazy_module, needs_plot, out, progress, report,
                   save_plot, warn)

if TYPE_CHECKING:
    from ..core.solved import SolvedGame

console = lazy_module("dicesolver.terminal.console")
plots = lazy_module("dicesolver.analysis.plots")  # matplotlib, loaded only to draw a --plot
registry = lazy_module("dicesolver.core.registry")
render = lazy_module("dicesolver.terminal.render")
sessions = lazy_module("dicesolver.play.session")
trainer = lazy_module("dicesolver.terminal.trainer")
training = lazy_module("dicesolver.core.training")


def judge_of(points: bool, mindful: bool, judge: Optional[str]) -> Optional[str]:
    if sum(map(bool, (points, mindful, judge))) > 1:
        raise InputError("choose one of --points, --mindful and --judge")
    return "points" if points else "mindful" if mindful else judge


def solution_of(game, judge: Optional[str] = None, quiet: bool = False) -> SolvedGame:
    """A game's solution, with a progress bar while its tables are built."""
    with progress(f"solving {game.canonical} for {game.n_players} (once; cached)", quiet=quiet) as update:
        return registry.family_of(game).solve(game, judge=judge, progress=update, on_problem=warn)


@app.command()
def analyze(
    record: str = typer.Argument(..., help="a game record (.jsonl), as written by 'dicesolver play'"),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
    player: int = typer.Option(0, "--player", min=0, help="which player of the record (0 = the first listed)"),
    plot: Optional[str] = typer.Option(None, "--plot", callback=needs_plot,
                                       help="write the timeline: value, cumulative luck and loss"),
    points: bool = typer.Option(False, "--points", help="several players: judge each by expected points alone"),
    mindful: bool = typer.Option(False, "--mindful", help="two players: judge by the mindful model instead of the "
                                 "exact table"),
    judge: Optional[str] = typer.Option(None, "--judge", help="the solution that judges (exact, mindful, points)"),
    explain: bool = typer.Option(False, "--explain", help="then the costliest decisions, each with why the best "
                                 "beat the move made (aspect by aspect where the judge can say)"),
    theta: Optional[float] = typer.Option(None, "--theta", help="judge by the certainty equivalent of this risk "
                                          "appetite (-1 to 1; see solve --theta): each player by their own card"),
) -> None:
    """Review a recorded game: each decision's loss (with a label) and each throw's luck, in the value of the
    game's solution: expected final score (one player), exact equity (two players of a game without
    bonuses), the mindful model's expected result (more players), the probability of winning, or with --theta
    the certainty equivalent."""
    warnings: list[str] = []
    playthrough = registry.read_record(record, warnings)
    for w in warnings:
        warn(w)
    if theta is not None:
        if judge_of(points, mindful, judge) is not None or explain:
            raise InputError("--theta is its own judge: give it without --points, --mindful, --judge or --explain")
        with progress(f"{playthrough.game.canonical}: the best certainty equivalent for theta={theta:g} (once; cached)"
                      ) as update:
            solution = registry.solve(playthrough.game, theta=theta, progress=update)
    else:
        solution = solution_of(playthrough.game, judge_of(points, mindful, judge))
    result = solution.review(playthrough, player)
    if explain and json_output:
        raise InputError("--explain is for reading; --json has every decision already")
    report(result, lambda: render.review(out, result), json_output, plot, lambda: plots.review_figure(result))
    if result.tutor and not json_output:  # a game played with the tutor: its warnings, heeded or not
        render.tutor_warnings(out, result)
    if result.summary.rating is None and result.summary.decisions_with_choice and not json_output:
        say_unrated(solution)
    if explain:
        from ..core.why import lessons

        with progress(f"{playthrough.game.canonical}: splitting values by what produces them (once; cached)") as update:
            solution.prepare_explain(update)
            taught = lessons(solution, result)
        render.lessons(out, taught)


def say_unrated(solution: SolvedGame) -> None:
    """Where a review or a session has no rating: how to place the game's scale (once; a judge of several players
    answers slowly, so nothing measures it unasked)."""
    if registry.family_of(solution.game).rating_bots:
        players = f" --players {solution.game.n_players}" if solution.game.n_players > 1 else ""
        render.say(err, f"no rating yet: dicesolver rating {solution.game.canonical}{players} places this game's "
                        "scale by its bots (once; cached)")


def place_scale(solution: SolvedGame) -> None:
    """The game's rating scale, measured now with a progress line where it is neither shipped nor cached."""
    from ..core import calibration

    with progress(f"{solution.game.canonical}: placing the rating scale by its bots (once; cached)"):
        try:
            calibration.scale(solution)
        except InputError:  # no scale for this game: the review says no rating
            pass


@app.command()
def rating(
    game: str = game_argument(),
    players: Optional[int] = typer.Option(None, "--players", min=1, max=6, help="how many play (default: the "
                                          "game's usual number)"),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """The game's rating scale: the level each mean loss per decision stands at (review and train say yours),
    placed by three of the game's bots, each playing its own games on fixed dice."""
    from rich.table import Table

    from ..core import calibration
    from ..core import rating as ratings

    solution = solution_of(registry.load(game, players))
    place_scale(solution)
    scale = calibration.scale(solution)
    if json_output:
        emit({"game": scale.game, "unit": scale.unit, "bands": [{"level": level, "from": low, "below": high}
                                                                for level, low, high in scale.rows()],
              "anchors": [{"bot": bot, "level": level, "mean_loss": loss} for bot, level, loss in scale.anchors]})
        return
    table = Table(title=f"{scale.game}: rating by mean loss per decision ({solution.unit_words}; lower is better)")
    for col in ("level", "from", "below"):
        table.add_column(col, justify="left" if col == "level" else "right")
    for level, low, high in scale.rows():
        if level == ratings.PERFECT:
            table.add_row(level, "no loss at all", "")
        else:
            table.add_row(level, f"{low:.4g}", "" if high is None else f"{high:.4g}")
    out.print(table)
    render.say(out, "placed by " + ", ".join(f"{bot} ({level}: {loss:.4g} a decision)"
                                             for bot, level, loss in scale.anchors)
               + f", each over {ratings.CALIBRATION_GAMES} games")


@app.command()
def appetite(
    records: list[str] = typer.Argument(..., help="game records (.jsonl) of one game, as written by 'dicesolver play'"),
    player: int = typer.Option(0, "--player", min=0, help="which player of each record (0 = the first listed)"),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
    plot: Optional[str] = typer.Option(None, "--plot", callback=needs_plot,
                                       help="write the likelihood of each theta (.png/.svg/.pdf)"),
) -> None:
    """The risk appetite your choices reveal: the theta (see solve --theta) whose strategy best explains your
    decisions in the records, with a 95% interval, said in words (scorecard games)."""
    from ..analysis.appetite import appetite as estimate

    warnings: list[str] = []
    playthroughs = [registry.read_record(path, warnings) for path in records]
    for w in warnings:
        warn(w)
    game = playthroughs[0].game
    with progress(f"{game.canonical}: every decision under each risk appetite's strategy (once each; cached)"
                  ) as update:
        result = estimate(playthroughs, player, progress=update)
    report(result, lambda: render.appetite(out, result), json_output, plot, lambda: plots.appetite_figure(result))


@app.command()
def replay(
    record: str = typer.Argument(..., help="a game record (.jsonl), as written by 'dicesolver play'"),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Retell a recorded game step by step (checked against the rules), with the scores at the end."""
    warnings: list[str] = []
    playthrough = registry.read_record(record, warnings)
    for w in warnings:
        warn(w)
    family = registry.family_of(playthrough.game)
    states = playthrough.states
    names = [playthrough.name(s) for s in range(playthrough.game.n_players)]
    lines, shown = [], []  # the steps told, and with each new turn's heading (for the terminal)
    turn = None
    for i, step in enumerate(playthrough.steps):
        before, after = states[i], states[i + 1]
        if before.turn_key() != turn:
            turn = before.turn_key()
            shown += family.scene(before, names).turn_start
        lines.append(family.scene(after, names, last=(before, step)).narration or str(step))
        shown.append("  " + lines[-1])
    final = states[-1]
    scores = dict(zip(names, family.totals(final)))
    over = final.is_terminal()
    if json_output:
        emit({"game": playthrough.game.canonical, "players": playthrough.players, "over": over, "events": lines,
              "scores": scores})
        return
    for line in shown:
        render.say(out, line)
    render.say(out, ("final scores: " if over else "scores so far (unfinished): ")
               + ", ".join(f"{n} {v}" for n, v in scores.items()))


def read_line(prompt: str, stop: type[Exception]) -> str:
    """A line typed at the terminal; the end of input raises ``stop`` (a game is saved, a training session
    keeps what was answered)."""
    try:
        return out.input(Text(prompt))
    except EOFError:
        raise stop from None



@app.command()
def train(
    game: str = game_argument(),
    questions: int = typer.Option(10, "-n", "--questions", min=1, max=200, help="positions to answer"),
    players: Optional[int] = typer.Option(None, "--players", min=1, max=6, help="how many play (default: the "
                                          "game's usual number)"),
    seed: Optional[int] = typer.Option(None, "--seed", help="which positions are drawn (default: new ones each "
                                       "session)"),
    from_records: Optional[list[str]] = typer.Option(None, "--from", help="a record of a game you played: the "
                                                     "decisions you lost on join your deck of mistakes, the game "
                                                     "your proficiency (repeat for several)"),
    history: bool = typer.Option(False, "--history", help="show your proficiency so far instead of training"),
    plot: Optional[str] = typer.Option(None, "--plot", callback=needs_plot,
                                       help="with --history: draw it (.png/.svg/.pdf)"),
    theta: Optional[float] = typer.Option(None, "--theta", help="judge the answers by the certainty equivalent of "
                                          "this risk appetite (-1 to 1; see solve --theta; a history and a deck "
                                          "of their own)"),
    json_output: bool = typer.Option(False, "--json", help="the session's result (or with --history every "
                                     "session's) as JSON"),
) -> None:
    """Train on positions players meet: answer each as you would play it, then see its cost, the best option
    and why. Each session's proficiency (the mean loss per decision, as a review counts it) is kept, and the
    positions you get wrong are asked again until you answer them right twice."""
    g = registry.load(game, players)
    goal = theta_player(check_theta(theta)) if theta is not None else ""  # its own record: losses compare within it
    for path in from_records or []:
        playthrough = registry.read_record(path)
        if playthrough.game.canonical != g.canonical:
            raise InputError(f"{path} is a game of {playthrough.game.canonical}, not {g.canonical}")
        g = playthrough.game
        seat = playthrough.players.index("you") if "you" in playthrough.players else 0
        with progress(f"reviewing {path}") as update:
            review = registry.solve(g, progress=update, theta=theta).review(playthrough, seat)
        added = training.TrainingRecord.load(g, goal=goal).add_review(g, review, Path(path).name)
        render.say(err if json_output else out, f"{path}: {playthrough.players[seat]} lost {review.summary.loss:.3g} in "
                        f"{review.summary.decisions_with_choice} decisions; {added} joined your deck of mistakes")
    if history:
        record = training.TrainingRecord.load(g, goal=goal)
        if plot:
            save_plot(lambda: plots.training_figure(g.canonical, record.sessions), plot)
        if json_output:
            emit([dataclasses.asdict(s) for s in record.sessions])
            return
        if record.sessions:
            out.print(trainer.history_table(record.sessions))
        else:
            render.say(out, f"no training sessions of {g.canonical} yet: dicesolver train {game} asks the first")
        count = len(record.mistakes)
        render.say(out, f"{count} position{'s' if count != 1 else ''} in your deck of mistakes")
        return
    if plot:
        raise InputError("--plot goes with --history")
    with progress(f"solving {g.canonical} (once; cached)") as update:
        solution = registry.solve(g, progress=update, theta=theta)
    if solution.explains:  # what says why after a wrong answer, made now rather than after the first one
        with progress(f"{g.canonical}: splitting values by what produces them (once; cached)") as update:
            solution.prepare_explain(update)
    drawn = seed if seed is not None else int(time.time() * 1000) % 2**31
    result = trainer.train(g, solution, out, lambda prompt: read_line(prompt, trainer.StopTraining), questions, drawn,
                           goal)
    if json_output and result is not None:
        emit(dataclasses.asdict(result))


@app.command()
def play(
    game: str = game_argument(),
    seed: Optional[int] = typer.Option(None, "--seed", help="seed for the dice (default: random, recorded)"),
    manual_dice: bool = typer.Option(False, "--manual-dice", help="type the dice you roll at a real table"),
    resume: bool = typer.Option(False, "--resume", help="continue the latest unfinished game (or --record FILE)"),
    record: Optional[str] = typer.Option(None, "--record", help="the game record file to write or resume"),
    vs: Optional[list[str]] = typer.Option(None, "--vs", help="play against a bot (repeat for up to five bots; two "
                                           "in all for pig, skunk, big-pig); 'dicesolver players GAME' lists them"),
    first: str = typer.Option("random", "--first", help="who moves first against bots: you, bot (the first bot) "
                              "or random"),
    tutor: Optional[str] = typer.Option(None, "--tutor", metavar="[THRESHOLD]",
                                        help="warn before a move that costs more than THRESHOLD (in the game's "
                                        "unit; alone: 1 point, or 1 percentage point of a chance), with the "
                                        "better move and why: take it back or play it anyway"),
    json_output: bool = typer.Option(False, "--json", help="the review at the end as JSON (the game itself is "
                                     "played on the terminal)"),
) -> None:
    """Play a game in the terminal, with hints, a review at the end, and saving after every move."""
    g = registry.load(game)
    if resume:
        warnings: list[str] = []
        session = sessions.Session.resume(g, record, warnings)
        for w in warnings:
            warn(w)
        render.say(out, f"resuming {session.path}")
    else:
        if vs:
            with progress("preparing the bots (their tables are built once, then cached)") as update:
                session = sessions.Session.new(g, list(vs), seed=seed, manual_dice=manual_dice, first=first,
                                               path=record, progress=update)
        else:  # alone at the table: no bot to prepare
            session = sessions.Session.new(g, [], seed=seed, manual_dice=manual_dice, first=first, path=record)
        render.say(out, f"recording to {session.path} (seed {session.playthrough.seed}); type help for the commands")
    solution = solution_of(session.game)
    threshold = None if tutor is None else console.tutor_threshold(solution.unit, None if tutor == "auto" else _cost(tutor))
    if threshold is not None and solution.explains:  # what says why in a warning, made now, not at the first one
        with progress(f"{session.game.canonical}: splitting values by what produces them (once; cached)") as update:
            solution.prepare_explain(update)
    try:
        result = console.play(session, solution, out, lambda prompt: read_line(prompt, console.QuitGame),
                              tutor=threshold)
    except console.QuitGame:
        canonical = session.game.canonical
        render.say(out, f"saved in {session.path}; continue with: dicesolver play '{canonical}' --resume"
                        + (f" --record {record}" if record else ""))
        return
    if json_output:
        emit(result)
        return
    render.say(out, f"the game is recorded in {session.path}")
    render.review(out, result)
    if threshold is not None:
        render.tutor_warnings(out, result)


def _cost(text: str) -> float:
    """--tutor's threshold: a cost of 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"--tutor {text!r}: a threshold is a number (a cost in the game's unit)") from None
    if not value >= 0:
        raise InputError(f"--tutor {text!r}: a threshold is 0 or more")
    return value
