"""Games played in the browser: the terminal front ends (scorecard, push-your-luck and Despirala games)
run unchanged, their prompts answered by what the page sends.

A game waiting for its player holds no thread: only its state (the table's Session) and its transcript.
Each line the page sends starts a short drive of the front end in a thread that ends at the next prompt
(or at the game's end): the front end starts again from the state the game is in, the lines typed since
the game last moved are replayed to it unseen (a hint, a mistake, 'stand' before a box: prompts that move
nothing), and the new line is answered at the prompt where the game waits. Every request returns as soon
as the game asks again (or after a short wait, with ``busy`` set, while a bot thinks), so a page never
hangs. The records are the same JSON Lines files as in the terminal, in the web games folder inside the
cache directory; a game idle for ``IDLE_SECONDS``, or the oldest waiting one beyond ``MAX_SESSIONS`` or
``MEMORY_BUDGET``, is put away (dropped from memory; its record holds every move) and continued from its record when its page
comes back.

Several server processes (``serve --workers N``) share the games folder. A game's id is its record's
(``game_id``), so any process finds the record of any game; the record is the game's state. A process
moves a game only while it holds the record's lock (``RecordLock``: one writer at a time, across
processes), and a game held in memory whose record changed since (another process moved it) is continued
afresh from the record. A line sent while another is being applied is refused (``GameBusy``, 409); a move
that names the board it was made on (``moves``) and arrives after that board has been answered (a second
tap, a second tab) is not applied (``StaleMove``): its sender gets the game as it now stands. Never a lost
or doubled move.
"""

from __future__ import annotations

import hashlib
import io
import operator
import re
import threading
import time
from collections import Counter
from functools import reduce
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from filelock import FileLock, Timeout
from rich.console import Console

from ..core.errors import DicesolverError
from ..terminal.console import QuitGame
from .models import PlayAction, PlayBoard, SessionResponse, ThrowRequest

if TYPE_CHECKING:
    from ..play.session import Session

IDLE_SECONDS = 30 * 60
MAX_SESSIONS = 500  # games held in memory (no thread each); beyond, the longest-waiting one is put away to disk
MAX_TRANSCRIPT = 400_000  # characters kept (the oldest are dropped)
MEMORY_BUDGET = 512 * 2**20  # bytes the games held in memory may take (PlaySession.footprint); beyond, put away
GAME_BYTES = 2**20  # a live game beyond its transcript: bench_web_memory.py measures at most 0.6 MB, rounded up
LOCK_WAIT_SECONDS = 5.0  # how long a move waits for another process's move on the same game
LOCK_SUFFIX = ".lock"  # a record's lock file is beside it: <record>.lock


class _Waiting(Exception):
    """Raised at a prompt with no line to answer it: the drive ends there and the game waits."""


class GameBusy(DicesolverError):
    """A line that cannot be applied now: another is being applied, or the game has left the position the
    line was meant for (answered 409)."""


class StaleMove(Exception):
    """A move made on a board that has already been answered (a double tap, another tab): not applied."""


class StaleGame(Exception):
    """The game in memory is behind its record (another process moved it): continue it from the record."""


GAME_ID = re.compile(r"^[0-9a-f]{16}$")


def game_id(record_path: Path) -> str:
    """A game's id, the same in every process and after a restart: from its record's name."""
    return hashlib.sha256(record_path.name.encode()).hexdigest()[:16]


class RecordLock:
    """An exclusive lock on a game's record, shared by every process: ``flock`` on a file beside the record
    (not the record itself, which an undo replaces), released by the kernel if the process dies. A game is
    read, continued and moved only under it: one move is applied at a time."""

    def __init__(self, record: Path):
        self.path = record.with_name(record.name + LOCK_SUFFIX)
        self._lock: FileLock | None = None

    def acquire(self, seconds: float = LOCK_WAIT_SECONDS) -> bool:
        lock = FileLock(self.path, mode=0o600, thread_local=False)
        try:
            lock.acquire(timeout=seconds, poll_interval=0.01)
        except Timeout:
            return False
        self._lock = lock
        return True

    def release(self) -> None:
        lock, self._lock = self._lock, None
        if lock is not None:
            lock.release()


