"""Games played in the browser: the terminal front ends (scorecard, push-your-luck and Despirala games)
run unchanged, their prompts answered by what the page sends.

A game waiting for its player holds no thread: only its state (the table's Session) and its transcript.
Each line the page sends starts a short drive of the front end in a thread that ends at the next prompt
(or at the game's end): the front end starts again from the state the game is in, the lines typed since
the game last moved are replayed to it unseen (a hint, a mistake, 'stand' before a box: prompts that move
nothing), and the new line is answered at the prompt where the game waits. Every request returns as soon
as the game asks again (or after a short wait, with ``busy`` set, while a bot thinks), so a page never
hangs. The records are the same JSON Lines files as in the terminal, in the web games folder inside the
cache directory; a game idle for ``IDLE_SECONDS``, or the oldest waiting one beyond ``MAX_SESSIONS``, is
put away (dropped from memory; its record holds every move) and continued from its record when its page
comes back.
"""

from __future__ import annotations

import io
import threading
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from rich.console import Console

from ..core.errors import DicesolverError
from ..terminal.console import QuitGame
from .models import PlayAction, PlayBoard, SessionResponse

if TYPE_CHECKING:
    from ..play.session import Session

IDLE_SECONDS = 30 * 60
MAX_SESSIONS = 500  # games held in memory (no thread each); beyond, the longest-waiting one is put away to disk
MAX_PUT_AWAY = 100_000  # ids of games put away, remembered so that their pages find them again
MAX_TRANSCRIPT = 400_000  # characters kept (the oldest are dropped)


class _Waiting(Exception):
    """Raised at a prompt with no line to answer it: the drive ends there and the game waits."""


def board_of(table: Session) -> PlayBoard:
    """The drawn board's snapshot of a game at the table: its state, the family's view of it, and the
    person's legal actions when it is theirs to decide."""
    state = table.state
    you, mover = table.human, state.player
    deciding = mover == you and state.to_move() == you
    actions = [PlayAction(action=str(a), label=a.label, kind=a.kind, points=getattr(a, "points", None))
               for a in state.legal_actions()] if deciding else []
    thrown = next((step for step in reversed(table.playthrough.steps)
                   if step.kind in ("roll", "throw") and hasattr(step, "dice")), None)
    return PlayBoard(position=str(state), family=table.family.name, names=table.names(), you=you, mover=mover,
                     view=table.family.view(state), actions=actions,
                     throw=mover == you and state.is_chance() and not table.manual_dice,
                     last_dice=list(thrown.dice) if thrown is not None else [], totals=table.family.totals(state))


class PlaySession:
    """One game. ``start(console, ask)`` plays it from the state it is in and returns (playthrough, review)
    at its end; ``position()`` is that state (a new object whenever the game moves); ``snapshot()``, taken
    whenever the game waits for the person (and at the end), gives the drawn board."""

    def __init__(self, game: str, start: Callable[[Console, Callable[[str], str]], Any], record_path: Path,
                 position: Callable[[], object], snapshot: Callable[[], PlayBoard] | None = None):
        self.id = uuid.uuid4().hex[:16]
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
        self._drive(None)

    def _drive(self, line: str | None) -> None:
        """Run the front end in a thread of its own until the game asks for a line after ``line`` (or ends)."""
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
            self.console.file = seen
            if self.over or self.stopped or self.error:
                self.prompt = ""
                self._take_snapshot()
            self._idle.set()

    def _take_snapshot(self) -> None:
        """The board as the game stands (while nothing moves); a board that cannot be drawn leaves the
        transcript to tell the game."""
        if self._snapshot is not None:
            try:
                self.board = self._snapshot()
            except Exception:  # noqa: BLE001 - the transcript still shows the game
                self.board = None

    def wait(self, seconds: float) -> None:
        self._idle.wait(seconds)

    def send(self, line: str, seconds: float = 5.0) -> None:
        if self.over or self.stopped or self.error:
            raise DicesolverError("this game has ended")
        if not self._idle.is_set() or not self.prompt:
            raise DicesolverError("the game is busy; ask again in a moment")
        self.last_used = time.time()
        self.prompt = ""
        self._drive(line)
        self._idle.wait(seconds)

    def waiting(self) -> bool:
        """Whether the game waits for its player (no drive running, not over)."""
        return self._idle.is_set() and bool(self.prompt)

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
    open, or one has been idle for IDLE_SECONDS, it is put away (dropped from memory: every move is already
    in its record) and continued from its record when its page comes back (``put_away``). Starting a game
    never fails because others are open."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._sessions: dict[str, PlaySession] = {}
        self._away: dict[str, Path] = {}  # id of a game put away -> its record
        self._lock = threading.Lock()

    def new(self, game: str, start, record_path: Path, position: Callable[[], object],
            snapshot: Callable[[], PlayBoard] | None = None) -> PlaySession:
        with self._lock:
            self._expire()
            waiting = [s for s in self._sessions.values() if s.waiting()]
            if len(self._sessions) >= MAX_SESSIONS and waiting:
                self._put_away(min(waiting, key=lambda s: s.last_used))
            session = PlaySession(game, start, record_path, position, snapshot)
            self._sessions[session.id] = session
            return session

    def get(self, session_id: str) -> PlaySession | None:
        return self._sessions.get(session_id)

    def put_away(self, session_id: str) -> Path | None:
        """The record of a game put away (to be continued from it), if this id was one."""
        return self._away.get(session_id)

    def playing(self, record_path: Path) -> PlaySession | None:
        """The live game writing this record, if any (a record is continued by one game at a time)."""
        return next((s for s in self._sessions.values() if s.record_path == record_path
                     and not (s.over or s.stopped or s.error)), None)

    def _put_away(self, session: PlaySession) -> None:
        self._sessions.pop(session.id, None)
        if not (session.over or session.error):
            self._away[session.id] = session.record_path
            while len(self._away) > MAX_PUT_AWAY:
                self._away.pop(next(iter(self._away)))

    def _expire(self) -> None:
        now = time.time()
        for s in list(self._sessions.values()):
            if now - s.last_used > IDLE_SECONDS and (s.waiting() or s.over or s.stopped or s.error):
                self._put_away(s)
