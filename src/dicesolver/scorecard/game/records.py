"""Records of scorecard games of format 1, as they were saved until 2026-11-28 (games are now
saved one step a line, ``core.records``); read, not written.

Line 1, the header::

    {"type": "game", "format": 1, "game": "yahtzee", "seed": 42, "players": ["you"], "manual_dice": false}

then one line per event, in order (``player`` is the index into ``players``; ``turn`` counts from 1)::

    {"type": "roll", "player": 0, "turn": 1, "dice": "11345"}      every throw: all dice showing after it
    {"type": "keep", "player": 0, "turn": 1, "keep": "113"}         dice held before a re-throw ("-": none)
    {"type": "score", "player": 0, "turn": 1, "category": "aces", "points": 3}

A record is replayed through the rules, so an impossible record (a kept die that was not showing, a
re-throw that changed a held die, a category used twice) is reported with its line number. A truncated
last line, as a crash mid-write can leave, is ignored with a warning rather than losing the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ...core.dice import Dice, format_dice, is_sub_multiset, parse_dice
from ...core.errors import InputError
from ...core.gamestring import parse_game_string
from ...core.jsonl import RECORD_FORMAT, read_header, read_lines
from ...core.playthrough import Playthrough
from .position import Position, after_roll, after_score, start_position
from .presets import load_scorecard_game
from .rules import ScorecardGame
from .state import Keep, Roll, Score

FORMAT = RECORD_FORMAT
MAX_RECORD_BYTES = 5 * 2**20


@dataclass
class Event:
    type: str  # "roll", "keep" or "score"
    player: int
    turn: int
    dice: Dice | None = None  # roll: the dice showing
    keep: Dice | None = None  # keep: the dice held
    category: int | None = None  # score: the category index
    points: int | None = None

    # the field each type of event carries (InputError when it is missing)
    @property
    def rolled(self) -> Dice:
        return _given(self.dice, "a roll event's dice")

    @property
    def kept(self) -> Dice:
        return _given(self.keep, "a keep event's dice")

    @property
    def scored(self) -> int:
        return _given(self.category, "a score event's category")

    def to_json(self, game: ScorecardGame) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "player": self.player, "turn": self.turn}
        if self.type == "roll":
            out["dice"] = format_dice(self.rolled, game.faces)
        elif self.type == "keep":
            out["keep"] = format_dice(self.kept, game.faces)
        else:
            out["category"] = game.categories[self.scored].name
            out["points"] = self.points
        return out


T = TypeVar("T")


def _given(value: T | None, what: str) -> T:
    if value is None:
        raise InputError(f"{what} is missing")
    return value


@dataclass
class GameRecord:
    game: ScorecardGame
    players: list[str]
    seed: int | None = None
    manual_dice: bool = False
    events: list[Event] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def header(self) -> dict[str, Any]:
        return {"type": "game", "format": FORMAT, "game": self.game.canonical, "seed": self.seed,
                "players": self.players, "manual_dice": self.manual_dice, **self.extra}

    def positions(self) -> list[Position]:
        """Each player's position now (replaying every event)."""
        return replay(self)[0]

    def is_over(self) -> bool:
        return all(p.is_over() for p in self.positions())

    def playthrough(self) -> Playthrough:
        """The record's events as protocol steps (with the seats it implies), checked by the rules."""
        game = self.game.with_players(len(self.players))
        first = int(self.extra.get("first", 0))
        n = len(self.players)
        state = game.start()
        steps: list[Any] = []
        for i, e in enumerate(self.events):
            seat = (e.player - first) % n
            if state.mover != seat:
                raise InputError(f"event {i + 1}: it is {self.players[(state.mover + first) % n]}'s turn")
            if e.type == "roll":
                step: Any = Roll(e.rolled, game.faces)
            elif e.type == "keep":
                step = Keep(e.kept, game.faces)
            else:
                step = next((a for a in state.legal_actions() if isinstance(a, Score) and a.category == e.scored), None)
                if step is None:
                    raise InputError(f"event {i + 1}: {game.categories[e.scored].name} cannot be scored here")
            try:
                state = state.apply(step)
            except InputError as exc:
                raise InputError(f"event {i + 1}: {exc}") from None
            steps.append(step)
        details = {"manual_dice": self.manual_dice, **{k: v for k, v in self.extra.items() if k != "first"}}
        return Playthrough(game, list(self.players), steps, first, self.seed, details)


