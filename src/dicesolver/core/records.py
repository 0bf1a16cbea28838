"""One record format for every game: a header line, then each step of the game in its text form, a line each.

    {"type": "game", "format": 2, "game": "yahtzee", "seed": 42, "players": ["you", "optimal"], "first": 0,
     "manual_dice": false}
    {"type": "step", "player": 0, "step": "13456"}
    {"type": "step", "player": 0, "step": "keep 3456"}
    {"type": "step", "player": 0, "step": "score chance", "tutor": {"position": "...", "move": "score chance",
     "cost": 4.2, "best": "score sixes", "reason": "...", "heeded": false, "played": "score chance"}}

A step's text is the one the game prints and reads (``str(step)``, ``State.parse_step``): a throw's dice, an
action as a person types it. ``player`` is the record's index of the player on turn, there for a person
reading the file and checked on reading; ``tutor``, where the tutor warned before the step, the warning
and whether it was heeded (``play --tutor``). Each step is read at the state the steps before it lead to and
applied by the rules, so a record that breaks them is refused at its line. Records of format 1 (each
family's own events) are still read, by their family (``Family.read_record``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .errors import InputError
from .jsonl import HEADER_KEYS
from .playthrough import Playthrough
from .protocol import Game, State, Step, seat_on_turn
from .results import TutorWarning

STEP_FORMAT = 2
MAX_PLAYERS = 6
MAX_NAME = 40


def header(playthrough: Playthrough) -> dict[str, Any]:
    """A record's first line: the game, the players in the record's order, who moved first, the dice's seed
    and the game's details (the bots, own dice...)."""
    details = {k: v for k, v in playthrough.details.items() if k not in HEADER_KEYS | {"first"}}
    return {"type": "game", "format": STEP_FORMAT, "game": playthrough.game.canonical, "seed": playthrough.seed,
            "players": playthrough.players, "first": playthrough.first,
            "manual_dice": bool(playthrough.details.get("manual_dice")), **details}


def step_line(playthrough: Playthrough, before: State, step: Step, index: int | None = None) -> dict[str, Any]:
    """The line of one step taken at ``before`` (the ``index``-th: with what the record notes beside it)."""
    n = len(playthrough.players)
    return {"type": "step", "player": (playthrough.first + seat_on_turn(before)) % n, "step": str(step),
            **(playthrough.notes.get(index, {}) if index is not None else {})}


def lines(playthrough: Playthrough) -> list[dict[str, Any]]:
    """Every line of a record: the header, then each step."""
    return [header(playthrough)] + [step_line(playthrough, before, step, i)
                                    for i, (before, step) in enumerate(zip(playthrough.states, playthrough.steps))]


def read(path: str | Path, numbered: list[tuple[int, Any]], game: Game) -> Playthrough:
    """A record of format 2 (its lines as (line number, parsed JSON), the header first) as a playthrough,
    replayed through the rules (InputError naming the file and the line)."""
    number, head = numbered[0]
    names = head.get("players")
    if (not isinstance(names, list) or not 1 <= len(names) <= MAX_PLAYERS
            or not all(isinstance(p, str) and 0 < len(p) <= MAX_NAME for p in names)):
        raise InputError(f"{path}, line {number}: 'players' must list 1 to {MAX_PLAYERS} names of at most "
                         f"{MAX_NAME} characters")
    first, seed = head.get("first", 0), head.get("seed")
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < len(names):
        raise InputError(f"{path}, line {number}: 'first' must be the index of a player")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise InputError(f"{path}, line {number}: 'seed' must be a number")
    try:
        game = game.with_players(len(names))
    except InputError as exc:
        raise InputError(f"{path}, line {number}: {exc}") from None
    details = {k: v for k, v in head.items() if k not in HEADER_KEYS | {"first"}}
    details["manual_dice"] = bool(head.get("manual_dice", False))
    playthrough = Playthrough(game, list(names), [], first, seed, details)
    state = game.start()
    for number, line in numbered[1:]:
        if not isinstance(line, dict) or line.get("type") != "step" or not isinstance(line.get("step"), str):
            raise InputError(f"{path}, line {number}: a step line is {{\"type\": \"step\", \"player\": P, "
                             "\"step\": TEXT}")
        if state.is_terminal():
            raise InputError(f"{path}, line {number}: the game is already over")
        on_turn = (first + seat_on_turn(state)) % len(names)
        if line.get("player", on_turn) != on_turn:
            raise InputError(f"{path}, line {number}: it is {names[on_turn]}'s turn, not player "
                             f"{line.get('player')!r}'s")
        try:
            step = state.parse_step(line["step"])
            warned = state  # the tutor's warning, if any, was given here
            state = state.apply(step)
        except InputError as exc:
            raise InputError(f"{path}, line {number}: {exc}") from None
        if "tutor" in line:
            try:
                warning = TutorWarning.model_validate(line["tutor"])
            except ValidationError:
                raise InputError(f"{path}, line {number}: 'tutor' is a warning: position, move, cost, best, "
                                 "reason, heeded, played") from None
            if warning.position != str(warned) or warning.played != str(step):
                raise InputError(f"{path}, line {number}: the tutor's warning is of another move")
            playthrough.notes[len(playthrough.steps)] = {"tutor": warning.model_dump()}
        playthrough.steps.append(step)
    return playthrough
