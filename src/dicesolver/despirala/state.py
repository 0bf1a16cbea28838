"""A game of Despirala for one or more players as a state machine driven by events.

Turns go round the table (player 0, 1, ... then the next round); each player's turn is

    throw (six dice) -> move (Reroll -> throw again | pick a combination)
    pick, nothing missing -> scored at once            pick, dice missing -> completion
    pick Collect f -> collect -> Continue -> hits -> collect ... -> Stop

Events are small dicts-of-facts (``Event``, as records store them); ``apply_event`` checks each against
the rules and raises ``InputError`` for anything impossible. The chance events can also be drawn
(``draw_event``), so the console, the bots' matches and the web app share one engine.

``DespiralaState`` is also the game protocol's state (``core.protocol``): its actions are the moves of the
seed's language (``Move``), its outcomes the six dice of a throw (``SixDice``), a completion's number of
rethrows or its failure (``Completion``) and the hits of a collect's rethrow (``Hits``); its text is
described in ``notation.py``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import ClassVar

import numpy as np

from ..core.errors import InputError
from ..core.numbers import is_digits
from .rules import (
    ALL_FREE,
    COMBINATIONS,
    GOODS_PER_TURN,
    N_DICE,
    TURNS,
    DespiralaGame,
    Move,
    Throw,
    format_throw,
    missing,
    parse_move,
    parse_throw,
    six_dice_throws,
)

THROW, DECIDE, COMPLETE, COLLECT, HITS, OVER = "throw", "decide", "complete", "collect", "hits", "over"


@dataclass(frozen=True)
class Seat:
    """One player's sheet: the free combinations, the goods held and the points scored."""

    free: int = ALL_FREE
    goods: int = 0
    points: int = 0

    @property
    def final(self) -> int:
        return self.points + self.goods


@dataclass(frozen=True)
class Event:
    type: str  # "throw", "move", "completion", "hits"
    player: int
    dice: Throw = ()  # throw: six dice; hits: the rethrown dice (optional)
    move: Move | None = None
    rethrows: int = 0  # completion: how many rethrows it took (all the goods when it failed)
    completed: bool = True
    rolls: tuple[Throw, ...] = ()  # completion: each rethrow's dice (optional)
    hits: int = 0

    def to_json(self) -> dict:
        out: dict = {"type": self.type, "player": self.player}
        if self.type == "throw":
            out["dice"] = format_throw(self.dice)
        elif self.type == "move" and self.move is not None:
            out["move"] = self.move.text()
        elif self.type == "completion":
            out.update(rethrows=self.rethrows, completed=self.completed)
            if self.rolls:
                out["rolls"] = [format_throw(r) for r in self.rolls]
        elif self.type == "hits":
            out["hits"] = self.hits
            if self.dice:
                out["dice"] = format_throw(self.dice)
        return out