def replay(record: GameRecord) -> tuple[list[Position], list[Position]]:
    """Every player's current position, and the position before each event (same order as events).

    After a keep the position is unchanged (the dice still show) until the re-throw; the held dice are
    checked against the dice that the re-throw shows.
    """
    game = record.game
    positions = [start_position(game) for _ in record.players]
    held: list[Dice | None] = [None for _ in record.players]
    before = []
    for i, event in enumerate(record.events):
        where = f"event {i + 1}"
        p = event.player
        if not 0 <= p < len(record.players):
            raise InputError(f"{where}: unknown player {p}")
        pos = positions[p]
        before.append(pos)
        if pos.is_over():
            raise InputError(f"{where}: the player's card is already full")
        if event.type == "roll":
            if len(event.rolled) != game.n_dice:
                raise InputError(f"{where}: a roll needs {game.n_dice} dice")
            if pos.dice is not None and held[p] is None:
                raise InputError(f"{where}: a re-throw must follow a keep")
            if (held_dice := held[p]) is not None and not is_sub_multiset(held_dice, event.rolled):
                raise InputError(f"{where}: the re-throw changed a held die")
            if pos.rolls_left <= 0:
                raise InputError(f"{where}: no throws left this turn")
            positions[p] = after_roll(pos, event.rolled)
            held[p] = None
        elif event.type == "keep":
            if pos.dice is None or pos.rolls_left == 0 or held[p] is not None:
                raise InputError(f"{where}: a keep needs fresh dice showing and a throw left")
            if not is_sub_multiset(event.kept, pos.dice):
                raise InputError(f"{where}: cannot keep {format_dice(event.kept, game.faces)} "
                                 f"from {format_dice(pos.dice, game.faces)}")
            held[p] = event.kept
        elif event.type == "score":
            if pos.dice is None:
                raise InputError(f"{where}: scoring needs dice showing")
            category = event.scored
            try:
                new = after_score(game, pos, category)
            except InputError as exc:
                raise InputError(f"{where}: {exc}") from None
            if event.points is not None and new.boxes[category] != event.points:
                raise InputError(f"{where}: {game.categories[category].name} scores "
                                 f"{new.boxes[category]} here, not {event.points}")
            positions[p] = new
            held[p] = None
        else:
            raise InputError(f"{where}: unknown event type {event.type!r}")
    return positions, before


def _event_from_json(game: ScorecardGame, data: Any, where: str) -> Event:
    if not isinstance(data, dict):
        raise InputError(f"{where}: an event must be a JSON object")
    kind = data.get("type")
    player = data.get("player", 0)
    turn = data.get("turn", 0)
    if not isinstance(player, int) or not isinstance(turn, int):
        raise InputError(f"{where}: player and turn must be numbers")
    try:
        if kind == "roll":
            return Event("roll", player, turn, dice=parse_dice(str(data["dice"]), game.faces))
        if kind == "keep":
            return Event("keep", player, turn, keep=parse_dice(str(data["keep"]), game.faces, allow_empty=True))
        if kind == "score":
            points = data.get("points")
            if points is not None and not isinstance(points, int):
                raise InputError(f"{where}: points must be a number")
            return Event("score", player, turn, category=game.category_index(str(data["category"])), points=points)
    except KeyError as exc:
        raise InputError(f"{where}: a {kind} event needs {exc.args[0]!r}") from None
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None
    raise InputError(f"{where}: unknown event type {kind!r}")


def read_record(path: str | Path, warnings: list[str] | None = None) -> GameRecord:
    """Read and check a record file (see the module doc for the format)."""
    path = Path(path)
    return record_from_lines(path, read_lines(path, MAX_RECORD_BYTES, warnings))


def record_from_lines(path: Path, records: list[tuple[int, Any]]) -> GameRecord:
    """A record from its parsed lines (the header first), checked against the rules."""
    header = records[0][1]
    head = read_header(path, header, players=(1, 6), default_players=["player"])
    game = load_scorecard_game(*parse_game_string(str(header.get("game", ""))))
    players = head.players
    record = GameRecord(game, players, head.seed, head.manual_dice, extra=head.extra)
    first = record.extra.get("first", 0)
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < len(players):
        raise InputError(f"{path}: first must be a player's index")
    record.events = [_event_from_json(game, data, f"{path}, line {number}") for number, data in records[1:]]
    try:
        replay(record)
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None
    return record

