"""What the table says in a scorecard game (``core.scene``): the dice thrown, kept and scored, the
questions at a keep and at a box, the verdict at the end."""

from __future__ import annotations

from typing import Any, Sequence

from ..core.dice import format_dice
from ..core.protocol import Step
from ..core.scene import Scene, describe
from .game.state import Keep, Roll, Score, ScorecardState


def scene(state: ScorecardState, names: Sequence[str], seat: int = 0,
          last: tuple[Any, Step] | None = None) -> Scene:
    return describe(state, names, seat, last, narrate=narrate, prompt=prompt, legal=legal,
                    stand_prompt=stand_prompt, pause_before_throw=pause_before_throw, over=over,
                    board_at_turn_start=True)


def narrate(before: ScorecardState, step: Any, after: ScorecardState, name: str) -> str:
    faces = before.game.faces
    if isinstance(step, Roll):
        return f"{name} throws {format_dice(step.dice, faces)}" if name != "you" else \
            f"you throw {format_dice(step.dice, faces)}"
    if isinstance(step, Keep):
        kept = format_dice(step.dice, faces) if step.dice else "nothing"
        return f"{name} keep{'s' if name != 'you' else ''} {kept}"
    seat = before.mover
    points = after.cards[seat].boxes[step.category]
    dice = format_dice(before.showing, faces)
    return f"{name} score{'s' if name != 'you' else 'd'} {dice} in {before.game.categories[step.category].title} for {points}"


def prompt(state: ScorecardState, name: str) -> str:
    g = state.game
    if state.is_chance():
        if state.held or state.rolls_left < g.rolls:
            count = g.n_dice - len(state.held)
            held = format_dice(state.held, g.faces) if state.held else "nothing"
            return f"the {count} dice you threw (holding {held}): "
        return "the dice you rolled: "
    dice = format_dice(state.showing, g.faces)
    if state.rolls_left > 0:
        return f"[{dice}] {state.rolls_left} throw{'s' if state.rolls_left > 1 else ''} left - keep? "
    return f"[{dice}] score in which box? "


def stand_prompt(state: ScorecardState) -> str | None:
    if state.dice is None or state.rolls_left == 0:
        return None
    return f"[{format_dice(state.dice, state.game.faces)}] score in which box? "


def pause_before_throw(state: ScorecardState) -> bool:
    return not state.held and state.rolls_left == state.game.rolls


def legal(state: ScorecardState) -> list[str]:
    scores = [a.name for a in state.legal_actions() if isinstance(a, Score)]
    lines = []
    if state.rolls_left > 0:
        lines.append("keep any of the dice showing and throw the others (e.g. keep 113, keep none), or score now:")
    return lines + ["score in: " + ", ".join(scores)]


def over(state: ScorecardState, names: Sequence[str], seat: int) -> list[str]:
    totals = [c.total(state.game) for c in state.cards]
    if len(totals) == 1:
        return [f"Game over: {totals[0]} points."]
    me = totals[seat]
    best = max(t for s, t in enumerate(totals) if s != seat)
    verdict = "you win" if me > best else "a draw" if me == best else "you lose"
    return [f"Game over: {me} to {best}, {verdict}."]