def _mark(path: Path) -> tuple[int, int] | None:
    """What tells that a record changed: its size and modification time."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


def board_of(table: Session) -> PlayBoard:
    """The drawn board's snapshot of a game at the table: its state, the family's view of it, and the
    person's legal actions when it is theirs to decide."""
    state = table.state
    you, mover = table.human, state.player
    deciding = mover == you and state.to_move() == you
    actions = play_actions(state) if deciding else []
    request = throw_request(table) if mover == you and state.is_chance() and table.manual_dice else None
    thrown = next((step for step in reversed(table.playthrough.steps)
                   if step.kind in ("roll", "throw") and hasattr(step, "dice")), None)
    return PlayBoard(position=str(state), family=table.family.name, names=table.names(), you=you, mover=mover,
                     view=table.family.view(state), actions=actions,
                     throw=mover == you and state.is_chance() and not table.manual_dice, request=request,
                     last_dice=list(thrown.dice) if thrown is not None else [], totals=table.family.totals(state),
                     said=list(table.family.scene(state, table.names(), you).over) if state.is_terminal() else [],
                     moves=len(table.playthrough.steps), tutor=table.tutor_question)  # the last words only: a live scene is the terminal's


def position_board(state: Any) -> PlayBoard:
    """A position alone (a trainer's question) as the drawn board shows a game's: the seat to move is the
    person's, with its legal actions."""
    from ..core import registry

    family = registry.family_of(state.game)
    mover = state.to_move()
    names = ["you" if seat == mover else f"player {seat + 1}" for seat in range(state.game.n_players)]
    return PlayBoard(position=str(state), family=family.name, names=names, you=mover, mover=mover,
                     view=family.view(state), actions=play_actions(state), totals=family.totals(state))


def play_actions(state: Any) -> list[PlayAction]:
    """The legal actions at a decision, as the board's buttons show them."""
    return [PlayAction(action=str(a), label=a.label, kind=a.kind, points=getattr(a, "points", None))
            for a in state.legal_actions()]


def throw_request(table: Session) -> ThrowRequest:
    """What the person's own throw is, from its outcomes alone (no family's rules): so many dice of so many
    faces, or one outcome of a few picked by name. An outcome may show dice kept from before (a Yahtzee roll
    shows all five): those are in every outcome, and only the others are thrown (and typed)."""
    state = table.state
    outcomes = [step for step, _ in state.chance_outcomes()]
    prompt = table.family.scene(state, table.names(), table.human).prompt
    dice = [Counter(d) for step in outcomes if isinstance(d := getattr(step, "dice", None), tuple) and d]
    if len(dice) == len(outcomes) and len({d.total() for d in dice}) == 1:
        kept = reduce(operator.and_, dice)
        return ThrowRequest(prompt=prompt, dice=dice[0].total() - kept.total(), faces=max(max(d) for d in dice))
    return ThrowRequest(prompt=prompt, choices=[PlayAction(action=str(step), label=step.label, kind=step.kind)
                                                for step in outcomes])