@dataclass(frozen=True)
class SixDice:
    """The six dice of a throw (sorted)."""

    dice: Throw
    kind: ClassVar[str] = "throw"

    @property
    def label(self) -> str:
        return format_throw(self.dice)

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True)
class Completion:
    """How a picked combination's completion went: done on the ``rethrows``-th rethrow, or failed."""

    rethrows: int
    completed: bool = True
    kind: ClassVar[str] = "completion"

    @property
    def label(self) -> str:
        return f"done in {self.rethrows}" if self.completed else "failed"

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True)
class Hits:
    """How many of a collect's rethrown dice showed the collected face."""

    hits: int
    kind: ClassVar[str] = "hits"

    @property
    def label(self) -> str:
        return f"{self.hits} hit{'s' if self.hits != 1 else ''}"

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True)
class DespiralaState:
    seats: tuple[Seat, ...]
    mover: int = 0
    round: int = 1
    phase: str = THROW
    dice: Throw = ()  # the six dice showing
    combination: int = -1  # the combination being completed or collected
    args: tuple[int, ...] = ()
    have: int = 0  # collecting: dice of the face collected so far
    game: DespiralaGame = field(default=DespiralaGame(), repr=False)

    def __post_init__(self) -> None:
        if self.game.players != len(self.seats):
            object.__setattr__(self, "game", self.game.with_players(len(self.seats)))

    @property
    def seat(self) -> Seat:
        return self.seats[self.mover]

    # -- the game protocol ---------------------------------------------------------------------------
    @property
    def player(self) -> int | None:
        return None if self.phase == OVER else self.mover

    def to_move(self) -> int | None:
        return self.mover if self.phase in (DECIDE, COLLECT) else None

    def is_chance(self) -> bool:
        return self.phase in (THROW, COMPLETE, HITS)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[Move]:
        return legal_moves(self.game, self)

    def chance_outcomes(self) -> list[tuple[SixDice | Completion | Hits, float]]:
        from .solver import binomial_table, completion_odds, pick_shape

        if self.phase == THROW:
            return list(_six_dice_outcomes())
        if self.phase == HITS:
            n = N_DICE - self.have
            return [(Hits(j), float(p)) for j, p in enumerate(binomial_table()[n, :n + 1])]
        if self.phase == COMPLETE:
            goods = self.seat.goods
            q, qcum = completion_odds()
            s = pick_shape(self.combination, self.args, self.dice)
            out: list[tuple[SixDice | Completion | Hits, float]] = [
                (Completion(t), float(q[s, t])) for t in range(1, goods + 1) if q[s, t] > 0]
            fail = 1.0 - float(qcum[s, goods])
            if fail > 0:
                out.append((Completion(goods, False), fail))
            return out
        return []

    def event(self, step) -> Event:
        """The record's event for an action or an outcome here."""
        p = self.mover
        if isinstance(step, Move):
            return Event("move", p, move=step)
        if isinstance(step, SixDice):
            return Event("throw", p, dice=tuple(sorted(step.dice)))
        if isinstance(step, Completion):
            return Event("completion", p, rethrows=step.rethrows, completed=step.completed)
        if isinstance(step, Hits):
            return Event("hits", p, hits=step.hits)
        raise InputError(f"{step!r} is not a step of Despirala")

    def apply(self, step) -> DespiralaState:
        return apply_event(self.game, self, self.event(step))

    def returns(self) -> tuple[float, ...]:
        if self.phase != OVER:
            raise InputError("the game is not over")
        return tuple(float(seat.final) for seat in self.seats)

    def parse_step(self, text: str) -> Move | SixDice | Completion | Hits:
        step: Move | SixDice | Completion | Hits
        if self.phase == THROW:
            step = SixDice(parse_throw(text))
        elif self.phase == COMPLETE:
            t = str(text).strip().lower()
            t = t[len("done in"):] if t.startswith("done in") else t
            event = parse_manual_completion(t, self.mover, self.seat.goods)
            step = Completion(event.rethrows, event.completed)
        elif self.phase == HITS:
            t = str(text).strip().lower()
            t = t.removesuffix("hits").removesuffix("hit")
            step = Hits(parse_manual_hits(t, self.mover, self).hits)
        else:
            move = parse_move(text)
            if move.kind == "list":
                raise InputError("List is not a move")
            step = move
        self.apply(step)
        return step

    def turn_key(self) -> tuple | None:
        return None if self.phase == OVER else (self.mover, self.round)

    def brief(self) -> str:
        if self.phase == OVER:
            return "game over"
        goods = f"goods {self.seat.goods}"
        if self.phase == THROW:
            return f"round {self.round}, throw due, {goods}"
        if self.phase in (COLLECT, HITS):
            face = COMBINATIONS[self.combination].collect_face()
            return f"collecting {face}s: {self.have}, {goods}"
        if self.phase == COMPLETE:
            return f"completing {Move('pick', self.combination, self.args).text()}, {goods}"
        return f"dice {format_throw(self.dice)}, {goods}"

    def __str__(self) -> str:
        from .notation import state_text

        return state_text(self)

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def target_missing(self) -> Throw:
        """The faces still missing for the combination being completed (Four of a kind: its face only)."""
        combo = COMBINATIONS[self.combination]
        target, _ = combo.target(self.args)
        return missing(target, self.dice)

    def extra_dice(self) -> int:
        return COMBINATIONS[self.combination].extra_dice


def start_state(players: int, game: DespiralaGame | None = None) -> DespiralaState:
    if not 1 <= players <= 6:
        raise InputError("Despirala is played by 1 to 6 players")
    seats = [Seat() for _ in range(players)]
    seats[0] = Seat(goods=GOODS_PER_TURN)
    return DespiralaState(tuple(seats), game=game or DespiralaGame())


def _with_seat(state: DespiralaState, seat: Seat, **changes) -> DespiralaState:
    seats = list(state.seats)
    seats[state.mover] = seat
    return replace(state, seats=tuple(seats), **changes)


