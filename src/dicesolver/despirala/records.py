"""Records of Despirala games of format 1, as they were saved until 2026-11-28 (games are now
saved one step a line, ``core.records``); read, not written.

Line 1, the header::

    {"type": "game", "format": 1, "game": "despirala", "seed": 42, "players": ["you", "optimal"],
     "strategies": [null, "optimal"], "manual_dice": false}

``strategies[i]`` is the bot playing seat i (null for a person). Then one line per event
(``player`` indexes ``players``; see ``despirala_state``)::

    {"type": "throw", "player": 0, "dice": "113456"}
    {"type": "move", "player": 0, "move": "Three pairs 1 3 5"}
    {"type": "completion", "player": 0, "rethrows": 2, "completed": true, "rolls": ["24", "3"]}
    {"type": "move", "player": 1, "move": "Collect 6"}
    {"type": "move", "player": 1, "move": "Continue"}
    {"type": "hits", "player": 1, "hits": 2, "dice": "1566"}

``rolls`` and the hits' ``dice`` are optional (a player at a real table types only the counts). A record
is replayed through the rules; an impossible event is reported with its line number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import InputError
from ..core.jsonl import RECORD_FORMAT, read_header
from .rules import DespiralaGame, parse_move, parse_throw
from .state import DespiralaState, Event, apply_event, start_state

FORMAT = RECORD_FORMAT
MAX_PLAYERS = 6


@dataclass
class DespiralaRecord:
    game: DespiralaGame
    players: list[str]
    strategies: list[str | None]
    seed: int | None = None
    manual_dice: bool = False
    events: list[Event] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def header(self) -> dict[str, Any]:
        return {"type": "game", "format": FORMAT, "game": self.game.canonical, "seed": self.seed,
                "players": self.players, "strategies": self.strategies, "manual_dice": self.manual_dice, **self.extra}

    def states(self) -> list[DespiralaState]:
        """The state before each event, and the state now (one more than there are events)."""
        return replay_despirala(self)

    def state(self) -> DespiralaState:
        return self.states()[-1]

    def is_over(self) -> bool:
        return self.state().over


def replay_despirala(record: DespiralaRecord) -> list[DespiralaState]:
    state = start_state(len(record.players), record.game)
    states = [state]
    for i, event in enumerate(record.events):
        try:
            state = apply_event(record.game, state, event)
        except InputError as exc:
            raise InputError(f"event {i + 1}: {exc}") from None
        states.append(state)
    return states


def _int(data: dict, key: str, where: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError(f"{where}: '{key}' must be a whole number")
    return value


def event_from_json(data: Any, players: int, where: str) -> Event:
    if not isinstance(data, dict):
        raise InputError(f"{where}: an event must be a JSON object")
    player = _int(data, "player", where)
    if not 0 <= player < players:
        raise InputError(f"{where}: player must be 0 to {players - 1}")
    kind = data.get("type")
    try:
        if kind == "throw":
            return Event("throw", player, dice=parse_throw(str(data.get("dice", ""))))
        if kind == "move":
            move = parse_move(str(data.get("move", "")))
            if move.kind == "list":
                raise InputError("List is not a move")
            return Event("move", player, move=move)
        if kind == "completion":
            rolls = data.get("rolls", [])
            if not isinstance(rolls, list) or len(rolls) > 100:
                raise InputError("'rolls' must be a list of throws")
            return Event("completion", player, rethrows=_int(data, "rethrows", where),
                         completed=bool(data.get("completed", True)),
                         rolls=tuple(parse_throw(str(r), None) for r in rolls))
        if kind == "hits":
            dice = data.get("dice")
            return Event("hits", player, hits=_int(data, "hits", where),
                         dice=parse_throw(str(dice), None) if dice is not None else ())
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None
    raise InputError(f"{where}: unknown event type {kind!r}")


def despirala_record_from_lines(path: Path, lines: list[tuple[int, Any]], game: DespiralaGame) -> DespiralaRecord:
    head = read_header(path, lines[0][1], players=(1, MAX_PLAYERS), known={"strategies"})
    players = head.players
    strategies = lines[0][1].get("strategies", [None] * len(players))
    if (not isinstance(strategies, list) or len(strategies) != len(players)
            or not all(s is None or isinstance(s, str) for s in strategies)):
        raise InputError(f"{path}: 'strategies' must name each seat's bot (null for a person)")
    record = DespiralaRecord(game, players, strategies, head.seed, head.manual_dice, extra=head.extra)
    record.events = [event_from_json(data, len(players), f"{path}, line {n}") for n, data in lines[1:]]
    try:
        replay_despirala(record)
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None
    return record

