"""The local web app (advisor, play, review, explore) and its JSON API under /api (served by ``web.serving``).

Every game is served the same way: the registry finds it, its family answers through the protocol, and
results are the ``core.results`` models (the command line's ``--json``). Every user mistake (an unknown
game, a wrong die, an impossible scorecard, a malformed record) is a 4xx with one clear ``detail``; a
table still being solved is a 202 with the job to poll; files are only written inside the cache
directory (web games in ``<cache>/web-games``).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import re
import secrets
import tempfile
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import asdict
from importlib import resources
from pathlib import Path
from urllib.parse import quote

from fastapi import FastAPI, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from .. import __version__
from .. import docs as documents
from ..core import aims, registry, tables
from ..core.errors import DicesolverError, InputError
from ..core.protocol import Game
from ..core.results import Advice, Explanation, OddsRow
from . import documents as document_pages
from . import models
from .access import BROWSER_KEY, Browsers, Guard, Hosts, Owners, browser_of
from .bodies import BodyLimit
from .records import Shelf, TooMany
from .sessions import GameBusy, RecordLock, SessionStore, StaleGame, StaleMove, board_of, position_board
from .solutions import Busy, NotReady, SolutionStore, Stopped, TooBig, ahead_command

ADVICE_CACHE = 20_000
RECORD_NAME = re.compile(r"^[A-Za-z0-9_.()=,-]{1,120}\.jsonl$")


def _game(text: str, players: int | None = None) -> Game:
    """A built-in game or variant; rules files are not read through the web (a path is refused)."""
    if any(ch in text for ch in "/\\") or text.strip().lower().endswith(".toml") or "\x00" in text:
        raise InputError("the web app plays the built-in games and their variants (rules files: use the command line)")
    base = text.split("(", 1)[0].strip().lower()
    if base and base not in registry.game_names():  # the command line's message would offer rules files
        raise InputError(f"unknown game {base!r} (games: {', '.join(registry.game_names())})")
    return registry.load(text, players)


def _png(fig, width: int | None = None) -> bytes:
    """A figure as a PNG: at its own size, or drawn for a page ``width`` CSS pixels wide (panels stacked, text
    12 px or more; twice the pixels, for the sharp screens of phones)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from ..analysis.plots import fit_to_width

    FigureCanvasAgg(fig)
    buffer = io.BytesIO()
    if width:
        fit_to_width(fig, width)
    fig.savefig(buffer, format="png", dpi=200 if width else 100)
    return buffer.getvalue()


def page_width(width: int | None) -> int | None:
    """The width a figure is drawn for, in steps of 40 px (so a few drawings serve every screen)."""
    return None if width is None else min(1400, max(280, 40 * round(width / 40)))


WidthQuery = Query(None, ge=200, le=4000, description="the page's width in CSS pixels: the figure drawn for it")


def _job(job) -> models.JobView:
    left = job.seconds_left()
    return models.JobView(id=job.id, label=job.label, state=job.state, done=job.done, total=job.total,
                          error=without_paths(job.error),
                          seconds=round(job.seconds(), 1), seconds_left=None if left is None else round(left, 1))


def without_paths(text: str) -> str:
    """A message as a client may read it: the server's own folders (its cache, its home) not named."""
    for path, name in ((str(tables.cache_dir()), "the server's cache"), (tempfile.gettempdir(), "the server's temporary "
                       "folder"), (str(Path.home()), "the server's home")):
        if len(path) > 1:
            text = text.replace(path, name)
    return text


GOAL_CAPABILITIES = (("theta", "risk"), ("target", "target"), ("field", "goals"))  # web_goal's kinds


def game_info(game: Game) -> models.GameInfo:
    family = registry.family_of(game)
    base = game.canonical.split("(", 1)[0]
    return models.GameInfo(name=game.canonical, title=game.title, family=family.name, rules=list(game.describe()),
                           base=base, variants=[models.VariantInfo(**asdict(v)) for v in family.variants(base)],
                           # templates (target:T, field:N, theta:X) need a number the page does not ask for
                           bots=[b for b in family.players(game) if not b.rsplit(":", 1)[-1].isupper()],
                           page=models.PageInfo(**family.page(game), explore_odds=family.can("odds"),
                                                goals=[goal for goal, capability in GOAL_CAPABILITIES
                                                       if family.can(capability)]),
                           **family.facts(game))


