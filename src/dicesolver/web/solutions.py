"""Solved tables for the web app, loaded or solved in the background so that no request waits long.

``SolutionStore.get(game)`` returns a table at once when it is in memory; otherwise it starts (or finds)
a background job that loads it from the cache or solves it, waits a moment (a cached table usually
loads in that time) and, if the job is still running, raises ``NotReady`` carrying the job, which the
API answers with 202 and the job's progress so the page can show a bar and ask again.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import OrderedDict
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Callable

from ..core import registry, tables
from ..core.family import TableSize
from ..core.kernel_cache import never_compiled
from ..core.numbers import duration_text
from ..core.pace import Pace
from ..core.errors import DicesolverError


JOB_THREAD = "dicesolver-job"  # the name of each job's thread starts with this


@dataclass
class Job:
    id: str
    label: str
    state: str = "running"  # running, done, failed
    done: int = 0
    total: int = 0
    error: str = ""
    started: float = field(default_factory=time.monotonic)
    pace: Pace = field(default_factory=Pace)
    failure: Exception | None = None
    halt: threading.Event | None = None  # set when the server stops: the work ends at its next report
    estimate: float | None = None  # the build's estimated seconds (``TableSize``), where it has one
    building_since: float | None = None  # when its build started (after its wait in its lane)
    expires: bool = True  # ends once nobody has asked about it for ORPHAN_SECONDS (not a warmup's)
    asked: float = field(default_factory=time.monotonic)  # when someone last asked about it
    requester: str = ""  # the client whose request started it (REQUESTER)

    def __post_init__(self) -> None:
        self.base = self.label  # the job's name, which each stage's label starts with

    def ask(self) -> None:
        """Someone waits for it (its page polls it, or a request found it)."""
        self.asked = time.monotonic()

    def orphaned(self) -> bool:
        return self.expires and time.monotonic() - self.asked > ORPHAN_SECONDS

    def progress(self, done: int, total: int) -> None:
        self._go_on()
        if self.orphaned():  # the page that asked for it is gone: its build gives way to the others'
            raise Stopped(f"stopped: nobody asked about it for {ORPHAN_SECONDS:.0f} s; ask again to build it")
        self.done, self.total = int(done), int(total or 0)
        if self.total > 0:
            self.pace.report(self.done / self.total, time.monotonic())

    def stage(self, what: str) -> None:
        """From now on the work is ``what`` (``core.family.tell_stage``): the bar says so and starts anew."""
        self._go_on()
        self.label = f"{self.base}: {what}"
        self.done = self.total = 0
        self.pace.restart()

    def seconds(self) -> float:
        return time.monotonic() - self.started

    def _go_on(self) -> None:
        """Raises ``Stopped`` once the server stops: every build reports its progress, so it ends there (a table
        is written whole or resumed from its last level, as after a kill)."""
        if self.halt is not None and self.halt.is_set():
            raise Stopped("the server stopped before this was done")

    def seconds_left(self) -> float | None:
        """The time left by the work's pace; until its pace shows, by the build's estimate (from its first
        second: a page waiting on a long build says how long at once)."""
        if self.state != "running":
            return None
        now = time.monotonic()
        left = self.pace.left(now)
        if left is None and self.estimate and self.building_since is not None:
            left = max(1.0, self.estimate - (now - self.building_since))
        return left


def ahead_command(game) -> str:
    """The command that builds a game's tables ahead of time: ``warmup`` for one player, ``solve --players``."""
    players = getattr(game, "n_players", 1)
    return f"dicesolver solve {game.canonical} --players {players}" if players > 1 else f"dicesolver warmup {game.canonical}"


class NotReady(Exception):
    def __init__(self, job: Job):
        super().__init__(job.label)
        self.job = job


class Busy(DicesolverError):
    """The queue of table builds is full: the request is refused (503), not kept waiting."""


class Stopped(DicesolverError):
    """The server is stopping: a job ends at its next progress report, and no new one starts (503)."""


class TooBig(DicesolverError):
    """A table beyond what this server was started to build (``serve --max-table-gb``, ``--max-build-minutes``,
    ``--max-cache-gb``): refused (413)."""


REQUESTER: ContextVar[str] = ContextVar("requester", default="")  # the client asking (its address: web.access)
ORPHAN_SECONDS = 120.0  # a web build nobody asked about for this long stops (pages poll their job every second)
QUICK_SECONDS = 30.0  # a build estimated at most this long goes in the quick lane (a 1-s Yatzy solve, Pig's tables)