class PlaySession:
    """One game. ``start(console, ask)`` plays it from the state it is in and returns (playthrough, review)
    at its end; ``position()`` is that state (a new object whenever the game moves); ``snapshot()``, taken
    whenever the game waits for the person (and at the end), gives the drawn board."""

    def __init__(self, game: str, start: Callable[[Console, Callable[[str], str]], Any], record_path: Path,
                 position: Callable[[], object], snapshot: Callable[[], PlayBoard] | None = None,
                 lock: RecordLock | None = None):
        self.id = game_id(record_path)
        self.game = game
        self.record_path = record_path
        self._buffer = io.StringIO()
        self.console = Console(file=self._buffer, width=100, color_system=None, force_terminal=False,
                               highlight=False, emoji=False)
        self._start = start
        self._position = position
        self._typed: list[str] = []  # lines answered since the game last moved: replayed, unseen, on each drive
        self._since: object = None  # the position they were typed at
        self._idle = threading.Event()  # set while no drive runs
        self.prompt = ""
        self.over = False
        self.stopped = False
        self.error = ""
        self.result: tuple | None = None  # (playthrough, review) once the game is over
        self.last_used = time.time()
        self._snapshot = snapshot
        self.board: PlayBoard | None = None
        self._starting = threading.Lock()  # one line at a time from this process's requests
        self._record_lock = lock or RecordLock(record_path)  # one move at a time from every process
        self._record_mark: tuple[int, int] | None = None  # the record as this game last left it
        if lock is None and not self._record_lock.acquire():  # a bot's move may be due: written under the lock
            raise GameBusy("another request is moving this game; ask again in a moment")
        self._drive(None)

    def _drive(self, line: str | None) -> None:
        """Run the front end in a thread of its own until the game asks for a line after ``line`` (or ends);
        the record's lock, taken by the caller, is released when it stops."""
        self._idle.clear()
        threading.Thread(target=self._run, args=(line,), daemon=True).start()

    def _run(self, line: str | None) -> None:
        replay = list(self._typed) if line is not None else []
        fresh = [line] if line is not None else []
        seen = self._buffer
        if fresh:  # what comes before the new line was shown by an earlier drive
            self.console.file = io.StringIO()

        def ask(prompt: str) -> str:
            if self._position() is not self._since:  # the game moved: what was typed before is past
                self._since = self._position()
                self._typed.clear()
                replay.clear()
            if replay:
                return replay.pop(0)
            if fresh:
                typed = fresh.pop()
                self.console.file = seen
                self.console.print(typed, markup=False)
                self._typed.append(typed)
                return typed
            self.console.file = seen
            self.console.print(prompt, end="", markup=False)
            self._take_snapshot()
            self.prompt = prompt
            raise _Waiting

        try:
            self.result = self._start(self.console, ask)
            self.over = True
        except _Waiting:
            pass
        except QuitGame:
            self.stopped = True
        except DicesolverError as exc:
            self.error = str(exc)
        except Exception as exc:  # shown on the page; the server carries on
            self.error = f"internal error: {type(exc).__name__}: {exc}"
        finally:
            if seen.tell() > 2 * MAX_TRANSCRIPT:  # a page asking for hints for ever does not grow the game
                seen = io.StringIO(seen.getvalue()[-MAX_TRANSCRIPT:])
                seen.seek(0, io.SEEK_END)
                self._buffer = seen
            self.console.file = seen
            if self.over or self.stopped or self.error:
                self.prompt = ""
                self._take_snapshot()
            self._record_mark = _mark(self.record_path)
            self._record_lock.release()
            self._idle.set()

    def _take_snapshot(self) -> None:
        """The board as the game stands (while nothing moves); a board that cannot be drawn leaves the
        transcript to tell the game."""
        if self._snapshot is not None:
            try:
                self.board = self._snapshot()
            except Exception:  # noqa: BLE001 - the transcript still shows the game
                self.board = None

    def footprint(self) -> int:
        """Bytes this game holds, estimated: its transcript at the widest a character takes in a Python
        string, and GAME_BYTES for the rest."""
        return GAME_BYTES + 4 * self._buffer.tell()

    def wait(self, seconds: float) -> None:
        self._idle.wait(seconds)

    def idle(self) -> bool:
        """Whether no move is being applied (the game waits for its player, or has ended)."""
        return self._idle.is_set()

    def stale(self) -> bool:
        """Whether the record changed since this game last moved (another process moved it)."""
        return self._idle.is_set() and _mark(self.record_path) != self._record_mark

    def send(self, line: str, seconds: float = 5.0, moves: int | None = None) -> None:
        """Apply ``line`` at the prompt (``moves``: the steps played on the board it answers, when the sender
        knows them). A move whose board has been answered already (a line is being applied to it, or the game
        has moved on) raises StaleMove once the game waits again (at most ``seconds``): it is never applied."""
        if moves is not None and (not self.waiting() or self.board is None or moves != self.board.moves):
            self._idle.wait(seconds)
            raise StaleMove
        if self.over or self.stopped or self.error:
            raise DicesolverError("this game has ended")
        with self._starting:
            if not self._idle.is_set() or not self.prompt:
                if moves is not None:  # another request took this board a moment ago: this one is its double
                    self._idle.wait(seconds)
                    raise StaleMove
                raise GameBusy("the game is busy with another move; ask again in a moment")
            if moves is not None and (self.board is None or moves != self.board.moves):
                raise StaleMove
            if not self._record_lock.acquire():
                raise GameBusy("another request is moving this game; ask again in a moment")
            if _mark(self.record_path) != self._record_mark:
                self._record_lock.release()
                raise StaleGame
            self.last_used = time.time()
            self.prompt = ""
            self._drive(line)
        self._idle.wait(seconds)

    def waiting(self) -> bool:
        """Whether the game waits for its player (no drive running, not over)."""
        return self._idle.is_set() and bool(self.prompt)

    def ended(self) -> bool:
        """Whether the game is over, quit or stopped by an error (no drive runs again)."""
        return self._idle.is_set() and (self.over or self.stopped or bool(self.error))

    def view(self) -> SessionResponse:
        text = self._buffer.getvalue()
        if len(text) > MAX_TRANSCRIPT:
            text = text[-MAX_TRANSCRIPT:]
        ended = self.over or self.stopped or bool(self.error)
        return SessionResponse(id=self.id, game=self.game, transcript=text, prompt=self.prompt,
                               busy=not ended and not self._idle.is_set(), over=self.over, stopped=self.stopped,
                               error=self.error, record=self.record_path.name, board=self.board)


