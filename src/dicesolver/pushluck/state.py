"""Push-your-luck games behind the game protocol: states, actions and outcomes, with their text forms.

A state's text is the advice language ``MINE,THEIRS,TURN_TOTAL``, seen from the player on turn:

* ``0,87,32``: a decision, 32 at risk: ``throw`` or ``hold``;
* ``0,87,32+``: the player chose to throw and the throw is due; ``0,87,0`` (or ``0,87``): the start of
  a turn, which begins with a throw;
* ``@1`` at the end when the second player (seat 1) is on turn: ``87,0,32@1``;
* at the end: both scores from seat 0's side and ``won``, the winner's at or past the goal: ``100,87,won``.

Actions: ``throw`` and ``hold``. Outcomes: the dice thrown (``34``).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import ClassVar

from ..core.errors import InputError
from ..core.steps import DiceRoll, Throw
from .rules import ADD, BUST, PushGame, parse_throw

@dataclass(frozen=True)
class Hold:
    kind: ClassVar[str] = "hold"
    label: ClassVar[str] = "hold"

    def __str__(self) -> str:
        return "hold"

THROW_WORDS = {"t", "throw", "r", "roll", "go"}
HOLD_WORDS = {"h", "hold", "b", "bank", "stop"}


@lru_cache(maxsize=16)
def _throws(game: PushGame) -> tuple[tuple[DiceRoll, float], ...]:
    """Every throw (its dice sorted) as a chance outcome with its probability: made once a game, as
    ``chance_outcomes`` is asked for them at every throw."""
    throws = game.throws()
    counts = Counter(tuple(sorted(t)) for t in throws)
    return tuple((DiceRoll(dice), float(Fraction(n, len(throws)))) for dice, n in sorted(counts.items()))


@dataclass(frozen=True)
class PushState:
    """Both banked scores (by seat), the seat on turn, the turn total at risk, and whether a throw is due."""

    game: PushGame = field(compare=False, repr=False)
    scores: tuple[int, ...] = (0, 0)  # by seat
    mover: int = 0
    turn_total: int = 0
    throwing: bool = True
    winner: int | None = None
    rules: str = field(default="", init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", self.game.canonical)

    @property
    def mine(self) -> int:
        return self.scores[self.mover]

    @property
    def theirs(self) -> int:
        return self.scores[1 - self.mover]

    @property
    def player(self) -> int | None:
        return None if self.winner is not None else self.mover

    def to_move(self) -> int | None:
        return None if self.winner is not None or self.throwing else self.mover

    def is_chance(self) -> bool:
        return self.winner is None and self.throwing

    def is_terminal(self) -> bool:
        return self.winner is not None

    def legal_actions(self) -> list[Throw | Hold]:
        return [] if self.to_move() is None else [Throw(), Hold()]

    def chance_outcomes(self) -> list[tuple[DiceRoll, float]]:
        if not self.is_chance():
            return []
        return list(_throws(self.game))

    def apply(self, step) -> PushState:
        if self.winner is not None:
            raise InputError("the game is won")
        if isinstance(step, DiceRoll):
            if not self.throwing:
                raise InputError("throw or hold first")
            kind, points = self.game.effect(step.dice)
            scores = list(self.scores)
            if kind == ADD:
                total = self.turn_total + points
                if self.mine + total >= self.game.goal:
                    scores[self.mover] = self.mine + total
                    return replace(self, scores=tuple(scores), turn_total=0, throwing=False, winner=self.mover)
                return replace(self, turn_total=total, throwing=False)
            if kind != BUST:  # double 1s: the banked score is lost too
                scores[self.mover] = 0
            return replace(self, scores=tuple(scores), mover=1 - self.mover, turn_total=0, throwing=True)
        if self.throwing:
            raise InputError("the dice are to be thrown")
        if isinstance(step, Throw):
            return replace(self, throwing=True)
        if isinstance(step, Hold):
            scores = list(self.scores)
            scores[self.mover] += self.turn_total
            return replace(self, scores=tuple(scores), mover=1 - self.mover, turn_total=0, throwing=True)
        raise InputError(f"{step!r} is not a move of {self.game.name}")

    def returns(self) -> tuple[float, ...]:
        if self.winner is None:
            raise InputError("the game is not over")
        return (1.0, 0.0) if self.winner == 0 else (0.0, 1.0)

    def parse_step(self, text: str) -> Throw | Hold | DiceRoll:
        t = str(text).strip().lower()
        step: Throw | Hold | DiceRoll
        if self.is_chance():
            step = DiceRoll(parse_throw(t, self.game))
        elif t in THROW_WORDS:
            step = Throw()
        elif t in HOLD_WORDS:
            step = Hold()
        else:
            raise InputError(f"unknown command {str(text).strip()!r}: type t (throw) or h (hold), hint, score, quit")
        self.apply(step)
        return step

    def turn_key(self) -> tuple | None:
        return None if self.winner is not None else (self.mover, self.scores)

    def brief(self) -> str:
        if self.winner is not None:
            return "game over"
        what = "throw due" if self.throwing else "throw or hold"
        return f"{self.mine}-{self.theirs}, {self.turn_total} at risk, {what}"

    def __str__(self) -> str:
        if self.winner is not None:
            return f"{self.scores[0]},{self.scores[1]},won"
        due = "+" if self.throwing and self.turn_total else ""
        seat = f"@{self.mover}" if self.mover else ""
        return f"{self.mine},{self.theirs},{self.turn_total}{due}{seat}"


_STATE = re.compile(r"^\s*([0-9]{1,4})\s*[,/ ]\s*([0-9]{1,4})\s*(?:[,/ ]\s*([0-9]{1,4}|won)\s*(\+)?)?\s*(?:@\s*([0-9]))?\s*$")


def start_state(game: PushGame) -> PushState:
    return PushState(game)


def parse_state(game: PushGame, text: str) -> PushState:
    """A state from ``MINE,THEIRS[,TURN_TOTAL[+]][@SEAT]`` (see the module's docstring)."""
    m = _STATE.match(text) if isinstance(text, str) else None
    if not m:
        raise InputError(f"a {game.name} position is MINE,THEIRS,TURN_TOTAL (e.g. 0,87,32), not {text!r}")
    mine, theirs = int(m.group(1)), int(m.group(2))
    if m.group(3) == "won":
        most = game.goal - 1 + max(game.outcomes()[2], default=0)
        won = [s for s, score in enumerate((mine, theirs)) if game.goal <= score <= most]
        if len(won) != 1 or min(mine, theirs) >= game.goal or m.group(4) or m.group(5):
            raise InputError(f"a finished game is written S0,S1,won: one score from {game.goal} to {most}, the "
                             f"other below {game.goal}")
        return PushState(game, (mine, theirs), won[0], 0, False, won[0])
    total = int(m.group(3) or 0)
    seat = int(m.group(5) or 0)
    if seat not in (0, 1):
        raise InputError(f"{game.name} is played by two: @0 or @1, not @{seat}")
    scores = (mine, theirs) if seat == 0 else (theirs, mine)
    if max(scores) >= game.goal:
        raise InputError(f"scores must be below the goal ({game.goal}) while the game goes on (a finished game: "
                         "S0,S1,won)")
    if mine + total >= game.goal:
        raise InputError(f"with {total} at risk the player has reached the goal ({game.goal}): the game is over")
    throwing = total == 0 or bool(m.group(4))
    return PushState(game, scores, seat, total, throwing)