def cache_bytes() -> int:
    """The bytes of every table in the cache (web-built or not: the disk is one)."""
    from ..core.caches import cached_tables

    return sum(t.bytes for t in cached_tables())


def lane_of(size: TableSize | None) -> str:
    """The lane of a build by its estimate: "quick", or "long" (an estimate over QUICK_SECONDS, or none)."""
    seconds = size.seconds if size is not None else None
    return "quick" if seconds is not None and seconds <= QUICK_SECONDS else "long"


def in_words(seconds: float) -> str:
    """A wait as a person says it: "about 40 s", "about 12 min", "about 3.5 h"."""
    return f"about {duration_text(max(1.0, seconds))}"


class SolutionStore:
    """Solutions and figures, each made once by a job. A job first reads what is on disk (any number at once);
    one that must build a table waits its turn in its lane: builds estimated at QUICK_SECONDS or less in the
    quick lane, the others in the long lane, one build at a time in each (a Yatzy advice never waits behind a
    36-minute Farkle build), at most ``MAX_BUILDS`` waiting or running in a lane, and a request that would
    start one more is refused with ``Busy``. A long build says its estimate before it starts, with the command
    that builds it ahead of time."""

    MAX_BUILDS = 4
    MAX_BUILDS_PER_CLIENT = 2  # of a lane's MAX_BUILDS, from one client address
    MAX_KEPT = 32  # solutions and figures held in memory, the least recently used let go (read again from disk)

    def __init__(self, wait_seconds: float = 0.8, max_table_bytes: int | None = None,
                 max_cache_bytes: int | None = None,
                 max_build_seconds: float | None = None):
        self.wait_seconds = wait_seconds
        self.max_table_bytes = max_table_bytes
        self.max_cache_bytes = max_cache_bytes  # the tables on disk in all, a build's included (None: no bound)
        self.max_build_seconds = max_build_seconds
        self._solutions: OrderedDict[str, Any] = OrderedDict()
        self._jobs: dict[str, Job] = {}
        self._job_by_game: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._turn = threading.Condition()  # one table build at a time in each lane, in turn
        self._lanes: dict[str, list[Job]] = {"quick": [], "long": []}  # each lane's jobs: building (the first), waiting
        self._stopping = threading.Event()
        self._threads: set[threading.Thread] = set()  # the jobs' threads, while they run

    def close(self, wait: float = 3.0) -> None:
        """Stops every job (the server is stopping): each ends at its next progress report, and this waits up to
        ``wait`` seconds for them. A build left running would keep a core and the shared threads busy after
        the app is gone (an app in a test, or in a process that goes on)."""
        self._stopping.set()
        with self._turn:
            self._turn.notify_all()  # the jobs waiting their turn to build
        deadline = time.monotonic() + wait
        for thread in list(self._threads):
            thread.join(max(0.0, deadline - time.monotonic()))

    def job(self, job_id: str) -> Job | None:
        found = self._jobs.get(job_id)
        if found is not None:
            found.ask()
        return found

    @staticmethod
    def key(game) -> str:
        return f"{game.canonical}#{game.n_players}"

    def ready(self, game) -> bool:
        return self.key(game) in self._solutions

    def get(self, game, wait: float | None = None, start: bool = True, expires: bool = True):
        """The game's solution (for its number of players), or NotReady while a job builds it. ``start``
        false (a GET, which builds nothing): loaded from disk in this thread, or ``tables.NotBuilt``;
        ``expires`` false: its build goes on when nobody asks about it (a warmup's)."""
        family = registry.family_of(game)
        return self.prepare(self.key(game), f"solving {game.canonical}",
                            lambda progress: family.solve(game, progress=progress), wait, start,
                            size=lambda: family.table_size(game), ahead=ahead_command(game), expires=expires)

    def goal(self, game, goal, wait: float | None = None):
        """The solution that plays ``game`` for ``goal`` (``core.aims``), built by a job like any table (NotReady
        while it runs; its estimate picks its lane and ``max_table_bytes`` bounds it)."""
        family = registry.family_of(game)
        flag = {"theta:": "--theta ", "target:": "--target ", "beat:": "--beat ", "field:": "--field "}
        text = goal.text()
        option = next((f + text[len(p):] for p, f in flag.items() if text.startswith(p)), "")
        return self.prepare(f"goal {text} {self.key(game)}", f"{game.canonical}: {goal.words()}",
                            lambda progress: registry.solve(game, goal=goal, progress=progress), wait,
                            size=lambda: family.goal_size(game, goal),
                            ahead=f"dicesolver solve {game.canonical} {option}".strip())

    def bot(self, game, name: str, wait: float | None = None) -> None:
        """Returns once a bot's tables are built and cached (NotReady while a job builds them): starting a
        game with it then only loads them."""
        def build(progress) -> None:
            # its tables are on disk after this; the bot itself is not kept
            registry.family_of(game).player(game, name, progress=progress)

        self.prepare(f"bot {name} {self.key(game)}", f"building {name}'s tables for {game.canonical}", build, wait,
                     size=lambda: registry.family_of(game).table_size(game, name), ahead=ahead_command(game))

    def prepare(self, key: str, label: str, work, wait: float | None = None, start: bool = True,
                size: Callable[[], TableSize | None] | None = None, ahead: str | None = None, expires: bool = True):
        """The result of ``work(progress)`` for ``key``: at once when done before, else from the one job
        that runs it in the background (started now if none is running); NotReady while it runs. ``start``
        false: no job is started; ``work`` runs here with builds refused (what is on disk is read, nothing
        is written: ``tables.NotBuilt`` otherwise). ``size``: the table it would build, checked against
        ``max_table_bytes`` before it does (``TooBig``), and by its estimate the lane it waits in; ``ahead``:
        the command that builds its tables ahead of time, in a long build's words. A job stops once nobody has
        asked about it for ORPHAN_SECONDS (its page closed), unless ``expires`` is false."""
        with self._lock:
            if key in self._solutions:
                self._solutions.move_to_end(key)
                return self._solutions[key]
            job = self._job_by_game.get(key)
            idle = job is None or job.state == "failed"
        if idle and (not start or max(len(lane) for lane in self._lanes.values()) >= self.MAX_BUILDS):
            try:  # only what is on disk, read here: a GET, or any request while the build queue is full
                with tables.refuse_builds():
                    result = work(None)
            except tables.NotBuilt:
                if not start:
                    raise
                raise self._busy() from None
            with self._lock:
                return self._keep(key, result)
        started = False
        with self._lock:
            job = self._job_by_game.get(key)
            if job is not None and job.state == "running":
                job.ask()
            if job is None or job.state == "failed":
                started = True
                if self._stopping.is_set():
                    raise Stopped("the server is stopping")
                if never_compiled():
                    label += " (a first run also compiles the solver's kernels, once per install)"
                job = Job(uuid.uuid4().hex[:12], label, halt=self._stopping, expires=expires,
                          requester=REQUESTER.get())
                if len(self._jobs) >= 500:  # finished jobs are asked about for a moment only
                    self._jobs = {i: j for i, j in self._jobs.items()
                                  if j.state == "running" or j.seconds() < 600}
                self._jobs[job.id] = job
                self._job_by_game[key] = job
                thread = threading.Thread(target=self._run, args=(key, work, job, size, ahead), daemon=True,
                                          name=f"{JOB_THREAD} {key}")
                self._threads.add(thread)
                thread.start()
        # the request that starts a job waits a moment for it (a quick build answers at once); one that finds it
        # running answers 202 now rather than hold a thread while the job's own pollers ask
        deadline = time.time() + ((self.wait_seconds if wait is None else wait) if started else 0.0)
        while job.state == "running" and time.time() < deadline:
            time.sleep(0.02)
        with self._lock:
            if key in self._solutions:
                return self._solutions[key]
        if job.state == "failed":
            raise job.failure if isinstance(job.failure, DicesolverError) else DicesolverError(job.error)
        raise NotReady(job)

    def _run(self, key: str, work, job: Job, size: Callable[[], TableSize | None] | None = None,
             ahead: str | None = None) -> None:
        try:
            try:
                with tables.refuse_builds():  # what is on disk is read at once, beside any build
                    result = work(job.progress)
            except tables.NotBuilt:
                needed = self._check_size(size, ahead)
                lane = lane_of(needed)
                if lane == "long" and needed is not None and needed.seconds:  # said before the wait starts
                    job.base += (f" (once: {in_words(needed.seconds)} on this machine"
                                 + (f"; '{ahead}' builds it ahead of time" if ahead else "") + ")")
                    job.label = job.base
                job.estimate = needed.seconds if needed is not None else None
                result = self._build(work, job, lane)
            with self._lock:
                self._keep(key, result)
            job.state = "done"
        except Exception as exc:  # reported to the page through the job; the server carries on
            job.error = str(exc) or type(exc).__name__
            job.failure = exc
            job.state = "failed"
        finally:
            self._threads.discard(threading.current_thread())

    def _keep(self, key: str, result: Any) -> Any:
        """Holds ``result`` (the lock held): the least recently used beyond MAX_KEPT are let go, and with them
        their finished jobs."""
        result = self._solutions.setdefault(key, result)
        self._solutions.move_to_end(key)
        while len(self._solutions) > self.MAX_KEPT:
            gone, _ = self._solutions.popitem(last=False)
            job = self._job_by_game.get(gone)
            if job is not None and job.state != "running":
                del self._job_by_game[gone]
                self._jobs.pop(job.id, None)
        return result

    def _check_size(self, size: Callable[[], TableSize | None] | None, ahead: str | None = None) -> TableSize | None:
        """The table's estimate (None when unknown), refused (``TooBig``) beyond ``max_table_bytes`` or, by its
        time, ``max_build_seconds`` (an 11-hour build asked by a page would hold the long lane for the day)."""
        try:
            needed = size() if size is not None else None
        except Exception:  # an estimate that cannot be made is no estimate: the build is judged by its work
            needed = None
        if needed is not None and self.max_table_bytes is not None and needed.bytes > self.max_table_bytes:
            raise TooBig(f"its table would be {needed.describe()}; this server builds tables up to "
                         f"{self.max_table_bytes / 1e9:,.1f} GB (serve --max-table-gb): solve it with "
                         "'dicesolver solve' first, or raise the limit")
        if needed is not None and self.max_cache_bytes is not None:
            held = cache_bytes()
            if held + needed.bytes > self.max_cache_bytes:
                raise TooBig(f"its table would be {needed.describe()}, and the cache holds {held / 1e9:,.1f} GB of "
                             f"tables already; this server keeps up to {self.max_cache_bytes / 1e9:,.1f} GB "
                             "(serve --max-cache-gb): 'dicesolver cache' lists them and 'dicesolver cache clear "
                             "GAME' removes some, or build it with "
                             f"'{ahead or 'dicesolver solve GAME'}'")
        if needed is not None and needed.seconds and self.max_build_seconds is not None \
                and needed.seconds > self.max_build_seconds:
            raise TooBig(f"its table would take {in_words(needed.seconds)} to build; this server starts builds of up "
                         f"to {in_words(self.max_build_seconds)} (serve --max-build-minutes): build it with "
                         f"'{ahead or 'dicesolver solve GAME'}' first, or raise the limit")
        return needed

    def _busy(self, lane: str | None = None) -> Busy:
        building = sum(len(jobs) for jobs in self._lanes.values()) if lane is None else len(self._lanes[lane])
        return Busy(f"the server is building {building} tables already (one at a time in each of its two lanes, "
                    "quick and long): try again when they are done")

    def _build(self, work, job: Job, lane: str = "long"):
        """``work`` with its tables built, in its turn in its lane (or ``Busy`` when the lane is full). A job
        waiting says how many builds are ahead of it and, where they have an estimate, for about how long."""
        queue = self._lanes[lane]
        with self._turn:
            if len(queue) >= self.MAX_BUILDS:
                raise self._busy(lane)
            mine = [j for j in queue if job.requester and j.requester == job.requester]
            if len(mine) >= self.MAX_BUILDS_PER_CLIENT:  # one client never holds every place in a lane
                raise Busy(f"{len(mine)} table builds asked from your address are waiting or running: try again "
                           "when they are done")
            queue.append(job)
            while queue[0] is not job:
                if self._stopping.is_set() or job.orphaned():
                    queue.remove(job)
                    self._turn.notify_all()
                    raise Stopped("the server stopped before this was done" if self._stopping.is_set() else
                                  f"stopped: nobody asked about it for {ORPHAN_SECONDS:.0f} s; ask again to build it")
                ahead = queue[:queue.index(job)]
                # the build running: its time left by its pace (by its estimate until it has one); the others
                waits = [(j.seconds_left() if j is queue[0] else None) or j.estimate for j in ahead]
                known_waits = [w for w in waits if w is not None]
                known = f", {in_words(sum(known_waits))}" if known_waits and len(known_waits) == len(waits) else ""
                job.stage(f"waiting for {len(ahead)} table build{'s' if len(ahead) > 1 else ''} before it{known}")
                self._turn.wait(timeout=1.0)  # the estimate of the wait, again each second
        job.label = job.base
        job.building_since = time.monotonic()
        try:
            return work(job.progress)
        finally:
            with self._turn:
                queue.remove(job)
                self._turn.notify_all()
