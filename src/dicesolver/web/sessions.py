"""Games played in the browser: the terminal front ends (scorecard, push-your-luck and Despirala games)
run unchanged in a thread per game, their prompts answered by what the page sends.

A session's thread blocks in ``ask`` until the page sends a line; every request returns as soon as the
game asks again (or after a short wait, with ``busy`` set, while a bot thinks or a table is solved), so a
page never hangs. The records are the same JSON Lines files as in the terminal, written in the web games
folder inside the cache directory; an idle game is stopped (it stays saved) after ``IDLE_SECONDS``.
"""

from __future__ import annotations

import io
import queue
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
MAX_SESSIONS = 32  # games held in memory, a thread each; beyond, the longest-waiting one is put away to disk
MAX_PUT_AWAY = 100_000  # ids of games put away, remembered so that their pages find them again
MAX_TRANSCRIPT = 400_000  # characters kept (the oldest are dropped)
_STOP = object()


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
    """One game in its own thread. ``start(console, ask)`` plays it and returns (playthrough, review);
    ``snapshot()``, taken in the game's thread whenever it waits for the person (and at the end), gives
    the drawn board."""

    def __init__(self, game: str, start: Callable[[Console, Callable[[str], str]], Any], record_path: Path,
                 snapshot: Callable[[], PlayBoard] | None = None):
        self.id = uuid.uuid4().hex[:16]
        self.game = game
        self.record_path = record_path
        self._buffer = io.StringIO()
        self.console = Console(file=self._buffer, width=100, color_system=None, force_terminal=False,
                               highlight=False, emoji=False)
        self._inbox: queue.Queue = queue.Queue()
        self._waiting = threading.Event()  # set while the game waits for a line, or once it has ended
        self.prompt = ""
        self.over = False
        self.stopped = False
        self.error = ""
        self.result: tuple | None = None  # (playthrough, review) once the game is over
        self.last_used = time.time()
        self._snapshot = snapshot
        self.board: PlayBoard | None = None
        self._thread = threading.Thread(target=self._run, args=(start,), daemon=True)
        self._thread.start()

    def _run(self, start) -> None:
        try:
            self.result = start(self.console, self._ask)
            self.over = True
        except QuitGame:
            self.stopped = True
        except DicesolverError as exc:
            self.error = str(exc)
        except Exception as exc:  # shown on the page; the server carries on
            self.error = f"internal error: {type(exc).__name__}: {exc}"
        finally:
            self.prompt = ""
            self._take_snapshot()
            self._waiting.set()

    def _take_snapshot(self) -> None:
        """The board as the game stands (in the game's thread, while nothing moves); a board that cannot be
        drawn leaves the transcript to tell the game."""
        if self._snapshot is not None:
            try:
                self.board = self._snapshot()
            except Exception:  # noqa: BLE001 - the transcript still shows the game
                self.board = None

    def _ask(self, prompt: str) -> str:
        self.console.print(prompt, end="", markup=False)
        self._take_snapshot()
        self.prompt = prompt
        self._waiting.set()
        try:
            line = self._inbox.get(timeout=IDLE_SECONDS)
        except queue.Empty:
            line = _STOP
        if line is _STOP:
            raise QuitGame
        self.console.print(line, markup=False)
        return line

    def wait(self, seconds: float) -> None:
        self._waiting.wait(seconds)

    def send(self, line: str, seconds: float = 5.0) -> None:
        if self.over or self.stopped or self.error:
            raise DicesolverError("this game has ended")
        if not self._waiting.is_set() or not self.prompt:
            raise DicesolverError("the game is busy; ask again in a moment")
        self.last_used = time.time()
        self._waiting.clear()
        self.prompt = ""
        self._inbox.put(line)
        self._waiting.wait(seconds)

    def stop(self) -> None:
        self._inbox.put(_STOP)

    def view(self) -> SessionResponse:
        text = self._buffer.getvalue()
        if len(text) > MAX_TRANSCRIPT:
            text = text[-MAX_TRANSCRIPT:]
        ended = self.over or self.stopped or bool(self.error)
        return SessionResponse(id=self.id, game=self.game, transcript=text, prompt=self.prompt,
                               busy=not ended and not self._waiting.is_set(), over=self.over, stopped=self.stopped,
                               error=self.error, record=self.record_path.name, board=self.board)


class SessionStore:
    """The games in play. A game waiting for its player is only its record on disk: when more than
    MAX_SESSIONS are open, or one has been idle for IDLE_SECONDS, it is put away (its thread stops at the
    prompt; every move is already in its record) and continued from its record when its page comes back
    (``put_away``). Starting a game never fails because others are open."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._sessions: dict[str, PlaySession] = {}
        self._away: dict[str, Path] = {}  # id of a game put away -> its record
        self._lock = threading.Lock()

    def new(self, game: str, start, record_path: Path, snapshot: Callable[[], PlayBoard] | None = None) -> PlaySession:
        with self._lock:
            self._expire()
            live = [s for s in self._sessions.values() if not (s.over or s.stopped or s.error)]
            if len(live) >= MAX_SESSIONS:
                waiting = [s for s in live if s.prompt]
                if not waiting:
                    raise DicesolverError(f"{len(live)} games are being played out by bots at this moment; start "
                                          "yours again in a few seconds")
                self._put_away(min(waiting, key=lambda s: s.last_used))
            session = PlaySession(game, start, record_path, snapshot)
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
        session.stop()
        self._sessions.pop(session.id, None)
        if not (session.over or session.error):
            self._away[session.id] = session.record_path
            while len(self._away) > MAX_PUT_AWAY:
                self._away.pop(next(iter(self._away)))

    def _expire(self) -> None:
        now = time.time()
        for s in list(self._sessions.values()):
            if now - s.last_used > IDLE_SECONDS:
                self._put_away(s)