def _end_turn(state: DespiralaState, seat: Seat, points: int) -> DespiralaState:
    """Score ``points`` with the current combination, use it up, and pass the dice on."""
    seat = Seat(seat.free & ~(1 << state.combination), seat.goods, seat.points + points)
    seats = list(state.seats)
    seats[state.mover] = seat
    mover = (state.mover + 1) % len(seats)
    round_ = state.round + (mover == 0)
    if round_ > TURNS:
        return DespiralaState(tuple(seats), 0, TURNS, OVER, game=state.game)
    nxt = seats[mover]
    seats[mover] = Seat(nxt.free, nxt.goods + GOODS_PER_TURN, nxt.points)
    return DespiralaState(tuple(seats), mover, round_, THROW, game=state.game)


@lru_cache(maxsize=1)
def _six_dice_outcomes() -> tuple[tuple[SixDice, float], ...]:
    """Every throw of the six dice as a chance outcome, with its probability: made once (462 outcomes, some
    0.2 ms to make), as ``chance_outcomes`` is asked for them at every throw."""
    throws, probs = six_dice_throws()
    return tuple((SixDice(t), p) for t, p in zip(throws, probs))


def legal_moves(game: DespiralaGame, state: DespiralaState) -> list[Move]:
    """Every legal move now (empty at a chance event)."""
    seat = state.seat
    if state.phase == COLLECT:
        moves = [Move("stop")]
        if seat.goods > 0 and state.have < N_DICE:
            moves.insert(0, Move("continue"))
        return moves
    if state.phase != DECIDE:
        return []
    moves = [Move("reroll")] if game.mode == "normal" and seat.goods > 0 else []
    for combo in COMBINATIONS:
        if seat.free & (1 << combo.index):
            moves.extend(Move("pick", combo.index, args) for args in combo.arguments())
    return moves


def check_move(game: DespiralaGame, state: DespiralaState, move: Move) -> None:
    """InputError with the reason when ``move`` is not legal now."""
    seat = state.seat
    if state.phase not in (DECIDE, COLLECT):
        raise InputError("no move is due now: the dice are to be thrown")
    if move.kind == "list":
        raise InputError("List is not a move")
    if state.phase == COLLECT:
        name = COMBINATIONS[state.combination].name
        if move.kind == "continue":
            if seat.goods <= 0:
                raise InputError("no goods left to continue collecting: Stop")
            if state.have >= N_DICE:
                raise InputError("all six dice are collected: Stop")
            return
        if move.kind != "stop":
            raise InputError(f"you are collecting ({name}): Continue or Stop")
        return
    if move.kind in ("continue", "stop"):
        raise InputError("Continue and Stop are for collecting; pick a combination or Reroll")
    if move.kind == "reroll":
        if game.mode != "normal":
            raise InputError("misere play does not allow the whole-roll Reroll")
        if seat.goods <= 0:
            raise InputError("no goods left to Reroll")
        return
    combo = COMBINATIONS[move.combination]
    if not seat.free & (1 << combo.index):
        raise InputError(f"{combo.name} is already used")
    if move.args not in combo.arguments():
        raise InputError(f"{combo.name} cannot take {' '.join(map(str, move.args)) or 'no arguments'}")


def apply_event(game: DespiralaGame, state: DespiralaState, event: Event) -> DespiralaState:
    """The state after ``event`` (InputError when the event is impossible here)."""
    if state.over:
        raise InputError("the game is over")
    if event.player != state.mover:
        raise InputError(f"it is player {state.mover}'s turn, not player {event.player}'s")
    seat = state.seat
    expected = {THROW: "throw", DECIDE: "move", COLLECT: "move", COMPLETE: "completion", HITS: "hits"}[state.phase]
    if event.type != expected:
        raise InputError(f"expected a {expected} event, not {event.type!r}")
    if event.type == "throw":
        if len(event.dice) != N_DICE or any(not 1 <= d <= 6 for d in event.dice):
            raise InputError("a throw is six dice, each 1 to 6")
        return replace(state, phase=DECIDE, dice=tuple(sorted(event.dice)))
    if event.type == "move":
        move = event.move
        if move is None:
            raise InputError("a move event names its move")
        check_move(game, state, move)
        if move.kind == "reroll":
            return _with_seat(state, replace(seat, goods=seat.goods - 1), phase=THROW, dice=())
        if move.kind == "continue":
            return _with_seat(state, replace(seat, goods=seat.goods - 1), phase=HITS)
        if move.kind == "stop":
            face = COMBINATIONS[state.combination].collect_face()
            return _end_turn(state, seat, face * state.have)
        combo = COMBINATIONS[move.combination]
        picked = replace(state, combination=combo.index, args=move.args)
        if combo.is_collect:
            return replace(picked, phase=COLLECT, have=state.dice.count(combo.collect_face()))
        if not picked.target_missing():
            return _end_turn(picked, seat, combo.target(move.args)[1])
        return replace(picked, phase=COMPLETE)
    if event.type == "completion":
        return _complete(state, seat, event)
    # hits
    n = N_DICE - state.have
    face = COMBINATIONS[state.combination].collect_face()
    if not 0 <= event.hits <= n:
        raise InputError(f"{n} dice were rethrown: between 0 and {n} of them can show {face}")
    if event.dice and (len(event.dice) != n or event.dice.count(face) != event.hits):
        raise InputError(f"the rethrown dice {format_throw(event.dice)} do not show {event.hits} of {face} in {n} dice")
    return replace(state, phase=COLLECT, have=state.have + event.hits)


