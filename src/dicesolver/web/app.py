"""``dicesolver serve``: the local web app (advisor, play, review, explore) and its JSON API under /api.

Every user mistake (an unknown game, a wrong die, an impossible scorecard, a malformed record) is a
4xx with one clear ``detail``; a table still being solved is a 202 with the job to poll; files are only
written inside the cache directory (web games in ``<cache>/web-games``).
"""

from __future__ import annotations

import base64
import dataclasses
import io
import re
import secrets
import tempfile
from collections import OrderedDict
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from ..core import tables
from ..core.errors import DicesolverError, InputError
from ..despirala.rules import DespiralaGame
from ..pushluck.rules import PushGame
from ..registry import load_any_game, push_game_names
from ..scorecard.presets import preset_names
from ..scorecard.rules import ScorecardGame
from . import models
from .sessions import SessionStore
from .solutions import NotReady, SolutionStore

MAX_BODY_BYTES = 2 * 2**20
ADVICE_CACHE = 20_000
RECORD_NAME = re.compile(r"^[A-Za-z0-9_.()-]{1,120}\.jsonl$")
SCORECARD_BOTS = ["optimal", "mindful", "joe", "greedy", "malina"]
PUSH_BOTS = ["optimal", "hold-at-20", "keep-pace"]
DESPIRALA_BOTS = ["optimal", "competitive", "mc-5"]


def _game(text: str):
    """A built-in game or variant; rules files are not read through the web (a path is refused)."""
    if any(ch in text for ch in "/\\") or text.strip().lower().endswith(".toml") or "\x00" in text:
        raise InputError("the web app plays the built-in games and their variants (rules files: use the command line)")
    return load_any_game(text)


def _kind(game) -> str:
    return "push" if isinstance(game, PushGame) else "despirala" if isinstance(game, DespiralaGame) else "scorecard"


def _png(fig) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()


def _job(job) -> models.JobView:
    return models.JobView(id=job.id, label=job.label, state=job.state, done=job.done, total=job.total, error=job.error)


def game_info(game) -> models.GameInfo:
    kind = _kind(game)
    info = models.GameInfo(name=game.canonical, title=game.title, kind=kind, rules=list(game.describe()))
    if isinstance(game, ScorecardGame):
        info.dice, info.faces, info.rolls = game.n_dice, game.faces, game.rolls
        info.categories = [models.CategoryInfo(name=c.name, title=c.title, max_points=max(game.possible_scores(i)))
                           for i, c in enumerate(game.categories)]
        info.bots = SCORECARD_BOTS
    elif isinstance(game, PushGame):
        info.dice, info.faces, info.goal, info.bots = game.n_dice, game.faces, game.goal, PUSH_BOTS
    else:
        from ..despirala.rules import COMBINATIONS

        info.dice, info.combinations, info.bots = 6, [c.name for c in COMBINATIONS], DESPIRALA_BOTS
    return info


def advice(game, position: str, get_solution) -> models.AdviceResponse:
    """Every option of a position ranked (the same figures as ``dicesolver advise``); the position is
    checked before ``get_solution()`` is asked for the table."""
    if isinstance(game, PushGame):
        from ..pushluck.chart import push_advice
        from ..pushluck.rules import parse_push_position

        mine, theirs, total = parse_push_position(position, game)
        result = push_advice(get_solution(), mine, theirs, total)
        return models.AdviceResponse(
            game=game.canonical, kind="push", position=f"{mine},{theirs},{total}", value=result["win"],
            unit="probability of winning", options=[models.AdviceOption(kind="turn", **o) for o in result["options"]],
            details={"thresholds": result["thresholds"]})
    if isinstance(game, DespiralaGame):
        from ..despirala.rules import parse_decision_point
        from ..despirala.solver import turn_options

        point = parse_decision_point(position)
        options = turn_options(get_solution(), point.free, point.goods, point.dice)
        best = options[0][1]
        return models.AdviceResponse(
            game=game.canonical, kind="despirala", position=point.text(), value=best, unit="expected final score",
            higher_is_better=game.mode == "normal",
            options=[models.AdviceOption(option=m.text(), kind=m.kind, value=v, cost=abs(best - v)) for m, v in options])
    from ..scorecard.advice import advise
    from ..scorecard.position import parse_position

    if ";" in position:
        raise InputError("the web advisor gives solitaire advice: write CARD/DICE/ROLLS (two players: dicesolver advise)")
    checked = parse_position(game, position)
    result = advise(get_solution(), checked)
    return models.AdviceResponse(
        game=game.canonical, kind="scorecard", position=result.position, value=result.value, unit="expected final score",
        options=[models.AdviceOption(**dataclasses.asdict(o)) for o in result.options],
        details={"score_so_far": result.score_so_far, "rolls_left": result.rolls_left})


