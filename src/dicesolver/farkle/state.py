"""Farkle behind the game protocol: states, actions and throws, with their text forms.

A position is written from the side of the player on turn, ``MINE,THEIRS[,TURN,DICE][@SEAT]``; an ``x``
after a score for each Farkle in a row of that player (``-500x``):

* ``1500,2300``: the start of a turn, six dice to throw;
* ``1500,2300,350,=1556``: the dice thrown show 1556, 350 at risk before them: set aside scoring dice;
* ``1500,2300,500,3``: 500 at risk and three dice left: ``bank`` or ``throw``;
* ``1500,2300,500,3+``: the throw of three dice is due;
* ``@1`` at the end when the second player (seat 1) is on turn; at the end, both scores from seat 0's
  side and ``won``: ``10250,7300,won``.

Actions: ``take 155`` (set aside those dice: every die of them must score), ``throw``, ``bank``. Outcomes:
the dice thrown (``155236``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import ClassVar

from ..core.errors import InputError
from ..core.steps import DiceRoll, Throw
from .rules import DICE, FarkleGame, counts_of, format_dice


@dataclass(frozen=True)
class Take:
    """Set aside these dice (sorted faces) from the throw on the table; ``points``, what they score, where
    the throw's legal set-asides made it (advice shows it; a take typed or decoded is the same move)."""

    dice: tuple[int, ...]
    points: int | None = field(default=None, compare=False)
    kind: ClassVar[str] = "take"

    @property
    def label(self) -> str:
        return format_dice(self.dice)

    def __str__(self) -> str:
        return f"take {self.label}"

@dataclass(frozen=True)
class Bank:
    kind: ClassVar[str] = "bank"
    label: ClassVar[str] = "bank"

    def __str__(self) -> str:
        return "bank"

THROW_WORDS = {"t", "throw", "r", "roll", "go"}
BANK_WORDS = {"b", "bank", "h", "hold", "stop"}
TAKE_WORDS = {"take", "keep", "k", "set", "s"}


@lru_cache(maxsize=64)
def throws(game: FarkleGame, n: int) -> tuple[tuple[DiceRoll, float], ...]:
    """Every throw of ``n`` dice as a chance outcome, with its probability: made once (462 outcomes for six
    dice, 0.2 ms to make), as ``chance_outcomes`` is asked for them at every throw."""
    return tuple((DiceRoll(dice), p) for dice, p in game.throw_odds(n))


@lru_cache(maxsize=4096)
def takes(game: FarkleGame, dice: tuple[int, ...]) -> tuple[tuple[Take, int], ...]:
    """Every legal set-aside of a throw with its points, fewest dice first, then by faces."""
    return tuple((Take(o.dice_sorted, o.points), o.points) for o in game.options(dice))


