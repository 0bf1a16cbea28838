"""What the table says in Farkle (``core.scene``): throws, dice set aside, banks and Farkles told, the
question at each decision, the score line at each turn, who won."""

from __future__ import annotations

from typing import Any, Sequence

from ..core.protocol import Step
from ..core.scene import Scene, describe, legal_moves_line
from ..core.steps import Throw
from .rules import format_dice
from .state import Bank, FarkleState, Take, takes


def scene(state: FarkleState, names: Sequence[str], seat: int = 0, last: tuple[Any, Step] | None = None) -> Scene:
    return describe(state, names, seat, last, narrate=narrate, prompt=prompt, turn_start=turn_start, legal=legal,
                    over=over)


def narrate(before: FarkleState, step: Any, after: FarkleState, name: str) -> str:
    s = "" if name == "you" else "s"
    if isinstance(step, Throw):
        return f"{name} throw{s} {before.left} dice"
    if isinstance(step, Bank):
        return f"{name} bank{s}: {before.mine:,} + {before.turn_total:,} = {before.mine + before.turn_total:,}"
    if isinstance(step, Take):
        points = dict(takes(before.game, before.table))[step]
        if after.winner is not None:
            return f"{name} set{s} aside {step.label} (+{points}): {after.scores[before.mover]:,} reaches the goal"
        hot = " — hot dice: all six again" if len(step.dice) == len(before.table) else ""
        return f"{name} set{s} aside {step.label} (+{points}, turn total {after.turn_total:,}){hot}"
    dice = format_dice(step.dice)
    if after.mover != before.mover:
        penalty = before.scores[before.mover] - after.scores[before.mover]
        lost = f": Farkle, {before.turn_total:,} lost" if before.turn_total else ": Farkle"
        return f"{name} throw{s} {dice}{lost}" + (f", and {penalty} for {before.game.farkle_limit} Farkles in a row"
                                                if penalty else "")
    return f"{name} throw{s} {dice}"


def prompt(state: FarkleState, name: str) -> str:
    if state.is_chance():
        return f"the {state.left} dice you threw: "
    if state.table:
        return f"set aside from {format_dice(state.table)} (take DICE): "
    bank = state.mine + state.turn_total
    return f"turn total {state.turn_total:,} (bank → {bank:,}), {state.left} dice: throw or bank? "


def turn_start(state: FarkleState, names: Sequence[str]) -> list[str]:
    return [f"{names[0]} {state.scores[0]:,} · {names[1]} {state.scores[1]:,} (goal {state.game.goal:,})"]


def legal(state: FarkleState) -> list[str]:
    if state.table:
        return ["set aside: " + ", ".join(f"{t.label} (+{p})" for t, p in takes(state.game, state.table))]
    return legal_moves_line(state)


def over(state: FarkleState, names: Sequence[str], seat: int) -> list[str]:
    winner = "you win" if state.winner == seat else f"{names[state.winner or 0]} wins"
    return [f"{winner}, {state.scores[0]:,} to {state.scores[1]:,}"]
