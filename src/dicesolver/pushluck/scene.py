"""What the table says in a push-your-luck game (``core.scene``): each throw and hold told, the question
at each decision, the score line at each turn, who won."""

from __future__ import annotations

from typing import Any, Sequence

from ..core.protocol import Step
from ..core.scene import Scene, describe
from ..core.steps import Throw
from .rules import ADD, BUST, format_throw
from .state import Hold, PushState


def scene(state: PushState, names: Sequence[str], seat: int = 0, last: tuple[Any, Step] | None = None) -> Scene:
    return describe(state, names, seat, last, narrate=narrate, prompt=prompt, turn_start=turn_start, over=over)


def narrate(before: PushState, step: Any, after: PushState, name: str) -> str:
    s = "" if name == "you" else "s"
    if isinstance(step, Throw):
        return f"{name} throw{s} again"
    if isinstance(step, Hold):
        return f"{name} hold{s}: {before.mine} + {before.turn_total} = {before.mine + before.turn_total}"
    kind, points = before.game.effect(step.dice)
    if after.winner is not None:
        what = f"+{points}: {after.scores[before.mover]} reaches the goal"
    elif kind == ADD:
        what = f"+{points} (turn total {after.turn_total})"
    elif kind == BUST:
        what = f"a 1: the turn total of {before.turn_total} is lost"
    else:
        what = f"double 1s: the turn total and the banked {before.mine} are lost"
    return f"{name} throw{s} {format_throw(step.dice)}: {what}"


def prompt(state: PushState, name: str) -> str:
    if state.is_chance():
        return "the dice you threw: "
    return f"turn total {state.turn_total} (bank → {state.mine + state.turn_total}): throw or hold? "


def turn_start(state: PushState, names: Sequence[str]) -> list[str]:
    return [f"{names[0]} {state.scores[0]} · {names[1]} {state.scores[1]} (goal {state.game.goal})"]


def over(state: PushState, names: Sequence[str], seat: int) -> list[str]:
    winner = "you win" if state.winner == seat else f"{names[state.winner or 0]} wins"
    return [f"{winner}, {state.scores[0]} to {state.scores[1]}"]