def review_response(kind: str, result) -> models.ReviewResponse:
    from ..analysis.review_any import REVIEW_EVENTS, review_figure_for

    events = getattr(result, REVIEW_EVENTS.get(kind, "rolls"))
    plot = "data:image/png;base64," + base64.b64encode(_png(review_figure_for(kind, result))).decode()
    return models.ReviewResponse(kind=kind, summary=dataclasses.asdict(result.summary),
                                 decisions=[dataclasses.asdict(d) for d in result.decisions],
                                 events=[dataclasses.asdict(e) for e in events],
                                 timeline=[[float(x) for x in t] for t in result.timeline], plot=plot)


def create_app(wait_seconds: float = 3.0) -> FastAPI:
    app = FastAPI(title="dicesolver", version="0.1.0",
                  description="Optimal strategies for dice games: advice, play against bots, game review.")
    store = SolutionStore(wait_seconds)
    games_folder = tables.cache_dir() / "web-games"
    sessions = SessionStore(games_folder)
    app.state.solutions = store
    app.state.sessions = sessions

    @app.middleware("http")
    async def limit_body(request: Request, call_next):
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
            return JSONResponse({"detail": f"requests are limited to {MAX_BODY_BYTES // 2**20} MiB"}, status_code=413)
        return await call_next(request)

    @app.exception_handler(DicesolverError)
    async def user_error(request: Request, exc: DicesolverError):
        return JSONResponse({"detail": str(exc)}, status_code=400)

    @app.exception_handler(NotReady)
    async def not_ready(request: Request, exc: NotReady):
        return JSONResponse(models.Pending(job=_job(exc.job)).model_dump(), status_code=202)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError):
        problems = "; ".join(f"{'.'.join(str(p) for p in e.get('loc', ())[1:]) or 'body'}: {e.get('msg')}"
                             for e in exc.errors()[:5])
        return JSONResponse({"detail": problems or "malformed request"}, status_code=422)

    # -- games and jobs -----------------------------------------------------------------------------
    @app.get("/api/games", response_model=list[models.GameInfo], summary="Every built-in game")
    def list_games():
        names = preset_names() + push_game_names() + ["despirala", "despirala(misere)"]
        return [game_info(_game(n)) for n in names]

    @app.get("/api/games/{game}", response_model=models.GameInfo, summary="One game (any game string)")
    def one_game(game: str):
        return game_info(_game(game[:200]))

    @app.get("/api/jobs/{job_id}", response_model=models.JobView, summary="A background solve's progress")
    def job(job_id: str):
        found = store.job(job_id[:40])
        if found is None:
            return JSONResponse({"detail": "no such job"}, status_code=404)
        return _job(found)

    # -- advice ------------------------------------------------------------------------------------------
    answers: OrderedDict[tuple[str, str], bytes] = OrderedDict()  # recent advice, as sent (LRU)

    @app.post("/api/advice", response_model=models.AdviceResponse,
              responses={202: {"model": models.Pending}, 400: {"description": "a position that cannot be"}})
    async def post_advice(request: models.AdviceRequest):
        # Positions repeat (every player of a game starts from the same ones): a recent answer is sent
        # again as it was; the work itself runs in the thread pool, off the event loop.
        key = (request.game, request.position)
        body = answers.get(key)
        if body is None:
            game = _game(request.game)
            if store.ready(game):  # a millisecond's work: done here, without a thread switch
                result = advice(game, request.position, lambda: store.get(game))
            else:
                result = await run_in_threadpool(advice, game, request.position, lambda: store.get(game))
            body = result.model_dump_json().encode()
            answers[key] = body
            if len(answers) > ADVICE_CACHE:
                answers.popitem(last=False)
        else:
            answers.move_to_end(key)
        return Response(body, media_type="application/json")

    # -- play -------------------------------------------------------------------------------------------
    def session_or_404(session_id: str):
        session = sessions.get(session_id[:40])
        if session is None:
            raise _NotFound("no such game (finished games are under Review)")
        return session

    def view(session) -> models.SessionResponse:
        return models.SessionResponse(**dataclasses.asdict(session.view()))

    @app.post("/api/play", response_model=models.SessionResponse, responses={202: {"model": models.Pending}})
    def new_game(request: models.PlayRequest):
        game = _game(request.game)
        solution = store.get(game)
        seed = request.seed if request.seed is not None else secrets.randbits(31)
        games_folder.mkdir(parents=True, exist_ok=True)
        path = games_folder / f"{game.name}-{seed}-{secrets.token_hex(4)}.jsonl"
        opponents = [o.strip().lower()[:40] for o in request.opponents]
        start = _starter(game, solution, opponents, seed, request.manual_dice, request.first, path)
        session = sessions.new(game.canonical, start, path)
        session.wait(5.0)
        if session.error:
            detail = session.error
            path.unlink(missing_ok=True)
            raise InputError(detail)
        return view(session)

    @app.get("/api/play/{session_id}", response_model=models.SessionResponse)
    def get_game(session_id: str, wait: float = Query(0.0, ge=0.0, le=10.0)):
        session = session_or_404(session_id)
        if wait:
            session.wait(wait)
        return view(session)

    @app.post("/api/play/{session_id}/send", response_model=models.SessionResponse)
    def send(session_id: str, request: models.SendRequest):
        session = session_or_404(session_id)
        session.send(request.line.replace("\n", " ").replace("\r", " "))
        return view(session)

    @app.get("/api/play/{session_id}/review", response_model=models.ReviewResponse)
    def session_review(session_id: str):
        from ..analysis.review_any import review_kind

        session = session_or_404(session_id)
        if session.result is None:
            raise InputError("the game is not over yet")
        record, result = session.result
        return review_response(review_kind(record), result)

    # -- review -------------------------------------------------------------------------------------------
    @app.get("/api/records", response_model=list[models.RecordInfo], summary="Games played in the web app")
    def records():
        from ..registry import read_any_record

        out = []
        if games_folder.exists():
            for path in sorted(games_folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True)[:200]:
                try:
                    record = read_any_record(path)
                except DicesolverError:
                    continue
                out.append(models.RecordInfo(name=path.name, game=record.game.canonical, players=record.players,
                                             over=record.is_over()))
        return out

    def review_file(path: Path, player: int) -> models.ReviewResponse:
        from ..analysis.review_any import review_kind, review_record
        from ..registry import read_any_record

        _check_record_game(path)
        record = read_any_record(path)
        kind = review_kind(record)
        if kind in ("duel", "mindful") and not _ready_for(record):  # tables that can take minutes to build
            raise InputError(f"reviewing this record needs the {kind} tables of {record.game.canonical}: "
                             "build them once with 'dicesolver analyze' in a terminal")
        store.get(record.game)  # 202 while the table is solved
        return review_response(*review_record(record, player))

    @app.get("/api/records/{name}/review", response_model=models.ReviewResponse)
    def review_saved(name: str, player: int = Query(0, ge=0, le=5)):
        if not RECORD_NAME.match(name):
            raise InputError("a record name is letters, digits, dots and dashes, ending in .jsonl")
        path = games_folder / name
        if not path.is_file():
            raise _NotFound(f"no record named {name}")
        return review_file(path, player)

    @app.post("/api/review", response_model=models.ReviewResponse, summary="Review an uploaded record")
    def review_upload(request: models.ReviewRequest):
        uploads = tables.cache_dir() / "uploads"
        uploads.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", dir=uploads, delete=False, encoding="utf-8") as fh:
            fh.write(request.record if request.record.endswith("\n") else request.record + "\n")
            path = Path(fh.name)
        try:
            return review_file(path, request.player)
        finally:
            path.unlink(missing_ok=True)

    # -- explore -------------------------------------------------------------------------------------------
    @app.get("/api/explore/distribution.png", response_class=Response, responses={200: {"content": {"image/png": {}}}})
    def distribution_png(game: str = Query(..., max_length=200)):
        g = _game(game)
        if not isinstance(g, ScorecardGame):
            raise InputError("score distributions are for scorecard games (Despirala: dicesolver simulate --plot)")
        return Response(_distribution_png(g, store.get(g)), media_type="image/png")

    @app.get("/api/explore/chart.png", response_class=Response, responses={200: {"content": {"image/png": {}}}})
    def chart_png(game: str = Query(..., max_length=200)):
        from ..pushluck.chart import chart_figure

        g = _game(game)
        if not isinstance(g, PushGame):
            raise InputError("the strategy chart is for pig, skunk and big-pig")
        return Response(_png(chart_figure(store.get(g))), media_type="image/png")

    @app.get("/api/explore/despirala.png", response_class=Response, responses={200: {"content": {"image/png": {}}}})
    def despirala_png(game: str = Query("despirala", max_length=200)):
        g = _game(game)
        if not isinstance(g, DespiralaGame):
            raise InputError("this histogram is for despirala and despirala(misere)")
        store.get(g)
        return Response(_despirala_png(g), media_type="image/png")

    @app.get("/api/explore/odds", response_model=list[models.OddsRow], summary="One-turn odds of each category")
    def odds(game: str = Query(..., max_length=200)):
        from ..scorecard.odds import one_turn_odds

        g = _game(game)
        if not isinstance(g, ScorecardGame):
            raise InputError("the one-turn odds table is for scorecard games")
        return [models.OddsRow(category=r.category, max_points=r.max_points, expected_points=r.expected_points,
                               p_max=r.p_max) for r in one_turn_odds(g)]

    # -- the page --------------------------------------------------------------------------------------------
    static = resources.files("dicesolver.web") / "static"

    @app.get("/", include_in_schema=False)
    def index():
        return FileResponse(str(static / "index.html"))

    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    @app.exception_handler(_NotFound)
    async def not_found(request: Request, exc: _NotFound):
        return JSONResponse({"detail": str(exc)}, status_code=404)

    return app


