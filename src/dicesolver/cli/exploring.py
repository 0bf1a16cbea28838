"""Commands that look at a game: games, rules, players, solve, advise, odds, distribution, chart, schema."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import sys
from pathlib import Path
from typing import Iterable, Optional

import typer
from rich.table import Table
from rich.text import Text

from ..core.errors import DicesolverError, InputError
from ..core.extras import need
from .base import (FIELD_HELP, FIELD_SCORES_HELP, GAME_HELP, JSON_HELP, PERCENTILE_HELP, app, emit, game_argument,
                   goal_of, lazy_module, needs_plot, out, progress, report, save_plot, warn)

aims = lazy_module("dicesolver.core.aims")
distributed = lazy_module("dicesolver.core.distributed")
plots = lazy_module("dicesolver.analysis.plots")  # matplotlib, loaded only to draw a --plot
registry = lazy_module("dicesolver.core.registry")
render = lazy_module("dicesolver.terminal.render")
tables = lazy_module("dicesolver.core.tables")


@app.command()
def games(json_output: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """List the games, their variants and parameters."""
    rows = [(f, row) for f in registry.families() for row in f.catalog()]
    if json_output:
        emit([row for _, row in rows])
        return
    for family in registry.families():
        table = Table(title=family.title)
        for col in ("game", "dice", "players", "variants (default first) or parameters"):
            table.add_column(col)
        for f, row in rows:
            if f is not family:
                continue
            variants = "; ".join(f"{k}={'|'.join([v['default']] + [x for x in v['values'] if x != v['default']])}"
                                 for k, v in row.get("variants", {}).items())
            table.add_row(row["name"], f"{row['dice']}d{row['faces']}", row["players"],
                          variants or row.get("parameters", "") or "-")
        out.print(table)
    render.say(out, "Any of them, or a .toml rules file, wherever GAME is asked.")


@app.command()
def rules(game: str = game_argument(),
          json_output: bool = typer.Option(False, "--json", help="the rules, and the variants the game string may "
                                           "set, as JSON")) -> None:
    """Show the rules of a game in words."""
    g = registry.load(game)
    if json_output:
        family = registry.family_of(g)
        base = g.canonical.split("(", 1)[0]
        emit({"game": g.canonical, "title": g.title, "family": family.name, "players": g.n_players,
              "rules": list(g.describe()),
              "variants": [dataclasses.asdict(v) for v in family.variants(base)] if family.owns(base) else []})
        return
    out.print(Text(g.canonical, style="bold"))
    for line in g.describe():
        render.say(out, line)


@app.command()
def players(game: Optional[str] = typer.Argument(None, help="only this game's bots"),
            json_output: bool = typer.Option(False, "--json", help="{family: {bot: what it plays}} as JSON")) -> None:
    """List the bots each game can be played against (play --vs, simulate -p, compare, match)."""
    families = [registry.family_of(registry.load(game))] if game else list(registry.families())
    if json_output:
        emit({family.name: family.players(registry.load(game) if game else registry.load(family.names()[0]))
              for family in families})
        return
    for family in families:
        g = registry.load(game) if game else registry.load(family.names()[0])
        table = Table(title=f"{family.title}: bots")
        table.add_column("name")
        table.add_column("plays")
        for name, text in family.players(g).items():
            table.add_row(name, text)
        out.print(table)


@app.command()
def solve(
    game: str = game_argument(),
    players_: Optional[int] = typer.Option(None, "--players", min=1, max=6, help="how many play (default: the game's "
                                           "usual number); two-player scorecard games without bonuses are solved "
                                           "exactly"),
    judge: Optional[str] = typer.Option(None, "--judge", help="the solution that judges: exact, mindful or points "
                                        "(as the game has them); --players 2 --judge exact builds the exact "
                                        "two-player table of yacht or crag (default: exact where it is quick or "
                                        "already solved)"),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP + " (key 'value': the start's value)"),
    rebuild: bool = typer.Option(False, "--rebuild", help="solve again even if a sound table is cached"),
    verify: bool = typer.Option(False, "--verify", help="checksum the cached table (big tables are checksummed "
                                "only when written) and solve again if it is corrupt"),
    dask: Optional[str] = typer.Option(None, "--dask", help="solve an exact two-person table on dask.distributed: "
                                       + "'local:N' (N worker processes on this machine) or 'tcp://HOST:PORT' (a "
                                       "running scheduler; 'dicesolver docs dask')"),
    dask_storage: Optional[Path] = typer.Option(None, "--dask-storage", help="with --dask: the directory for the "
                                                "levels' blocks, seen by every worker under the same path "
                                                "(default: beside the table; required for tcp://)"),
    target: Optional[int] = typer.Option(None, "--target", help="play for at least this many points instead (at "
                                         "most, misere Despirala): the best chance of reaching them (solitaire "
                                         "scorecard games, Despirala)"),
    theta: Optional[float] = typer.Option(None, "--theta", help="a risk appetite from -1 to 1: play for the "
                                          "certainty equivalent ln E[exp(theta X)] / theta of the final score X "
                                          "(> 0 seeks risk, < 0 avoids it, 0 the mean; scorecard games and "
                                          "Despirala)"),
    beat: Optional[int] = typer.Option(None, "--beat", help="play for more than this score, a tie counting half"),
    field: Optional[int] = typer.Option(None, "--field", help=FIELD_HELP),
    field_scores: Optional[str] = typer.Option(None, "--field-scores", help=FIELD_SCORES_HELP),
    percentile: Optional[float] = typer.Option(None, "--percentile", help=PERCENTILE_HELP),
) -> None:
    """Solve a game exactly (or load its cached table): the value of the start with best play, for the first
    player: the expected final score, the equity, the probability of winning, or with a goal (--theta,
    --target, --beat, --field) what that goal values: the certainty equivalent, the best chance."""
    if dask_storage is not None and dask is None:
        raise InputError("--dask-storage goes with --dask")
    cluster = distributed.parse_cluster(dask, dask_storage) if dask is not None else None
    g = registry.load(game, players_)
    family = registry.family_of(g)
    goal = goal_of(target, beat, theta, field, field_scores, percentile)
    if goal is not None and (judge is not None or dask is not None or rebuild or verify):
        raise InputError(f"a goal ({goal.text()}) goes alone (no --judge, --dask, --rebuild or --verify)")
    if isinstance(goal, aims.RiskAppetite):
        with progress(f"{g.canonical}: the best certainty equivalent for theta={goal.theta:g} (once; cached)"
                      ) as update:
            risky = registry.solve(g, goal=goal, progress=update)
        with progress(f"{g.canonical}: the final scores of that strategy (once; cached)") as update:
            spread = family.distribution(g, progress=update, theta=goal.theta)
        info = risky.info.model_copy(update={"details": {**risky.info.details, "mean": spread.mean, "sd": spread.sd}})
        if json_output:
            emit(info)
            return
        render.solve_info(out, info, f"{risky.headline()}; its strategy's final score: mean {spread.mean:.4f}, "
                          f"sd {spread.sd:.4f}")
        return
    if goal is not None:
        with progress(f"{g.canonical}: best chances of {goal.words()} (once; cached)") as update:
            aimed = family.goal_solution(g, goal, progress=update)
        if json_output:
            emit(aimed.info)
            return
        render.solve_info(out, aimed.info, aimed.headline())
        return
    with progress(f"solving {g.canonical} (once; cached)") as update:
        solution = family.solve(g, judge=judge, progress=update, rebuild=rebuild, on_problem=warn, cluster=cluster)
        problem = tables.verify_files(solution.info.table_dir) if verify and solution.info.table_dir else None
        if problem:
            warn(f"{problem}; rebuilding it")
            solution = family.solve(g, judge=judge, progress=update, rebuild=True, on_problem=warn)
    if json_output:
        emit(solution.info)
        return
    render.solve_info(out, solution.info, solution.headline())


@app.command()
def advise(
    game: str = game_argument(),
    position: str = typer.Argument(..., help="scorecard games: CARD/DICE/ROLLS, e.g. 'aces=3,fh=25/11345/1' or "
                                   "'/-/3', several players MOVER;OTHER;.../DICE/ROLLS; pig, skunk, big-pig: "
                                   "MINE,THEIRS,TURN_TOTAL; despirala: USED;GOODS;DICE (see 'dicesolver docs input'); "
                                   "- reads positions from standard input, one a line, and writes JSON Lines"),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
    top: int = typer.Option(0, "--top", min=0, help="show only the best N options (0: all)"),
    target: Optional[int] = typer.Option(None, "--target", help="rank by the best chance of finishing with at "
                                         "least this many points instead (at most, misere Despirala; solitaire "
                                         "scorecard games, Despirala)"),
    beat: Optional[int] = typer.Option(None, "--beat", help="rank by the best chance of finishing with more than "
                                       "this score, a tie counting half (the score to beat, for the last player)"),
    explain: bool = typer.Option(False, "--explain", help="say why: each option's expected final score split over "
                                 "what produces it (a scorecard game's boxes and bonuses, Despirala's combinations "
                                 "and goods), its standard deviation, and the best option set against the second "
                                 "(or --versus) aspect by aspect (a race's chance of winning: this turn or later; "
                                 "a two-person equity or a chance of a target: beside the points as if alone)"),
    versus: Optional[str] = typer.Option(None, "--versus", help="with --explain: the option to set the best "
                                         "against, as typed to play it (e.g. 'keep 345')"),
    chances: bool = typer.Option(False, "--chances", help="with the explanation (--explain implied): each option's "
                                 "chance of every prize it may win (a box of fixed points filled with them, the upper "
                                 "bonus; a race's winning this turn or later), exact from the tables"),
    theta: Optional[float] = typer.Option(None, "--theta", help="a risk appetite from -1 to 1: play for the "
                                          "certainty equivalent ln E[exp(theta X)] / theta of the final score X "
                                          "(> 0 seeks risk, < 0 avoids it, 0 the mean; scorecard games and "
                                          "Despirala)"),
    field: Optional[int] = typer.Option(None, "--field", help=FIELD_HELP),
    field_scores: Optional[str] = typer.Option(None, "--field-scores", help=FIELD_SCORES_HELP),
    percentile: Optional[float] = typer.Option(None, "--percentile", help=PERCENTILE_HELP),
) -> None:
    """Rank every option at a position with its value and its cost against the best (expected final score,
    equity or probability of winning, as the game is solved; with a goal (--target, --beat, --theta,
    --field), what that goal values for the player on turn)."""
    explain = explain or chances
    if versus is not None and not explain:
        raise InputError("--versus goes with --explain")
    if explain and position == "-":
        raise InputError("--explain explains one position, not -")
    goal = goal_of(target, beat, theta, field, field_scores, percentile)
    if position == "-":
        if goal is not None:
            raise InputError("a goal (--target, --beat, --theta, --field) ranks one position: give it instead of -")
        advise_lines(game, sys.stdin, top)
        return
    state = registry.parse_state(game, position)
    if isinstance(goal, aims.FinalScoreGoal):  # a family may solve only the endgame that follows
        with progress(f"{state.game.canonical}: best chances of {goal.words()} (once; cached)") as update:
            solution = registry.family_of(state.game).goal_solution(state.game, goal, progress=update, at=state)
    elif goal is not None:
        with progress(f"{state.game.canonical}: {goal.words()} (once; cached)") as update:
            solution = registry.solve(state.game, goal=goal, progress=update)
    else:
        with progress(f"solving {state.game.canonical} (once; cached)") as update:
            solution = registry.solution_for(state, progress=update)
    if explain:
        with progress(f"{state.game.canonical}: splitting every turn start's value by what produces it (once; cached)") as update:
            why = solution.explain(state, versus, progress=update)
        if json_output:
            emit(why.model_copy(update={"options": why.options[:top]}) if top else why)
            return
        render.explanation(out, why, state.brief(), top, chances)
        return
    result = solution.advise(state)
    if json_output:
        emit(best_few(result, top))
        return
    render.advice(out, result, state.brief(), top)


def best_few(advice, top: int):
    """The advice with only its best ``top`` options (0: all of them), as --top shows it."""
    return advice.model_copy(update={"options": advice.options[:top]}) if top else advice


def advise_lines(game: str, lines: Iterable[str], top: int) -> None:
    """``advise GAME -``: one JSON line of advice per position read (blank lines and ``# comments`` skipped), as
    the positions come; a position refused is a line with its error, and the command exits 2 once every line is
    read."""
    solution = None
    refused = 0
    for line in lines:
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            state = registry.parse_state(game, text)
            if solution is None:
                with progress(f"solving {state.game.canonical} (once; cached)") as update:
                    solution = registry.solution_for(state, progress=update)
            result = solution.advise(state)
            answer = best_few(result, top).model_dump_json()
        except DicesolverError as exc:
            refused += 1
            answer = json.dumps({"position": text, "error": str(exc)})
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()
    if refused:
        raise InputError(f"{refused} position{'s' if refused > 1 else ''} refused (each has its error line)")


def _pick_category(rows, category: str):
    """The row of one category, matched forgivingly (case, spaces and dashes ignored; a unique prefix)."""
    def key(text: str) -> str:
        return re.sub(r"[^a-z0-9]", "", text.lower())

    exact = [r for r in rows if key(r.category) == key(category)]
    prefix = [r for r in rows if key(r.category).startswith(key(category))] if key(category) else []
    found = exact or (prefix if len(prefix) == 1 else [])
    if not found:
        raise InputError(f"{category!r} is not a category (categories: {', '.join(r.category for r in rows)})")
    return found


@app.command()
def odds(
    game: str = game_argument(),
    category: Optional[str] = typer.Option(None, "--category", "-c", help="only this category"),
    exact: bool = typer.Option(False, "--exact", help="also give the probability of the maximum as a fraction"),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """One-turn odds of a scorecard game: for each category, the expected points and the chance of its
    maximum when a whole turn is played only for it. For Farkle, one throw of 1 to 6 dice: the points of its
    best set-aside, the most and its chance, the chance of a Farkle and of hot dice."""
    g = registry.load(game)
    with progress(f"playing one turn for each box of {g.canonical}"):
        rows = registry.family_of(g).odds(g, exact=exact)
    if category is not None:
        rows = _pick_category(rows, category)
    if json_output:
        emit(rows)
        return
    render.odds(out, rows, f"{g.canonical}: one-turn odds", exact)


@app.command()
def frontier(
    game: str = game_argument(),
    theta: Optional[list[float]] = typer.Option(None, "--theta", help="a risk appetite to include (repeat; default: "
                                                "-0.05 -0.02 -0.01 -0.005 0 0.005 0.01 0.02 0.05)"),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
    plot: Optional[str] = typer.Option(None, "--plot", callback=needs_plot,
                                       help="write mean against spread and the percentiles by "
                                       "theta (.png/.svg/.pdf)"),
    simulate: int = typer.Option(0, "--simulate", min=0, help="check the exact figures by simulating this many "
                                 "games of each strategy (the same dice for all)"),
    seed: int = typer.Option(0, "--seed", help="the simulation's seed"),
) -> None:
    """The trade-offs of a risk appetite: for each theta, the exact mean, spread, percentiles and chances of
    winning blind fields of 2, 10 and 100 mean-players of its strategy (scorecard games and Despirala), with
    the theta that does best by each."""
    from ..analysis.frontier import THETAS, frontier as sweep

    g = registry.load(game)
    with progress(f"{g.canonical}: each risk appetite's strategy and its final scores (once each; cached)") as update:
        f = sweep(g, theta or THETAS, progress=update, simulate=simulate, seed=seed)
    report(f, lambda: render.frontier(out, f), json_output, plot, lambda: plots.frontier_figure(f))


@app.command()
def distribution(
    game: str = game_argument(),
    plot: Optional[str] = typer.Option(None, "--plot", callback=needs_plot,
                                       help="write the distribution's histogram (.png/.svg/.pdf)"),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP + " (with every score's probability)"),
    target_curve: bool = typer.Option(False, "--target-curve", help="instead, the best chance of reaching each "
                                      "target score, beside the expected-score strategy's own (solitaire "
                                      "scorecard games, Despirala; --plot draws both)"),
    up_to: Optional[int] = typer.Option(None, "--up-to", help="with --target-curve: the largest target (default: "
                                        "the expected-score strategy's 95th percentile)"),
    theta: Optional[float] = typer.Option(None, "--theta", help="the distribution of the strategy of this risk "
                                          "appetite (-1 to 1; see solve --theta)"),
) -> None:
    """The exact final-score distribution of optimal play in a scorecard game (no simulation): mean, SD,
    percentiles, P(upper bonus), P(each box scores) and the best probability of a perfect game."""
    g = registry.load(game)
    if up_to is not None and not target_curve:
        raise InputError("--up-to goes with --target-curve")
    if theta is not None and target_curve:
        raise InputError("--theta and --target-curve are two strategies: give one")
    if target_curve:
        with progress(f"{g.canonical}: best chances of every target (once; cached)") as update:
            c = registry.family_of(g).target_curve(g, up_to, progress=update)
        report(c, lambda: render.target_curve(out, c), json_output, plot, lambda: plots.target_curve_figure(c))
        return
    with progress(f"propagating {g.canonical}") as update:
        d = registry.family_of(g).distribution(g, progress=update, theta=theta)

    report(d, lambda: render.distribution(out, d), json_output, plot, lambda: plots.distribution_figure(d))


@app.command()
def chart(
    game: str = typer.Argument(..., help="pig, skunk or big-pig (with goal=N / faces=N), or a Farkle game"),
    me: Optional[int] = typer.Option(None, "--me", help="only the rows with this score of mine"),
    them: Optional[int] = typer.Option(None, "--them", help="only the rows with this opponent's score"),
    png: Optional[str] = typer.Option(None, "--png", callback=needs_plot,
                                      help="also draw the chart (win probability, hold totals, "
                                      "throw/hold regions) to this .png/.svg/.pdf"),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """The strategy chart of a push-your-luck game (the Skunk analysis): for each (my score, opponent's score) the
    probability of winning at the start of my turn and the turn totals where the best action switches. For
    Farkle a line for each number of dice left (scores every 500 points unless --me / --them name one)."""
    g = registry.load(game)
    family = registry.family_of(g)
    rows = family.chart(g, me, them)
    if png:
        save_plot(lambda: family.chart_figure(g), png)
    if json_output:
        emit(rows)
        return
    if me is None and them is None:
        render.say(out, f"# {g.canonical}: (my score, opponent's score) P(win) at the start of my turn - turn totals "
                        "where the best action switches: throw below the first, hold from it, throw again from the "
                        "second...")
    render.chart(out, rows)
    if png:
        render.say(out, f"picture written to {png}")


@app.command()
def schema() -> None:
    """Print the JSON schema of every result (the --json output, the web API and the Python API share it)."""
    from ..core import results

    emit(results.json_schema())


@app.command()
def serve(
    host: Optional[str] = typer.Option(None, "--host", help="address to listen on (default: this machine only)"),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="port"),
    lan: bool = typer.Option(False, "--lan", help="serve the local network too (a phone at the table), guarded "
                                                  "by a secret token: the address with it is printed and drawn as "
                                                  "a QR code"),
    token: Optional[str] = typer.Option(None, "--token", help="the token to require, 16 characters or more (default: "
                                                              "a new random one whenever the server is open to the "
                                                              "network); other users of this machine can read it in "
                                                              "the process list: prefer --token-file or "
                                                              "$DICESOLVER_TOKEN"),
    token_file: Optional[Path] = typer.Option(None, "--token-file", help="read the token from this file's first line"),
    no_token: bool = typer.Option(False, "--no-token", help="serve the network without a token (anyone who can reach "
                                                            "the port sees and plays every game)"),
    allow_host: list[str] = typer.Option([], "--allow-host", help="another name this server answers to (a name in "
                                                                  "the Host header; repeatable). Any other name is "
                                                                  "refused: a foreign page cannot reach it by "
                                                                  "pointing its own name at this machine"),
    workers: int = typer.Option(1, "--workers", min=1, max=64, help="server processes: they share the tables on "
                                                                    "disk and continue any game from its record"),
    max_table_gb: float = typer.Option(4.0, "--max-table-gb", min=0.0, help="the biggest table the server builds "
                                                                            "when a page asks (two-person Yacht's "
                                                                            "is 6.2 GB, Crag's 19.7 GB); tables "
                                                                            "already solved are read whatever "
                                                                            "their size"),
    max_build_minutes: float = typer.Option(30.0, "--max-build-minutes", min=0.0,
                                            help="the longest build the server starts when a page asks, by its "
                                                 "estimate (Farkle's table: about 20 minutes on 2 cores); longer "
                                                 "ones are refused with the command that builds them"),
    max_cache_gb: float = typer.Option(20.0, "--max-cache-gb", min=0.0,
                                       help="the tables kept on disk in all, past which the server builds no more "
                                            "when a page asks (each goal, variant and field is a table kept); "
                                            "'dicesolver cache clear' makes room"),
    warmup: list[str] = typer.Option([], "--warmup", help="a game whose tables the server starts building as it "
                                                          "starts, as if a page had asked (repeatable), e.g. "
                                                          "--warmup farkle: the first game at the table waits "
                                                          "for nothing"),
) -> None:
    """Serve the web app (advisor, play, review, explore) and its JSON API (listed at /docs).

    On this machine alone by default, answering only to localhost. With --lan (or any --host that is not
    loopback) every request needs the server's token, as Jupyter does: open the printed address (or scan its
    QR code) once, and the browser keeps proof of it."""
    need("web", "fastapi", "uvicorn", "segno", "matplotlib")
    from ..web import access
    from ..web.serving import serve as run_server

    if lan and host is not None and access.is_loopback(host):
        raise InputError(f"--lan serves the network; --host {host} is this machine only")
    given = [name for name, value in (("--token", token), ("--token-file", token_file)) if value is not None]
    if len(given) > 1 or (given and no_token):
        raise InputError(f"{' and '.join(given + (['--no-token'] if no_token else []))} contradict each other")
    if token_file is not None:
        try:
            token = token_file.read_text(encoding="utf-8").splitlines()[0].strip() if token_file.stat().st_size else ""
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read the token file {token_file}: {getattr(exc, 'strerror', None) or exc}")
    elif token is None and not no_token and os.environ.get(access.TOKEN_FROM_USER_ENV):
        token = os.environ[access.TOKEN_FROM_USER_ENV].strip()
    if token is not None:
        weakness = access.weak_token(token)
        if weakness:
            raise InputError(f"that token is too easy to guess: {weakness}")
    for name in allow_host:
        if not access.host_only(name) or any(ch in name for ch in "/ @"):
            raise InputError(f"--allow-host takes a name such as dice.local, not {name!r}")
    for spec in warmup:
        registry.load(spec)  # an unknown game is a usage error now, not a job that fails later
    host = host or ("0.0.0.0" if lan else "127.0.0.1")
    open_to_network = not access.is_loopback(host)
    if no_token:
        token = None
        if open_to_network:
            warn(f"serving {host} without a token: anyone who can reach port {port} sees and plays every game")
    elif open_to_network or token is not None:
        token = token or access.new_token()
    url = access.visit_url(host, port, token)
    processes = f", {workers} processes" if workers > 1 else ""
    render.say(out, f"dicesolver at {url} (the API at /docs{processes}); Ctrl-C stops")
    if open_to_network:
        render.say(out, "Open that address on a phone on the same network, or scan:")
        print(access.qr_text(url), end="", flush=True)
    if warmup:
        render.say(out, f"building or loading the tables of {', '.join(warmup)} in the background")
    run_server(host, port, token, workers, access.Hosts(open_to_network, [access.host_only(n) for n in allow_host]),
               max_table_gb, warmup, max_build_minutes, max_cache_gb)