def advice(game: Game, position: str, store: SolutionStore, goal: str | None = None) -> Advice:
    """Every option of a position ranked (the same figures as ``dicesolver advise``), for ``goal`` where one is
    given (``web_goal``); the position is checked before the table is asked for."""
    state = game.parse_state(position)
    aim = web_goal(goal)
    if aim is not None:
        return store.goal(state.game, aim).advise(state)
    solution = registry.family_of(state.game).quick_solution(state) or store.get(state.game)
    return solution.advise(state)


THETA_STEP = 0.005
WEB_MAX_THETA = 0.1


def web_goal(text: str | None) -> aims.Goal | None:
    """A goal a web client may ask for (None: the game's own solution): a bounded set, since each is a table
    built and kept (theta on a grid of 0.005 from -0.1 to 0.1, fields of WEB_FIELDS players)."""
    if text is None:
        return None
    goal = aims.parse_goal(text)
    if isinstance(goal, aims.Mean):
        return None
    if isinstance(goal, aims.RiskAppetite):
        steps = goal.theta / THETA_STEP
        if abs(goal.theta) > WEB_MAX_THETA or abs(steps - round(steps)) > 1e-9:
            raise InputError(f"a risk appetite here is from -{WEB_MAX_THETA:g} to {WEB_MAX_THETA:g} in steps of "
                             f"{THETA_STEP:g} (the command line takes any: dicesolver solve GAME --theta X)")
        return aims.RiskAppetite(round(steps) * THETA_STEP)
    if isinstance(goal, aims.Percentile):  # its search may build several target tables: the command line's
        raise InputError("a percentile is played from the command line: dicesolver advise GAME POSITION "
                         f"--percentile {goal.q:g}")
    if isinstance(goal, aims.Field) and goal.players not in models.WEB_FIELDS:
        raise InputError(f"a field here is one of {', '.join(map(str, models.WEB_FIELDS))} players (the command "
                         "line takes any: dicesolver solve GAME --field N)")
    return goal


def explanation(game: Game, position: str, versus: str | None, store: SolutionStore) -> Explanation:
    """Why each option of a position is worth what it is (``dicesolver advise --explain``); the breakdown table
    is built by a job the first time (NotReady while it runs)."""
    state = game.parse_state(position)
    solution = registry.family_of(state.game).quick_solution(state) or store.get(state.game)
    if not solution.explains:  # says why not, building nothing: a table split on disk is the command line's to build
        try:
            with tables.refuse_builds():
                return solution.explain(state, versus)
        except tables.NotBuilt:
            size = solution.explain_size()
            built = f" ({size.describe().removeprefix('about ')})" if size is not None else ""
            raise InputError(f"{state.game.canonical}: its values are split by what produces them once, on disk"
                             f"{built}: `dicesolver advise {state.game.canonical} POSITION --explain` does it") from None

    def load_breakdown(progress):
        solution.prepare_explain(progress)
        return solution

    store.prepare(f"why {store.key(state.game)}", f"splitting {state.game.canonical}'s values by what produces them, once",
                  load_breakdown, size=solution.explain_size)
    return solution.explain(state, versus)


def review_response(solution, playthrough, player: int, width: int | None = None) -> models.ReviewResponse:
    return reviewed(solution.review(playthrough, player), width)


def reviewed(review, width: int | None = None) -> models.ReviewResponse:
    """A review with its timeline drawn for the page's width, as a data URL."""
    from ..analysis.plots import review_figure

    plot = "data:image/png;base64," + base64.b64encode(_png(review_figure(review), page_width(width))).decode()
    return models.ReviewResponse(review=review, plot=plot)


MAX_TABLE_GB = 4.0  # the biggest table the server builds unless started with more (serve --max-table-gb)
MAX_BUILD_MINUTES = 30.0  # the longest build it starts, by its estimate (serve --max-build-minutes; Farkle's: ~20)
MAX_CACHE_GB = 20.0  # the tables on disk in all, past which it builds no more (serve --max-cache-gb): every goal,
# variant and field a page may ask for is a table kept