class _NotFound(Exception):
    pass


def _check_record_game(path: Path) -> None:
    """Refuse a record whose header names a rules file: the web app never reads files a request names."""
    import json

    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            header = json.loads(fh.readline() or "null")
    except ValueError:
        return  # reading the record reports it
    if isinstance(header, dict) and isinstance(header.get("game"), str):
        _game(header["game"])


def _ready_for(record) -> bool:
    """Whether a multi-player review's tables are in the cache already (they can take minutes to build)."""
    from ..scorecard import duel, future

    try:
        key = duel.table_key(record.game) if len(record.players) == 2 else future.table_key(record.game)
        tables.load(key, verify=False)
        return True
    except Exception:
        return False


_distributions: dict[str, bytes] = {}


def _distribution_png(game: ScorecardGame, solution) -> bytes:
    if game.canonical not in _distributions:
        from ..analysis.plots import distribution_figure
        from ..scorecard.distribution import score_distribution

        _distributions[game.canonical] = _png(distribution_figure(game, score_distribution(solution)))
    return _distributions[game.canonical]


def _despirala_png(game: DespiralaGame) -> bytes:
    """The final-score histogram of 100,000 simulated games of the exact model (seed 1)."""
    key = game.canonical
    if key not in _distributions:
        from ..analysis.plots import despirala_figure
        from ..despirala.simulate import simulate_despirala

        stats, scores = simulate_despirala(game.mode, 100_000, 1)
        _distributions[key] = _png(despirala_figure(stats, scores))
    return _distributions[key]


