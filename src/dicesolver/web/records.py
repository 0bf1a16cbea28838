"""The games played in the web app, as each browser lists them: read once, remembered while unchanged.

Each record's summary (``RecordInfo``) and owner are kept in memory, keyed by the record's size and
modification time, so listing a browser's games costs a directory listing and look-ups, not a read of
every record of every browser. ``Shelf`` also bounds what one browser may pile up: games started per
minute, and unfinished games (the oldest abandoned one is put out when the cap is reached); and the games
of all: past MAX_RECORDS only a browser that has games here already starts another.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from datetime import datetime
from pathlib import Path

from ..core import registry
from ..core.errors import DicesolverError
from . import models
from .access import OWNER_SUFFIX, Owners
from .sessions import RecordLock

STARTS_PER_MINUTE = 30  # new games one browser may start in a minute
MAX_UNFINISHED = 20  # unfinished games one browser keeps
MAX_RECORDS = 20_000  # games on disk in all; past it only browsers that already have games here start more
ABANDONED_SECONDS = 7 * 24 * 3600  # an unfinished game untouched this long may be put out for a new one


class TooMany(DicesolverError):
    """One browser asked for more than its share (429)."""


def record_info(path: Path) -> models.RecordInfo | None:
    """A record's summary for the lists: its game, players, turn, date, scores and winners (None: unreadable)."""
    try:
        playthrough = registry.read_record(path)
        modified = path.stat().st_mtime
    except (DicesolverError, OSError):
        return None
    states = playthrough.states
    turn = sum(1 for before, after in zip([None, *states], states)
               if after.player is not None and (before is None or before.turn_key() != after.turn_key()))
    by_seat = registry.family_of(playthrough.game).totals(states[-1])
    by_player = [by_seat[playthrough.seat(p)] for p in range(len(playthrough.players))]
    over = playthrough.is_over()
    best = max(by_player, default=0)
    return models.RecordInfo(name=path.name, game=playthrough.game.canonical, players=playthrough.players, over=over,
                             turn=turn, date=datetime.fromtimestamp(modified).isoformat(timespec="seconds"),
                             scores=by_player, winners=[p for p, x in zip(playthrough.players, by_player)
                                                        if over and x == best and len(by_player) > 1])


class Shelf:
    def __init__(self, folder: Path, owners: Owners):
        self.folder, self.owners = folder, owners
        self._infos: dict[str, tuple[tuple[int, int], models.RecordInfo | None]] = {}  # name -> (size, mtime), info
        self._owner: dict[str, str | None] = {}  # name -> owner: written once, when the game starts
        self._starts: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def mine(self, browser: str) -> list[tuple[Path, models.RecordInfo]]:
        """This browser's readable records, newest first."""
        if not self.folder.is_dir():
            return []
        out = []
        seen = set()
        for path in self.folder.glob("*.jsonl"):
            seen.add(path.name)
            if not self._may_see(path, browser):
                continue
            try:
                stat = path.stat()
            except OSError:
                continue
            mark = (stat.st_size, stat.st_mtime_ns)
            known = self._infos.get(path.name)
            if known is None or known[0] != mark:
                known = (mark, record_info(path))
                self._infos[path.name] = known
            if known[1] is not None:
                out.append((stat.st_mtime_ns, path, known[1]))
        with self._lock:  # records deleted meanwhile are forgotten
            for name in [n for n in self._infos if n not in seen]:
                self._infos.pop(name, None)
                self._owner.pop(name, None)
        out.sort(key=lambda item: item[0], reverse=True)
        return [(path, info) for _, path, info in out]

    def _count(self) -> int:
        try:
            return sum(1 for _ in self.folder.glob("*.jsonl"))
        except OSError:
            return 0

    def _may_see(self, record: Path, browser: str) -> bool:
        if record.name not in self._owner:
            self._owner[record.name] = self.owners.owner(record)
        owner = self._owner[record.name]
        return owner == browser if owner is not None else self.owners.shared_legacy

    def claimed(self, record: Path, browser: str) -> None:
        """A game this browser just started: its owner is known without reading it back."""
        self._owner[record.name] = browser

    def admit(self, browser: str) -> None:
        """Room for one more game of this browser, or ``TooMany``: at most STARTS_PER_MINUTE started a minute,
        and MAX_UNFINISHED unfinished (the oldest abandoned one is put out to make room)."""
        now = time.monotonic()
        with self._lock:
            starts = self._starts.setdefault(browser, deque())
            while starts and now - starts[0] > 60:
                starts.popleft()
            if len(starts) >= STARTS_PER_MINUTE:
                raise TooMany(f"{STARTS_PER_MINUTE} games started in a minute is the most: wait a moment")
            if len(self._starts) > 10_000:  # many browsers: forget the quiet ones
                self._starts = {b: s for b, s in self._starts.items() if s and now - s[-1] < 60}
        mine = self.mine(browser)
        if not mine and self._count() >= MAX_RECORDS:  # a flood of new browsers cannot crowd out the known ones
            raise TooMany(f"this server keeps {MAX_RECORDS:,} games, the most it will: a browser that has played "
                          "here before can still start one")
        unfinished = [path for path, info in mine if not info.over]
        if len(unfinished) >= MAX_UNFINISHED:
            oldest = unfinished[-1]
            try:
                idle = time.time() - oldest.stat().st_mtime
            except OSError:
                idle = 0.0
            if idle < ABANDONED_SECONDS:
                raise TooMany(f"you have {len(unfinished)} unfinished games, the most kept: continue one, or discard "
                              "one (Play's list of unfinished games; DELETE /api/records/NAME quits and discards it)")
            for path in (oldest, oldest.with_name(oldest.name + OWNER_SUFFIX), RecordLock(oldest).path):
                path.unlink(missing_ok=True)
        with self._lock:
            self._starts.setdefault(browser, deque()).append(now)