@dataclass(frozen=True)
class FarkleState:
    """Both banked scores and Farkles in a row (by seat), the seat on turn, the turn total at risk, the
    dice left to throw, and either the throw on the table (to set aside from) or whether a throw is due."""

    game: FarkleGame = field(compare=False, repr=False)
    scores: tuple[int, int] = (0, 0)  # points, by seat
    farkles: tuple[int, int] = (0, 0)  # Farkles in a row, by seat
    mover: int = 0
    turn_total: int = 0
    left: int = DICE  # dice to throw (or thrown: the table's)
    table: tuple[int, ...] = ()  # the dice thrown, awaiting a set-aside
    throwing: bool = True  # a throw of ``left`` dice is due
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

    @property
    def phase(self) -> str:
        """"throw" (a throw is due), "take" (set aside from the table) or "bank" (bank or throw)."""
        return "throw" if self.throwing else ("take" if self.table else "bank")

    def to_move(self) -> int | None:
        return None if self.winner is not None or self.throwing else self.mover

    def is_chance(self) -> bool:
        return self.winner is None and self.throwing

    def is_terminal(self) -> bool:
        return self.winner is not None

    def can_bank(self) -> bool:
        return self.turn_total > 0 and self.turn_total >= self.game.min_bank

    def legal_actions(self) -> list[Take | Throw | Bank]:
        if self.to_move() is None:
            return []
        if self.table:
            return [take for take, _ in takes(self.game, self.table)]
        return [Throw(), Bank()] if self.can_bank() else [Throw()]

    def chance_outcomes(self) -> list[tuple[DiceRoll, float]]:
        if not self.is_chance():
            return []
        return list(throws(self.game, self.left))

    def apply(self, step) -> FarkleState:
        if self.winner is not None:
            raise InputError("the game is won")
        if isinstance(step, DiceRoll):
            if not self.throwing:
                raise InputError("set aside, bank or throw first")
            dice = self.game.check_throw(step.dice, self.left)
            if not takes(self.game, dice):
                return self._farkle()
            return replace(self, table=dice, throwing=False)
        if self.throwing:
            raise InputError("the dice are to be thrown")
        if isinstance(step, Take):
            if not self.table:
                raise InputError("nothing is on the table to set aside: bank or throw")
            points = dict(takes(self.game, self.table)).get(step)
            if points is None:
                raise InputError(self._why_not(step.dice))
            left = len(self.table) - len(step.dice) or DICE  # hot dice: all six again
            total = self.turn_total + points
            if total >= self.game.wins_from(self.mine):  # banking wins: the game ends here
                scores = list(self.scores)
                scores[self.mover] = self.mine + total
                return replace(self, scores=(scores[0], scores[1]), farkles=(0, 0), turn_total=0, left=DICE, table=(),
                               winner=self.mover)
            return replace(self, turn_total=total, left=left, table=())
        if self.table:
            raise InputError(f"set aside scoring dice from {format_dice(self.table)} first (take ...)")
        if isinstance(step, Throw):
            return replace(self, throwing=True)
        if isinstance(step, Bank):
            if not self.can_bank():
                least = max(self.game.min_bank, self.game.unit)
                raise InputError(f"a bank needs at least {least} points at risk, not {self.turn_total}")
            scores = list(self.scores)
            scores[self.mover] += self.turn_total
            farkles = list(self.farkles)
            farkles[self.mover] = 0
            return self._next_turn((scores[0], scores[1]), (farkles[0], farkles[1]))
        raise InputError(f"{step!r} is not a move of {self.game.name}")

    def _farkle(self) -> FarkleState:
        """A throw with nothing to set aside: the turn total is lost (and at the limit of Farkles in a row,
        the penalty, never below the floor)."""
        scores, farkles = list(self.scores), list(self.farkles)
        farkles[self.mover] += 1
        if farkles[self.mover] >= self.game.farkle_limit:
            farkles[self.mover] = 0
            scores[self.mover] = max(self.game.floor, scores[self.mover] - self.game.penalty)
        return self._next_turn((scores[0], scores[1]), (farkles[0], farkles[1]))

    def _next_turn(self, scores: tuple[int, int], farkles: tuple[int, int]) -> FarkleState:
        return replace(self, scores=scores, farkles=farkles, mover=1 - self.mover, turn_total=0, left=DICE,
                       table=(), throwing=True)

    def _why_not(self, dice: tuple[int, ...]) -> str:
        shown = counts_of(self.table)
        if any(c > s for c, s in zip(counts_of(dice), shown)):
            return f"{format_dice(dice)} is not among the dice thrown ({format_dice(self.table)})"
        return (f"every die set aside must score, and {format_dice(dice)} does not (legal: "
                + ", ".join(t.label for t, _ in takes(self.game, self.table)) + ")")

    def returns(self) -> tuple[float, ...]:
        if self.winner is None:
            raise InputError("the game is not over")
        return (1.0, 0.0) if self.winner == 0 else (0.0, 1.0)

    def parse_step(self, text: str) -> Take | Throw | Bank | DiceRoll:
        t = " ".join(str(text).strip().lower().split())
        step: Take | Throw | Bank | DiceRoll
        if self.is_chance():
            step = DiceRoll(self.game.parse_dice(t))
        elif t in THROW_WORDS:
            step = Throw()
        elif t in BANK_WORDS:
            step = Bank()
        else:
            word, _, rest = t.partition(" ")
            digits = rest if word in TAKE_WORDS else t
            if not self.table:
                raise InputError(f"unknown command {str(text).strip()!r}: type t (throw) or b (bank), hint, quit")
            step = Take(self.game.parse_dice(digits))
        self.apply(step)
        return step

    def turn_key(self) -> tuple | None:
        return None if self.winner is not None else (self.mover, self.scores, self.farkles)

    def brief(self) -> str:
        if self.winner is not None:
            return "game over"
        what = {"throw": f"{self.left} dice to throw", "take": f"set aside from {format_dice(self.table)}",
                "bank": f"bank or throw {self.left} dice"}[self.phase]
        return f"{self.mine}-{self.theirs}, {self.turn_total} at risk, {what}"

    def __str__(self) -> str:
        if self.winner is not None:
            return f"{self.scores[0]},{self.scores[1]},won"
        mine = f"{self.mine}{'x' * self.farkles[self.mover]}"
        theirs = f"{self.theirs}{'x' * self.farkles[1 - self.mover]}"
        seat = f"@{self.mover}" if self.mover else ""
        if self.throwing and self.turn_total == 0 and self.left == DICE:
            return f"{mine},{theirs}{seat}"
        dice = f"={format_dice(self.table)}" if self.table else f"{self.left}{'+' if self.throwing else ''}"
        return f"{mine},{theirs},{self.turn_total},{dice}{seat}"