def _starter(game, solution, opponents: list[str], seed: int, manual_dice: bool, first: str, path: Path):
    """The function that plays this game in a session's thread (the terminal front end of its kind)."""
    if isinstance(game, PushGame):
        from ..pushluck.console import play_push

        if len(opponents) > 1:
            raise InputError(f"{game.name} is a two-player game: one bot")
        from ..pushluck.players import make_push_player

        make_push_player(opponents[0] if opponents else "optimal", game, solution)  # a bad name fails now
        return lambda console, ask: play_push(game, solution, console, ask, seed=seed, manual_dice=manual_dice,
                                              record_path=str(path), opponent=opponents[0] if opponents else None,
                                              first=first)
    if isinstance(game, DespiralaGame):
        from ..despirala.console import play_despirala

        return lambda console, ask: play_despirala(game, solution, console, ask, seed=seed, manual_dice=manual_dice,
                                                   record_path=str(path), opponents=opponents, first=first)
    from ..scorecard.console import make_bot, play

    for name in opponents:
        if name != "malina":
            make_bot(name, game)  # a bad name fails now
    if "malina" in opponents or len(opponents) == 1:
        from ..scorecard.duel import check_duel_game

        if "malina" in opponents:
            check_duel_game(game)

    def duel_loader():
        from ..scorecard.duel import check_duel_game, load_or_solve

        try:
            check_duel_game(game)
        except InputError:
            return None
        return load_or_solve(game)[0]

    return lambda console, ask: play(game, solution, console, ask, seed=seed, manual_dice=manual_dice,
                                     record_path=str(path), opponent=opponents, first=first, duel_loader=duel_loader)


def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    import gc

    import uvicorn

    app = create_app()
    # The libraries' long-lived objects (imported now rather than by the first requests) are frozen out
    # of the cycle collector, whose full passes over them would otherwise pause requests now and then;
    # the young generation is collected less often for the same reason.
    import importlib

    for module in ("scorecard.advice", "pushluck.chart", "despirala.solver", "pushluck.solver", "scorecard.solitaire"):
        importlib.import_module(f"dicesolver.{module}")

    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 50)
    uvicorn.run(app, host=host, port=port, log_level="warning")