class SessionStore:
    """The games in play. A game waiting for its player costs no thread; when more than MAX_SESSIONS are
    open or they take more than MEMORY_BUDGET, the longest-waiting are put away; one idle for IDLE_SECONDS
    is put away too (dropped from memory: every move is already
    in its record) and continued from its record when its page comes back (``record_of``). Starting a game
    never fails because others are open."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._sessions: dict[str, PlaySession] = {}
        self._records: dict[str, Path] = {}  # game id -> record, as far as seen (every process's games)
        self._scanned = -1  # the folder's modification time when its records were last listed
        self._lock = threading.Lock()
        self._fitted = 0.0  # when the games in memory were last fitted to the budget by a request (monotonic)

    def new(self, game: str, start, record_path: Path, position: Callable[[], object],
            snapshot: Callable[[], PlayBoard] | None = None, lock: RecordLock | None = None) -> PlaySession:
        """A game played from the state ``start`` brings it to (``lock``: the record's, already held, if the
        caller read the record under it; the game releases it when it first waits)."""
        with self._lock:
            self._expire()
            self._fit(room=GAME_BYTES)
            session = PlaySession(game, start, record_path, position, snapshot, lock)
            self._sessions[session.id] = session
            self._records[session.id] = record_path
            return session

    def get(self, session_id: str) -> PlaySession | None:
        """The game held in memory, if it is up to date with its record (else it is dropped: continue it
        from the record)."""
        now = time.monotonic()
        if now - self._fitted >= 1.0:  # transcripts grow between new games: looked at once a second, not a poll
            with self._lock:
                self._fitted = now
                self._fit(keep=session_id)
        session = self._sessions.get(session_id)
        if session is not None and session.stale():
            self.drop(session)
            return None
        return session

    def record_of(self, session_id: str) -> Path | None:
        """The record of the game with this id (played in any process, or before a restart), if there is one."""
        path = self._records.get(session_id)
        if path is None and GAME_ID.match(session_id):
            # listed again only when a record came or went since (another process, a restart): an unknown id
            # costs a dictionary look-up, not a walk through every record
            try:
                changed = self.folder.stat().st_mtime_ns
            except OSError:
                return None
            if changed != self._scanned:
                # marked scanned once the scan is in: a request meanwhile scans too, rather than finding nothing
                self._records.update({game_id(p): p for p in self.folder.glob("*.jsonl")})
                self._scanned = changed
                path = self._records.get(session_id)
        return path

    def playing(self, record_path: Path) -> PlaySession | None:
        """The live, up-to-date game writing this record, if any (a record is continued by one game at a time)."""
        live = self._sessions.get(game_id(record_path))
        if live is None or live.record_path != record_path or live.over or live.stopped or live.error:
            return None
        if live.stale():
            self.drop(live)
            return None
        return live

    def drop(self, session: PlaySession) -> None:
        """Forget a game held in memory (its record holds every move)."""
        with self._lock:
            if self._sessions.get(session.id) is session:
                del self._sessions[session.id]

    def _fit(self, room: int = 0, keep: str = "") -> None:
        """Put away the longest-waiting games until the rest, and ``room`` bytes more (a new game), fit in
        MAX_SESSIONS and MEMORY_BUDGET. A game being moved stays, and so does ``keep`` (the one asked for)."""
        count = len(self._sessions) + (room > 0)
        used = sum(s.footprint() for s in self._sessions.values()) + room
        if count <= MAX_SESSIONS and used <= MEMORY_BUDGET:
            return
        resting = [s for s in self._sessions.values() if s.id != keep and (s.waiting() or s.ended())]
        for session in sorted(resting, key=lambda s: s.last_used):
            if count <= MAX_SESSIONS and used <= MEMORY_BUDGET:
                break
            used -= session.footprint()
            count -= 1
            self._put_away(session)

    def _put_away(self, session: PlaySession) -> None:
        self._sessions.pop(session.id, None)

    def _expire(self) -> None:
        now = time.time()
        for s in list(self._sessions.values()):
            if now - s.last_used > IDLE_SECONDS and (s.waiting() or s.ended()):
                self._put_away(s)