def _complete(state: DespiralaState, seat: Seat, event: Event) -> DespiralaState:
    k = event.rethrows
    if event.completed and not 1 <= k <= seat.goods:
        raise InputError(f"with {seat.goods} goods a completion takes 1 to {seat.goods} rethrows, not {k}")
    if not event.completed and k != seat.goods:
        raise InputError(f"a failed completion uses every good ({seat.goods}), not {k}")
    if event.rolls:
        left = Counter(state.target_missing())
        for i, roll in enumerate(event.rolls):
            n = sum(left.values()) + state.extra_dice()
            if len(roll) != n:
                raise InputError(f"rethrow {i + 1} should be {n} dice, not {len(roll)}")
            if not left:
                raise InputError("the completion went on after it was complete")
            left -= Counter(roll)
        if len(event.rolls) != k or bool(left) == event.completed:
            raise InputError("the rethrown dice do not match the completion's result")
    combo = COMBINATIONS[state.combination]
    if event.completed:
        return _end_turn(state, replace(seat, goods=seat.goods - k), combo.target(state.args)[1])
    return _end_turn(state, replace(seat, goods=0), 0)


# -- chance --------------------------------------------------------------------------------------------

def draw_event(state: DespiralaState, rng: np.random.Generator) -> Event:
    """The chance event due now, drawn with ``rng`` (a throw, a whole completion, or a collect's hits)."""
    p = state.mover
    if state.phase == THROW:
        return Event("throw", p, dice=tuple(sorted(int(d) for d in rng.integers(1, 7, N_DICE))))
    if state.phase == HITS:
        face = COMBINATIONS[state.combination].collect_face()
        dice = tuple(sorted(int(d) for d in rng.integers(1, 7, N_DICE - state.have)))
        return Event("hits", p, dice=dice, hits=dice.count(face))
    if state.phase == COMPLETE:
        left = Counter(state.target_missing())
        rolls: list[Throw] = []
        while left and len(rolls) < state.seat.goods:
            roll = tuple(sorted(int(d) for d in rng.integers(1, 7, sum(left.values()) + state.extra_dice())))
            rolls.append(roll)
            left -= Counter(roll)
        return Event("completion", p, rethrows=len(rolls), completed=not left, rolls=tuple(rolls))
    raise InputError("no chance event is due now")


def parse_manual_completion(text: str, player: int, goods: int) -> Event:
    """What a player at a real table types after a completion: the number of rethrows it took, or
    ``failed`` (``x``, ``-``) when the goods ran out."""
    t = str(text).strip().lower()
    if t in ("failed", "fail", "x", "-", "no"):
        return Event("completion", player, rethrows=goods, completed=False)
    if not is_digits(t) or len(t) > 3:
        raise InputError(f"type how many rethrows completed it (1-{goods}), or 'failed'")
    return Event("completion", player, rethrows=int(t), completed=True)


def parse_manual_hits(text: str, player: int, state: DespiralaState) -> Event:
    """The hits after Continue: a count (``2``) or the rethrown dice themselves (``1455``)."""
    n = N_DICE - state.have
    face = COMBINATIONS[state.combination].collect_face()
    t = "".join(str(text).split())
    if is_digits(t) and len(t) == n and n > 1:
        dice = parse_throw(t, n)
        return Event("hits", player, dice=dice, hits=dice.count(face))
    if is_digits(t) and len(t) <= 1:
        return Event("hits", player, hits=int(t))
    raise InputError(f"type how many of the {n} rethrown dice show {face} (0-{n}), or the {n} dice")
