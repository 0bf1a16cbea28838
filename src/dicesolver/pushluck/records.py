"""Records of push-your-luck games of format 1, as they were saved until 2026-11-28 (games are now
saved one step a line, ``core.records``); read, not written.

Line 1, the header::

    {"type": "game", "format": 1, "game": "skunk", "seed": 42, "players": ["you", "optimal"], "first": 0,
     "manual_dice": false}

then one line per event (``player`` indexes ``players``)::

    {"type": "roll", "player": 0, "dice": "34"}     a throw: the dice showing
    {"type": "hold", "player": 0}                   banking the turn total

A record is replayed through the rules (``PushState``): an event by the player who is not to move, a hold
with nothing at risk, or anything after the game is won is reported with its line number. Reaching the
goal wins at once (no hold needed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import InputError
from ..core.jsonl import RECORD_FORMAT, read_header
from ..core.playthrough import Playthrough
from .rules import PushGame, format_throw, parse_throw
from ..core.steps import DiceRoll, Throw
from .state import Hold

FORMAT = RECORD_FORMAT


@dataclass
class PushEvent:
    type: str  # "roll" or "hold"
    player: int
    dice: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "player": self.player}
        if self.type == "roll":
            out["dice"] = format_throw(self.dice)
        return out


@dataclass
class PushRecord:
    game: PushGame
    players: list[str]
    seed: int | None = None
    first: int = 0
    manual_dice: bool = False
    events: list[PushEvent] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def header(self) -> dict[str, Any]:
        return {"type": "game", "format": FORMAT, "game": self.game.canonical, "seed": self.seed,
                "players": self.players, "first": self.first, "manual_dice": self.manual_dice, **self.extra}

    def playthrough(self) -> Playthrough:
        """The record as protocol steps, checked against the rules (a roll at a decision is a throw, then its
        dice)."""
        state = self.game.start()
        steps: list[Any] = []
        for i, e in enumerate(self.events):
            seat = (e.player - self.first) % 2
            if state.winner is not None:
                raise InputError(f"event {i + 1}: the game is already won")
            if state.player != seat:
                raise InputError(f"event {i + 1}: it is {self.players[(state.player + self.first) % 2]}'s turn, "
                                 f"not player {e.player}'s")
            todo: list[Any] = [Hold()] if e.type == "hold" else ([] if state.throwing else [Throw()]) + [DiceRoll(e.dice or ())]
            for step in todo:
                try:
                    state = state.apply(step)
                except InputError as exc:
                    raise InputError(f"event {i + 1}: {exc}") from None
                steps.append(step)
        details = {"manual_dice": self.manual_dice, **self.extra}
        return Playthrough(self.game, list(self.players), steps, self.first, self.seed, details)


def _event(game: PushGame, data: Any, where: str) -> PushEvent:
    if not isinstance(data, dict):
        raise InputError(f"{where}: an event must be a JSON object")
    player = data.get("player")
    if player not in (0, 1) or isinstance(player, bool):
        raise InputError(f"{where}: player must be 0 or 1")
    kind = data.get("type")
    if kind == "hold":
        return PushEvent("hold", player)
    if kind == "roll":
        if "dice" not in data:
            raise InputError(f"{where}: a roll event needs 'dice'")
        try:
            return PushEvent("roll", player, parse_throw(str(data["dice"]), game))
        except InputError as exc:
            raise InputError(f"{where}: {exc}") from None
    raise InputError(f"{where}: unknown event type {kind!r}")


def push_record_from_lines(path: Path, lines: list[tuple[int, Any]], game: PushGame) -> PushRecord:
    head = read_header(path, lines[0][1], players=(2, 2), known={"first"})
    first = lines[0][1].get("first", 0)
    if first not in (0, 1) or isinstance(first, bool):
        raise InputError(f"{path}: first must be 0 or 1")
    record = PushRecord(game, head.players, head.seed, first, head.manual_dice, extra=head.extra)
    record.events = [_event(game, data, f"{path}, line {n}") for n, data in lines[1:]]
    try:
        record.playthrough()
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None
    return record

