"""What the table says in Despirala (``core.scene``): the throws, picks, collections and completions told,
the questions at each phase, the final scores."""

from __future__ import annotations

from typing import Any, Sequence

from ..core.protocol import Step
from ..core.scene import Scene, describe
from .rules import COMBINATIONS, format_throw
from .state import COLLECT, COMPLETE, DespiralaState, Event, SixDice


def scene(state: DespiralaState, names: Sequence[str], seat: int = 0,
          last: tuple[Any, Step] | None = None) -> Scene:
    return describe(state, names, seat, last, narrate=narrate, prompt=prompt, turn_start=turn_start, legal=legal,
                    over=over)


def narrate(before: DespiralaState, step: Any, after: DespiralaState, name: str) -> str:
    return describe_event(name, before, before.event(step), after)


def prompt(state: DespiralaState, name: str) -> str:
    if state.is_chance():
        if isinstance(state.chance_outcomes()[0][0], SixDice):
            return "the six dice you threw: "
        if state.phase == COMPLETE:
            missing = "".join(map(str, state.target_missing()))
            return f"rethrows it took to complete (missing {missing}; 1-{state.seat.goods}), or 'failed': "
        face = COMBINATIONS[state.combination].collect_face()
        return f"how many of the {6 - state.have} rethrown dice show {face}? "
    where = (f"collecting {COMBINATIONS[state.combination].collect_face()}s: {state.have}"
             if state.phase == COLLECT else f"dice {''.join(map(str, state.dice))}")
    return f"{name} ({where}, goods {state.seat.goods}): "


def turn_start(state: DespiralaState, names: Sequence[str]) -> list[str]:
    seat = state.seat
    return [f"round {state.round} · {names[state.mover]}: {seat.points} points, {seat.goods} goods"]


def legal(state: DespiralaState) -> list[str]:
    moves = state.legal_actions()
    lines = ["legal moves: " + ", ".join(m.text() for m in moves
                                         if m.kind != "pick" or not COMBINATIONS[m.combination].n_args)]
    with_args = sorted({COMBINATIONS[m.combination].name for m in moves
                        if m.kind == "pick" and COMBINATIONS[m.combination].n_args})
    if with_args:
        blanks = {"Three pairs": " X Y Z", "Two triples": " X Y"}
        lines.append("with faces: " + ", ".join(f"{n}{blanks.get(n, ' X')}" for n in with_args))
    return lines


def over(state: DespiralaState, names: Sequence[str], seat: int) -> list[str]:
    finals = [s.final for s in state.seats]
    order = sorted(range(len(finals)), key=lambda i: -finals[i] if state.game.mode == "normal" else finals[i])
    return ["final scores: " + ", ".join(f"{names[i]} {finals[i]}" for i in order)]


def describe_event(name: str, before: DespiralaState, event: Event, after: DespiralaState) -> str:
    """One line telling what ``name``'s event did."""
    seat_after = after.seats[event.player]

    def does(verb: str) -> str:
        return f"{name} {verb}" if name == "you" else f"{name} {verb}s"

    if event.type == "throw":
        return f"{does('throw')} {format_throw(event.dice)}"
    if event.type == "hits":
        face = COMBINATIONS[before.combination].collect_face()
        dice = f" ({format_throw(event.dice)})" if event.dice else ""
        return f"{does('rethrow')}{dice}: {event.hits} more {face}{'s' if event.hits != 1 else ''}, {after.have} collected"
    if event.type == "completion":
        combo = COMBINATIONS[before.combination]
        rolls = f" ({', '.join(format_throw(r) for r in event.rolls)})" if event.rolls else ""
        if event.completed:
            pts = combo.target(before.args)[1]
            return (f"{does('complete')} {combo.name} in {event.rethrows} rethrow{'s' if event.rethrows != 1 else ''}"
                    f"{rolls}: +{pts} (points {seat_after.points}, goods {seat_after.goods})")
        return f"{does('fail')} {combo.name}{rolls}: 0 points and every good lost (points {seat_after.points})"
    move = event.move
    assert move is not None  # the events left are moves
    if move.kind == "reroll":
        return f"{does('reroll')} (goods {after.seats[event.player].goods})"
    if move.kind == "continue":
        return f"{does('continue')} collecting (goods {after.seats[event.player].goods})"
    if move.kind == "stop":
        face = COMBINATIONS[before.combination].collect_face()
        return f"{does('stop')} with {before.have} × {face}: +{face * before.have} (points {seat_after.points})"
    combo = COMBINATIONS[move.combination]
    if after.phase == COMPLETE or after.phase == COLLECT:
        extra = (f": {after.have} collected" if after.phase == COLLECT else
                 f": missing {format_throw(after.target_missing())}")
        return f"{does('pick')} {move.text()}{extra}"
    return f"{does('score')} {move.text()} at once: +{combo.target(move.args)[1]} (points {seat_after.points})"
