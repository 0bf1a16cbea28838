"""Records of Farkle games of format 1, as they were saved until 2026-11-28 (games are now
saved one step a line, ``core.records``); read, not written.

Line 1, the header::

    {"type": "game", "format": 1, "game": "farkle", "seed": 42, "players": ["you", "optimal"], "first": 0,
     "manual_dice": false}

then one line per event (``player`` indexes ``players``)::

    {"type": "roll", "player": 0, "dice": "115236"}   a throw: the dice showing (a throw chosen at a
                                                      decision is implied by it)
    {"type": "take", "player": 0, "dice": "115"}      setting those dice aside
    {"type": "bank", "player": 0}                     banking the turn total

A record is replayed through the rules (``FarkleState``): an event by the player who is not to move, a
set-aside that does not score, or anything after the game is won is reported with its line number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import InputError
from ..core.jsonl import read_header
from ..core.playthrough import Playthrough
from .rules import FarkleGame, format_dice
from ..core.steps import DiceRoll, Throw
from .state import Bank, Take

EVENTS = ("roll", "take", "bank")


@dataclass
class FarkleEvent:
    type: str  # "roll", "take" or "bank"
    player: int
    dice: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "player": self.player}
        if self.type != "bank":
            out["dice"] = format_dice(self.dice)
        return out


@dataclass
class FarkleRecord:
    game: FarkleGame
    players: list[str]
    seed: int | None = None
    first: int = 0
    manual_dice: bool = False
    events: list[FarkleEvent] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def playthrough(self) -> Playthrough:
        """The record as protocol steps, checked against the rules."""
        state = self.game.start()
        steps: list[Any] = []
        for i, e in enumerate(self.events):
            seat = (e.player - self.first) % 2
            if state.winner is not None:
                raise InputError(f"event {i + 1}: the game is already won")
            if state.player != seat:
                raise InputError(f"event {i + 1}: it is {self.players[(state.player + self.first) % 2]}'s turn, "
                                 f"not player {e.player}'s")
            todo: list[Any]
            if e.type == "bank":
                todo = [Bank()]
            elif e.type == "take":
                todo = [Take(e.dice)]
            else:
                todo = ([] if state.throwing else [Throw()]) + [DiceRoll(e.dice)]
            for step in todo:
                try:
                    state = state.apply(step)
                except InputError as exc:
                    raise InputError(f"event {i + 1}: {exc}") from None
                steps.append(step)
        return Playthrough(self.game, list(self.players), steps, self.first, self.seed,
                           {"manual_dice": self.manual_dice, **self.extra})


def _event(game: FarkleGame, data: Any, where: str) -> FarkleEvent:
    if not isinstance(data, dict):
        raise InputError(f"{where}: an event must be a JSON object")
    player = data.get("player")
    if player not in (0, 1) or isinstance(player, bool):
        raise InputError(f"{where}: player must be 0 or 1")
    kind = data.get("type")
    if kind not in EVENTS:
        raise InputError(f"{where}: unknown event type {kind!r} (roll, take or bank)")
    if kind == "bank":
        return FarkleEvent("bank", player)
    if "dice" not in data:
        raise InputError(f"{where}: a {kind} event needs 'dice'")
    try:
        return FarkleEvent(kind, player, game.parse_dice(str(data["dice"])))
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None


def farkle_record_from_lines(path: Path, lines: list[tuple[int, Any]], game: FarkleGame) -> FarkleRecord:
    head = read_header(path, lines[0][1], players=(2, 2), known={"first"})
    first = lines[0][1].get("first", 0)
    if first not in (0, 1) or isinstance(first, bool):
        raise InputError(f"{path}: first must be 0 or 1")
    record = FarkleRecord(game, head.players, head.seed, first, head.manual_dice, extra=head.extra)
    record.events = [_event(game, data, f"{path}, line {n}") for n, data in lines[1:]]
    try:
        record.playthrough()
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None
    return record