def create_app(wait_seconds: float = 0.8, token: str | None = None, hosts: Hosts | None = None,
               max_table_gb: float = MAX_TABLE_GB, warmup: Sequence[str] = (), cookie_secret: bytes | None = None,
               max_build_minutes: float = MAX_BUILD_MINUTES, max_cache_gb: float = MAX_CACHE_GB,
               personal: bool | None = None) -> FastAPI:
    """The app; with a ``token``, every request must carry it (``web.access``: served beyond this machine).
    ``hosts``: the names it answers to (by default this machine's loopback names only); ``max_table_gb``: the
    biggest table it builds; ``warmup``: games whose tables it starts building (or loading) as it starts, in
    its build lanes, as if a page had asked (a page that asks meanwhile finds the job and its bar).
    ``personal``: the training is the machine's user's, one history with the terminal's (default: where it
    is served on this machine alone); else each browser trains on its own."""
    personal = not (hosts is not None and hosts.network) if personal is None else personal

    def training_owner(http: Request) -> str:
        return "" if personal else trainer(http)

    store = SolutionStore(wait_seconds, int(max_table_gb * 1e9), int(max_cache_gb * 1e9),
                          max_build_minutes * 60.0)

    def start_warmups() -> None:
        for spec in warmup:
            try:
                store.get(registry.load(spec), wait=0, expires=False)  # built whoever waits
            except NotReady:
                pass  # building: the job goes on in the background

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        await run_in_threadpool(start_warmups)
        yield
        await run_in_threadpool(store.close)  # the tables still building stop with the app

    app = FastAPI(title="dicesolver", version=__version__, docs_url=None, redoc_url=None,  # /docs: our own page below
                  description="Optimal strategies for dice games: advice, play against bots, game review. Results "
                              "are the same models as the command line's --json ('dicesolver schema').",
                  lifespan=lifespan)
    games_folder = tables.cache_dir() / "web-games"
    sessions = SessionStore(games_folder)
    owners = Owners(shared_legacy=token is None)
    shelf = Shelf(games_folder, owners)
    app.state.solutions = store
    app.state.sessions = sessions

    app.add_middleware(BodyLimit)
    browsers = Browsers(games_folder / BROWSER_KEY, lambda: owners.all_owners(games_folder))
    app.add_middleware(Guard, token=token, hosts=hosts, secret=cookie_secret, browsers=browsers)  # added last, so it runs first: nothing before it checks
    _clean_uploads()

    @app.exception_handler(DicesolverError)
    async def user_error(request: Request, exc: DicesolverError):
        status = (409 if isinstance(exc, GameBusy) else 503 if isinstance(exc, (Busy, Stopped))
                  else 429 if isinstance(exc, TooMany) else 413 if isinstance(exc, TooBig) else 400)
        return JSONResponse({"detail": without_paths(str(exc))}, status_code=status)

    @app.exception_handler(tables.NotBuilt)
    async def not_built(request: Request, exc: tables.NotBuilt):  # a GET builds nothing: the page asks by POST
        return JSONResponse({"detail": f"{exc}: ask for it by POST (/api/explore/figure, /api/advice)"},
                            status_code=409)

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
        return [game_info(_game(name)) for family in registry.families() for name in family.featured()]

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
    answers: OrderedDict[tuple[str, str, str], bytes] = OrderedDict()  # recent advice, as sent (LRU)

    @app.post("/api/advice", response_model=Advice,
              responses={202: {"model": models.Pending}, 400: {"description": "a position that cannot be"}})
    async def post_advice(request: models.AdviceRequest):
        # Positions repeat (every player of a game starts from the same ones): a recent answer is sent
        # again as it was; the work itself runs in the thread pool, off the event loop.
        key = (request.game, request.position, request.goal or "")
        body = answers.get(key)
        if body is None:
            game = _game(request.game)
            state = game.parse_state(request.position)
            if store.ready(state.game) and request.goal is None:  # a millisecond's work: no thread switch
                result = advice(game, request.position, store)
            else:
                result = await run_in_threadpool(advice, game, request.position, store, request.goal)
            body = result.model_dump_json().encode()
            answers[key] = body
            if len(answers) > ADVICE_CACHE:
                answers.popitem(last=False)
        else:
            answers.move_to_end(key)
        return Response(body, media_type="application/json")

    @app.post("/api/explain", response_model=Explanation,
              responses={202: {"model": models.Pending}, 400: {"description": "a position that cannot be, or a "
                                                                               "game whose values are not split"}})
    async def post_explain(request: models.ExplainRequest):
        game = _game(request.game)
        return await run_in_threadpool(explanation, game, request.position, request.versus, store)

    # -- training ----------------------------------------------------------------------------------------
    # Each browser trains on its own: its deck of mistakes and its sessions are kept under its id.
    @app.post("/api/train/questions", response_model=models.TrainQuestions, responses={202: {"model": models.Pending}})
    def train_questions(request: models.TrainRequest, http: Request):
        from ..core import training

        game = _game(request.game)
        solution = store.get(game)
        record = training.TrainingRecord.load(game, training_owner(http))
        seed = request.seed if request.seed is not None else secrets.randbelow(2**31)
        asked = training.questions(game, solution, record, request.questions, seed)
        return models.TrainQuestions(game=game.canonical, unit=solution.unit, mistakes=len(record.mistakes),
                                     questions=[models.TrainQuestion(position=str(s), note=note, board=position_board(s))
                                                for s, note in asked])

    @app.post("/api/train/answer", response_model=models.TrainVerdict,
              responses={202: {"model": models.Pending}, 400: {"description": "not a decision, or not a move there"}})
    def train_answer(request: models.TrainAnswer, http: Request):
        from ..core import training

        game = _game(request.game)
        state = game.parse_state(request.position)
        solution = store.get(game)
        judged = training.judge_answer(solution, state, request.action)
        mine, best = judged.mine, judged.best
        # the why first: a table still being built answers 202, and the answer is counted only once it is told
        why = explanation(game, request.position, mine.action, store) if solution.explains and judged.wrong else None
        record = training.TrainingRecord.load(game, training_owner(http))
        record.answered(str(state), mine.cost, judged.wrong, solution.tie)
        record.save_deck(game)
        return models.TrainVerdict(action=mine.action, value=mine.value, cost=mine.cost, label=judged.label,
                                   best=best.action, best_value=best.value, unit=judged.advice.unit, why=why,
                                   options=judged.advice.options[:3])

    @app.post("/api/train/finish", response_model=models.TrainSummary, responses={202: {"model": models.Pending}})
    def train_finish(request: models.TrainFinish, http: Request):
        from ..analysis.plots import training_figure
        from ..core import training

        game = _game(request.game)
        solution = store.get(game)
        losses, states = [], []
        for answer in request.answers:
            if answer.game != request.game:
                raise InputError("every answer of a session is of its game")
            states.append(game.parse_state(answer.position))
            losses.append(training.judge_answer(solution, states[-1], answer.action).mine.cost)
        record = training.TrainingRecord.load(game, training_owner(http))
        result = training.session_result(solution, states, losses)
        record.add_session(game, result)
        shown = record.sessions[-20:]
        plot = "data:image/png;base64," + base64.b64encode(
            _png(training_figure(game.canonical, shown), page_width(request.width))).decode()
        return models.TrainSummary(decisions=result.decisions, mean_loss=result.mean_loss, labels=result.labels,
                                   rating=result.rating or None, compared=result.compared,
                                   mistakes=len(record.mistakes), history=[asdict(s) for s in shown], plot=plot)

    # -- play -------------------------------------------------------------------------------------------
    def session_or_404(session_id: str, http: Request):
        """This browser's game: held in memory, or continued from its record (put away, moved by another
        process, or from before a restart; its id is the record's, so it stays the same)."""
        missing = _NotFound("no such game (finished games are under Review, unfinished ones in Play's list)")
        session = sessions.get(session_id[:40])
        if session is None:  # put away, played by another process, or from before a restart: from its record
            record = sessions.record_of(session_id[:40])
            if record is None or not record.is_file() or not owners.may_see(record, browser_of(http)):
                raise missing
            session = resume_session(record, finished_too=True)
        if not owners.may_see(session.record_path, browser_of(http)):
            raise missing
        return session

    def view(session) -> models.SessionResponse:
        return session.view()

    @app.post("/api/play", response_model=models.SessionResponse, responses={202: {"model": models.Pending}})
    def new_game(request: models.PlayRequest, http: Request):
        from ..play.session import Session
        from ..terminal.console import play, tutor_threshold

        if request.resume is not None:
            return continue_game(request.resume, http)
        if not request.game.strip():
            raise InputError("name a game to play, or an unfinished game's record to resume")
        game = _game(request.game)
        opponents = [o.strip().lower()[:40] for o in request.opponents]
        games_folder.mkdir(parents=True, exist_ok=True)
        seed = request.seed if request.seed is not None else secrets.randbits(31)
        path = games_folder / f"{re.sub(r'[^A-Za-z0-9._=,-]+', '_', game.canonical)}-{seed}-{secrets.token_hex(4)}.jsonl"
        players, _ = Session.seating(game, opponents, request.first)
        solution = store.get(players)  # 202 while the hints' table is solved; nothing is written before
        for name in opponents:  # the bots' own tables too, through the same queue (202 while they build)
            store.bot(players, name)
        shelf.admit(own_browser(http))  # 429 past this browser's share of new and unfinished games
        owners.claim(path, browser_of(http))
        shelf.claimed(path, browser_of(http))
        try:
            threshold = tutor_threshold(solution.unit, request.tutor_threshold) if request.tutor else None
            table = Session.new(game, opponents, seed=seed, manual_dice=request.manual_dice, first=request.first,
                                path=path, tutor=threshold)
        except BaseException:
            owners.forget(path)
            raise
        session = sessions.new(game.canonical, lambda console, ask: (table.playthrough,
                                                                     play(table, solution, console, ask,
                                                                          tutor=table.tutor)), path,
                               snapshot=lambda: board_of(table), position=lambda: table.state)
        session.wait(5.0)
        if session.error:
            raise InputError(session.error)
        return view(session)

    def continue_game(name: str, http: Request) -> models.SessionResponse:
        return view(resume_session(record_path(name, http)))

    def resume_session(path: Path, finished_too: bool = False):
        """An unfinished game from its record, throwing the dice an unbroken game would have thrown (the
        seed and the event number decide them); a record cut in the middle of a line goes on from its
        last complete event, and says so. ``finished_too``: a finished game too (its page, served by
        another process than the one that ended it, shows its end and its review)."""
        from ..play.session import Session
        from ..terminal.console import play

        live = sessions.playing(path)
        if live is not None:  # already being continued: that game, not a second writer of one record
            return live
        _check_record_game(path)
        lock = RecordLock(path)  # read and continued under the lock: no other process moves it meanwhile
        if not lock.acquire():
            raise GameBusy("another request is moving this game; ask again in a moment")
        try:
            live = sessions.playing(path)
            if live is not None:  # continued by another request of this process meanwhile
                lock.release()
                return live
            warnings: list[str] = []
            playthrough = registry.read_record(path, warnings)
            if playthrough.is_over() and not finished_too:
                raise InputError(f"{path.name} is a finished game (see Review)")
            solution = store.get(playthrough.game)  # 202 while the hints' table is solved
            table = Session.resume(playthrough.game, path, warnings)
        except BaseException:
            lock.release()
            raise

        def start(console, ask):
            for warning in dict.fromkeys(warnings):
                console.print(f"note: {without_paths(warning)}", markup=False)
            console.print(f"continuing from its record ({len(table.playthrough.steps)} steps so far)", markup=False)
            return table.playthrough, play(table, solution, console, ask, tutor=table.tutor)

        session = sessions.new(table.game.canonical, start, path, snapshot=lambda: board_of(table),
                               position=lambda: table.state, lock=lock)
        session.wait(5.0)
        if session.error:
            raise InputError(session.error)
        return session

    def record_path(name: str, http: Request) -> Path:
        """One of this browser's records in the web games folder."""
        if not RECORD_NAME.match(name):
            raise InputError("a record name is letters, digits, dots and dashes, ending in .jsonl")
        path = games_folder / name
        if not path.is_file() or not owners.may_see(path, browser_of(http)):
            raise _NotFound(f"no record named {name}")
        return path

    @app.get("/api/records/{name}", summary="Download one of this browser's games as its record (JSON Lines, "
             "what `dicesolver analyze` and the Review tab's upload read)")
    def download(name: str, http: Request):
        text = record_path(name, http).read_bytes()
        text = text[:text.rfind(b"\n") + 1]  # whole lines: a move being appended now is left for the next download
        return Response(text, media_type="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @app.delete("/api/records/{name}", summary="Discard an unfinished game (its record is deleted); one being "
                                               "played is quit first")
    def discard(name: str, http: Request):
        path = record_path(name, http)
        live = sessions.playing(path)
        if live is not None:  # this browser's own game: discarding it says quit
            try:
                live.send("quit")
            except DicesolverError:  # it ended meanwhile, or is moving: it is quit below or asked again
                pass
            if not (live.stopped or live.over):
                raise GameBusy("that game is making a move; ask again in a moment")
            sessions.drop(live)
        if registry.read_record(path).is_over():
            raise InputError(f"{name} is a finished game: finished games are kept")
        path.unlink(missing_ok=True)
        owners.forget(path)
        RecordLock(path).path.unlink(missing_ok=True)
        return {"discarded": name}

    @app.get("/api/play/{session_id}", response_model=models.SessionResponse)
    async def get_game(session_id: str, http: Request, wait: float = Query(0.0, ge=0.0, le=10.0)):
        # waiting for a bot's move holds no thread: pollers of busy games cannot use up the pool of threads
        session = await run_in_threadpool(session_or_404, session_id, http)
        deadline = time.monotonic() + wait
        while not session.idle() and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        return view(session)

    @app.post("/api/play/{session_id}/send", response_model=models.SessionResponse)
    def send(session_id: str, request: models.SendRequest, http: Request):
        line = request.line.replace("\n", " ").replace("\r", " ")
        session = session_or_404(session_id, http)
        try:
            try:
                session.send(line, moves=request.moves)
            except StaleGame:  # another process moved it meanwhile: once more, from its record
                sessions.drop(session)
                session = session_or_404(session_id, http)
                session.send(line, moves=request.moves)
        except StaleMove:  # made on a board already answered (a double tap): the game as it stands, unmoved
            return view(session).model_copy(update={"stale": True})
        return view(session)

    @app.get("/api/play/{session_id}/review", response_model=models.ReviewResponse)
    def session_review(session_id: str, http: Request, width: int | None = WidthQuery):
        session = session_or_404(session_id, http)
        if session.result is None:
            raise InputError("the game is not over yet")
        _, review = session.result
        return reviewed(review, width)

    # -- review -------------------------------------------------------------------------------------------
    @app.get("/api/records", response_model=list[models.RecordInfo],
             summary="This browser's games played in the web app, newest first (a page of them)")
    def records(http: Request, offset: int = Query(0, ge=0, le=10**6), limit: int = Query(200, ge=1, le=500)):
        return [info for _, info in shelf.mine(browser_of(http))[offset:offset + limit]]

    def review_file(path: Path, player: int, start: bool = True, width: int | None = None) -> models.ReviewResponse:
        _check_record_game(path)
        playthrough = registry.read_record(path)
        playthrough.seat(player)  # a player the record has, before any table is asked for
        with sized(playthrough.game):
            solution = store.get(playthrough.game, start=start)
        return review_response(solution, playthrough, player, width)

    @app.get("/api/records/{name}/review", response_model=models.ReviewResponse,
             responses={409: {"description": "its game is not solved yet: POST /api/advice or /api/play solves it"}})
    def review_saved(name: str, http: Request, player: int = Query(0, ge=0, le=5), width: int | None = WidthQuery):
        return review_file(record_path(name, http), player, start=False, width=width)

    @app.post("/api/records/{name}/review", response_model=models.ReviewResponse,
              responses={202: {"model": models.Pending}}, summary="Review a game, solving its table first if need be")
    def review_saved_solving(name: str, http: Request, player: int = Query(0, ge=0, le=5),
                             width: int | None = WidthQuery):
        return review_file(record_path(name, http), player, width=width)

    @app.post("/api/review", response_model=models.ReviewResponse, summary="Review an uploaded record")
    def review_upload(request: models.ReviewRequest):
        uploads = tables.cache_dir() / "uploads"
        uploads.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", dir=uploads, delete=False, encoding="utf-8") as fh:
            fh.write(request.record if request.record.endswith("\n") else request.record + "\n")
            path = Path(fh.name)
        try:
            return review_file(path, request.player, width=request.width)
        except DicesolverError as exc:  # the message names the server's temporary file: it is the user's record
            raise type(exc)(str(exc).replace(str(path), "your record")) from None
        finally:
            path.unlink(missing_ok=True)

    # -- explore -------------------------------------------------------------------------------------------
    # A figure is drawn by a POST, as a job with its progress (its tables built first); its GET only reads:
    # the drawn image, or one drawn here from tables already on disk, or 409 while they are not.
    def figure(game: Game, what: str, start: bool, width: int | None) -> bytes:
        width = page_width(width)
        with sized(game):
            return store.prepare(f"figure {what} {width} {store.key(game)}", f"drawing the {what} of {game.canonical}",
                                 lambda progress: _figure(game, what, progress, width), start=start,
                                 size=lambda: figure_size(game, what),
                                 ahead=f"dicesolver frontier {game.canonical}" if what == "frontier"
                                 else ahead_command(game))

    @app.post("/api/explore/figure", response_model=models.FigureReady,
              responses={202: {"model": models.Pending}}, summary="Draw an explore figure (solving what it needs)")
    def draw_figure(request: models.FigureRequest):
        g = _game(request.game)
        figure(g, request.image.removesuffix(".png"), start=True, width=request.width)
        width = "" if request.width is None else f"&width={request.width}"
        return models.FigureReady(url=f"/api/explore/{request.image}?game={quote(g.canonical, safe='')}{width}")

    @app.get("/api/explore/distribution.png", response_class=Response,
             responses={200: {"content": {"image/png": {}}}, 409: {"description": "not solved yet: POST /api/explore/figure"}})
    def distribution_png(game: str = Query(..., max_length=200), width: int | None = WidthQuery):
        return Response(figure(_game(game), "distribution", start=False, width=width), media_type="image/png")

    @app.get("/api/explore/chart.png", response_class=Response,
             responses={200: {"content": {"image/png": {}}}, 409: {"description": "not solved yet: POST /api/explore/figure"}})
    def chart_png(game: str = Query(..., max_length=200), width: int | None = WidthQuery):
        return Response(figure(_game(game), "chart", start=False, width=width), media_type="image/png")

    @app.get("/api/explore/simulation.png", response_class=Response,
             responses={200: {"content": {"image/png": {}}}, 409: {"description": "not solved yet: POST /api/explore/figure"}})
    def simulation_png(game: str = Query(..., max_length=200), width: int | None = WidthQuery):
        return Response(figure(_game(game), "simulation", start=False, width=width), media_type="image/png")

    @app.get("/api/explore/frontier.png", response_class=Response,
             responses={200: {"content": {"image/png": {}}}, 409: {"description": "not solved yet: POST /api/explore/figure"}})
    def frontier_png(game: str = Query(..., max_length=200), width: int | None = WidthQuery):
        return Response(figure(_game(game), "frontier", start=False, width=width), media_type="image/png")

    @app.get("/api/explore/despirala.png", response_class=Response, include_in_schema=False)
    def despirala_png(game: str = Query("despirala", max_length=200)):
        return simulation_png(game, None)

    @app.get("/api/explore/odds", response_model=list[OddsRow], summary="One-turn odds of each category")
    def odds(game: str = Query(..., max_length=200)):
        g = _game(game)
        return registry.family_of(g).odds(g)

    # -- the page --------------------------------------------------------------------------------------------
    static = resources.files("dicesolver.web") / "static"

    @app.get("/", include_in_schema=False)
    def index():
        return FileResponse(str(static / "index.html"))

    @app.get("/docs", include_in_schema=False)
    def docs():  # the API listed from /openapi.json by a page the package ships: offline, no third-party code
        return FileResponse(str(static / "docs.html"))

    def no_document(exc: InputError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=404)

    @app.get("/docs/images/{name}", include_in_schema=False)
    def document_image(name: str):  # the documents' pictures (screenshots, figures), shipped with them
        try:
            return Response(documents.image(name[:100]), media_type="image/png")
        except InputError as exc:
            return no_document(exc)

    @app.get("/docs/examples/{name}", include_in_schema=False)
    def document_example(name: str):  # the rules files the documents link to, as text
        try:
            return Response(documents.example(name[:100]), media_type="text/plain; charset=utf-8")
        except InputError as exc:
            return no_document(exc)

    @app.get("/docs/{topic}", include_in_schema=False)
    def document(topic: str):  # the documentation shipped with the package ('dicesolver docs TOPIC')
        try:
            return HTMLResponse(document_pages.page(topic[:40]))
        except InputError as exc:
            return no_document(exc)

    @app.get("/manifest.webmanifest", include_in_schema=False)
    def manifest():  # what a phone needs to add the app to its home screen
        return FileResponse(str(static / "manifest.webmanifest"), media_type="application/manifest+json")

    @app.get("/sw.js", include_in_schema=False)
    def service_worker():  # at the root, so that it may keep the page itself (its scope is the folder it is in)
        return FileResponse(str(static / "sw.js"), media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    @app.exception_handler(_NotFound)
    async def not_found(request: Request, exc: _NotFound):
        return JSONResponse({"detail": str(exc)}, status_code=404)

    return app


class _NotFound(Exception):
    pass


def _clean_uploads() -> None:
    """Uploaded records are read from a temporary file, deleted after; one a crash left behind goes now."""
    for stale in (tables.cache_dir() / "uploads").glob("*.jsonl"):
        stale.unlink(missing_ok=True)


MAX_TRAINERS = 5_000  # browsers with training records; past it only those that have one train here


def trainer(http: Request) -> str:
    """The browser's id for its training records (``own_browser``); past MAX_TRAINERS browsers with records,
    only one that has records already starts training (429): a flood of new browsers cannot fill the disk."""
    from ..core import training

    browser = own_browser(http)
    if not training.has_trained(browser) and training.trainers() >= MAX_TRAINERS:
        raise TooMany(f"this server keeps the training of {MAX_TRAINERS:,} browsers, the most it will: a browser "
                      "that has trained here before can go on")
    return browser


def own_browser(http: Request) -> str:
    """The browser's id, for what is kept under it; a client given none (``access.Browsers``: its address had
    its share of new ids this minute) is refused (429)."""
    browser = browser_of(http)
    if not browser:
        raise TooMany("too many new browsers from your address this minute: wait a moment, and let this browser "
                      "keep its cookie")
    return browser


def _check_record_game(path: Path) -> None:
    """Refuse a record whose header names a rules file: the web app never reads files a request names. The
    header is the record reader's own (``registry.record_game``: the first line that is not blank)."""
    _game(registry.record_game(path))


@contextlib.contextmanager
def sized(game: Game) -> Iterator[None]:
    """A table found missing within says how big it would be (the page shows it before offering the build)."""
    try:
        yield
    except tables.NotBuilt as exc:
        if exc.size is not None:
            raise
        raise tables.NotBuilt(exc.key, registry.family_of(game).table_size(game)) from None


def figure_size(game: Game, what: str):
    """The tables an explore figure builds (``Family.table_size``); the frontier's: a risk appetite's for
    each of its thetas (the lane its job waits in follows)."""
    family = registry.family_of(game)
    if what == "frontier":
        from ..analysis.frontier import THETAS

        one = family.goal_size(game, aims.RiskAppetite(THETAS[-1]))
        if one is not None:
            return type(one)(one.bytes * len(THETAS), (one.seconds or 0.0) * len(THETAS))
    return family.table_size(game)


def _figure(game: Game, what: str, progress=None, width: int | None = None) -> bytes:
    """A game's explore figure as a PNG: the exact score distribution, the strategy chart, the score
    histogram of 100,000 games of the expected-score strategy (seed 1), or the risk appetites' trade-offs
    (``dicesolver frontier``)."""
    from ..analysis import plots

    family = registry.family_of(game)
    if what == "frontier":
        from ..analysis.frontier import frontier

        fig = plots.frontier_figure(frontier(game, progress=progress))
    elif what == "distribution":
        fig = plots.distribution_figure(family.distribution(game, progress))
    elif what == "chart":
        if progress is not None:  # a job: the solve shows its progress (the chart reads the table then)
            family.solve(game, progress=progress)
        fig = family.chart_figure(game)
    else:
        from ..analysis.simulate import simulate

        fig = plots.simulation_figure(game, simulate(game, ["optimal"], n=100_000, seed=1, progress=progress))
    return _png(fig, width)
