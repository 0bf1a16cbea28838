"""What the table says at a state, as data: the question asked, the lines at a turn's start, the legal
moves, the last step told, the last words. A family describes a state once (``Family.scene``); the
terminal prints a scene and the web page shows its parts, so neither asks a family for text piece by piece.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .protocol import State, Step, seat_on_turn


@dataclass(frozen=True)
class Scene:
    """What the front ends show and ask at one state.

    ``prompt``: the question at a decision, or before a throw's dice are typed (empty at the end);
    ``turn_start``: the lines shown when a turn starts; ``legal``: the legal moves in a few lines (at a
    decision); ``stand_prompt``: the question after "stand" (keep every die) where standing is a thing;
    ``pause_before_throw``: whether the person presses Enter before this throw (a moment to take the last
    move back); ``board_at_turn_start``: whether the person's sheet is shown when their turn starts;
    ``narration``: what the step that led here did (asked with ``last``); ``over``: the last words, who
    won, at the end.
    """

    prompt: str = ""
    turn_start: tuple[str, ...] = ()
    legal: tuple[str, ...] = ()
    stand_prompt: str | None = None
    pause_before_throw: bool = False
    board_at_turn_start: bool = False
    narration: str | None = None
    over: tuple[str, ...] = ()


def default_prompt(state: Any, name: str) -> str:
    if state.is_chance():
        return f"{name}, the dice thrown: "
    return f"{name} ({state.brief()}): "


def legal_moves_line(state: Any) -> list[str]:
    return ["legal moves: " + ", ".join(str(a) for a in state.legal_actions())]


def returns_line(state: Any, names: Sequence[str], seat: int) -> list[str]:
    returns = state.returns()
    if len(returns) == 1:
        return [f"Game over: {returns[0]:g}."]
    return ["Game over: " + ", ".join(f"{n} {r:g}" for n, r in zip(names, returns))]


def describe(state: Any, names: Sequence[str], seat: int, last: tuple[Any, Step] | None, *,
             narrate: Callable[[Any, Step, Any, str], str] = lambda before, step, after, name: f"{name}: {step}",
             prompt: Callable[[Any, str], str] = default_prompt,
             turn_start: Callable[[Any, Sequence[str]], list[str]] = lambda state, names: [],
             legal: Callable[[Any], list[str]] = legal_moves_line,
             stand_prompt: Callable[[Any], str | None] = lambda state: None,
             pause_before_throw: Callable[[Any], bool] = lambda state: False,
             over: Callable[[Any, Sequence[str], int], list[str]] = returns_line,
             board_at_turn_start: bool = False) -> Scene:
    """A family's scene at ``state`` from its wording, one function per part (the defaults suit most
    games). ``names``: every seat's name; ``seat``: the person's (the last words speak to them); ``last``:
    (the state before, the step) to tell."""
    narration = None
    if last is not None:
        before, step = last
        narration = narrate(before, step, state, names[seat_on_turn(before)])
    if state.is_terminal():
        return Scene(narration=narration, over=tuple(over(state, names, seat)),
                     board_at_turn_start=board_at_turn_start)
    chance = state.is_chance()
    return Scene(prompt=prompt(state, names[seat_on_turn(state)]), turn_start=tuple(turn_start(state, names)),
                 legal=() if chance else tuple(legal(state)), stand_prompt=None if chance else stand_prompt(state),
                 pause_before_throw=chance and pause_before_throw(state), board_at_turn_start=board_at_turn_start,
                 narration=narration)


def scene_of(state: State, names: Sequence[str], seat: int = 0, last: tuple[Any, Step] | None = None) -> Scene:
    """The scene of a family that words nothing of its own."""
    return describe(state, names, seat, last)