_SCORE = r"(-?[0-9]{1,6})(x*)"
_TURN = r"([0-9]{1,6})\s*,\s*(=\s*[1-6]{1,6}|[1-6]\+?)"  # turn total, and the table or the dice left
_STATE = re.compile(rf"^\s*{_SCORE}\s*,\s*{_SCORE}\s*(?:,\s*(?:{_TURN}|(won)))?\s*(?:@\s*([0-9]))?\s*$")


def start_state(game: FarkleGame) -> FarkleState:
    return FarkleState(game)


def parse_state(game: FarkleGame, text: str) -> FarkleState:
    """A state from its text (see the module's docstring)."""
    m = _STATE.match(text) if isinstance(text, str) else None
    if not m:
        raise InputError(f"a {game.name} position is MINE,THEIRS[,TURN_TOTAL,DICE] (e.g. 1500,2300,350,=1556 or "
                         f"1500,2300,500,3), not {text!r}")
    mine, fx_mine, theirs, fx_theirs, total_text, dice_text, won, seat_text = m.groups()
    scores_seen = (int(mine), int(theirs))
    farkles_seen = (len(fx_mine), len(fx_theirs))
    seat = int(seat_text or 0)
    if seat not in (0, 1):
        raise InputError(f"{game.name} is played by two: @0 or @1, not @{seat}")
    if won:
        winners = [s for s, score in enumerate(scores_seen) if score >= game.goal]
        if len(winners) != 1 or any(farkles_seen) or seat_text:
            raise InputError(f"a finished game is written S0,S1,won: one score at or past {game.goal}")
        return FarkleState(game, scores_seen, (0, 0), winners[0], 0, DICE, (), False, winners[0])
    for score, fx in zip(scores_seen, farkles_seen):
        if not game.floor <= score < game.goal:
            raise InputError(f"scores are from {game.floor} (the floor) to {game.goal - game.unit} while the game "
                             f"goes on, not {score}")
        if score % game.unit:
            raise InputError(f"scores are multiples of {game.unit}, not {score}")
        if fx >= game.farkle_limit:
            raise InputError(f"{game.farkle_limit} Farkles in a row cost the penalty and start the count again: "
                             f"at most {game.farkle_limit - 1} x after a score")
    scores = scores_seen if seat == 0 else (scores_seen[1], scores_seen[0])
    farkles = farkles_seen if seat == 0 else (farkles_seen[1], farkles_seen[0])
    if total_text is None:
        return FarkleState(game, scores, farkles, seat)
    total = int(total_text)
    if total % game.unit:
        raise InputError(f"the turn total is a multiple of {game.unit}, not {total}")
    if total >= game.wins_from(scores_seen[0]):
        raise InputError(f"with {total} at risk the player has reached the goal ({game.goal}): the game is over")
    if dice_text.startswith("="):
        table = game.parse_dice(dice_text[1:].strip())
        state = FarkleState(game, scores, farkles, seat, total, len(table), table, False)
        if not takes(game, table):
            raise InputError(f"{format_dice(table)} has nothing to set aside: a Farkle ends the turn at once")
        return state
    left = int(dice_text.rstrip("+"))
    if total == 0 and not (left == DICE and dice_text.endswith("+")):
        raise InputError("nothing is at risk only at the start of a turn: write MINE,THEIRS")
    return FarkleState(game, scores, farkles, seat, total, left, (), dice_text.endswith("+"))
