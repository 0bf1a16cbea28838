"""Push-your-luck games (Pig, Skunk, Big Pig) as data.

Two players alternate turns; in a turn the player rolls as often as they like, adding to a turn total
at risk, and holds to bank it. Every throw of the dice has one of three effects, which is all a solver
needs to know: add points to the turn total (the turn goes on), *bust* (the turn total is lost and the
turn ends), or *reset* (the banked score drops to 0 too and the turn ends). A game is the goal and the
probability of each effect.

House rule made explicit: a turn starts with a throw (holding a turn total of 0 would only pass the
dice; ``tests/test_pushluck.py`` checks that it is never better than throwing in any solved game).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar, NamedTuple

import numpy as np

from ..core.display import ShownGame
from ..core.errors import GameDefinitionError, InputError


class Outcomes(NamedTuple):
    """What one throw does, as the kernels read it (``solver.game_arrays``): adds adds[e] to the turn total with
    probability probs[e], busts (the turn total lost) with p_bust, resets (the banked score lost too) with p_reset."""

    adds: np.ndarray  # int64
    probs: np.ndarray  # float64
    p_bust: float
    p_reset: float
from ..core.numbers import is_digits, parse_int

MAX_GOAL = 200  # the solver stores goal**3 float64 values: 64 MB at 200
MAX_FACES = 20

ADD, BUST, RESET = 0, 1, 2
EFFECT_NAMES = {ADD: "add", BUST: "bust", RESET: "reset"}


@dataclass(frozen=True, repr=False)
class PushGame(ShownGame):
    """A push-your-luck game: the goal, the dice, and what every throw does."""

    name: str  # pig, skunk or big-pig
    title: str
    goal: int
    n_dice: int
    faces: int
    canonical: str = field(compare=False)
    family: ClassVar[str] = "pushluck"
    n_players: ClassVar[int] = 2

    # -- the game protocol -------------------------------------------------------------------------
    def with_players(self, n: int) -> PushGame:
        if n != 2:
            raise InputError(f"{self.name} is a game for two: you and one bot (one --vs), not {n} players")
        return self

    def start(self):
        from .state import start_state

        return start_state(self)

    def parse_state(self, text: str):
        from .state import parse_state

        return parse_state(self, text)

    # -- the dice ---------------------------------------------------------------------------------
    def effect(self, dice: tuple[int, ...]) -> tuple[int, int]:
        """What a throw does: (ADD, points), (BUST, 0) or (RESET, 0)."""
        if len(dice) != self.n_dice or any(not 1 <= d <= self.faces for d in dice):
            raise InputError(f"{self.name} throws {self.n_dice} di{'e' if self.n_dice == 1 else 'ce'} "
                             f"with faces 1-{self.faces}, not {format_throw(dice)}")
        ones = dice.count(1)
        if self.name == "pig":
            return (BUST, 0) if ones else (ADD, dice[0])
        a, b = dice
        if self.name == "skunk":
            if ones == 2:
                return RESET, 0
            return (BUST, 0) if ones else (ADD, a + b)
        # big-pig
        if ones == 2:
            return ADD, 25
        if ones == 1:
            return BUST, 0
        return ADD, (2 * (a + b) if a == b else a + b)

    def throws(self) -> list[tuple[int, ...]]:
        """Every ordered throw (equally likely)."""
        return list(itertools.product(range(1, self.faces + 1), repeat=self.n_dice))

    def outcomes(self) -> tuple[Fraction, Fraction, dict[int, Fraction]]:
        """Exact probabilities: bust, reset, and points added."""
        throws = self.throws()
        p = Fraction(1, len(throws))
        bust = reset = Fraction(0)
        adds: dict[int, Fraction] = {}
        for dice in throws:
            kind, points = self.effect(dice)
            if kind == BUST:
                bust += p
            elif kind == RESET:
                reset += p
            else:
                adds[points] = adds.get(points, Fraction(0)) + p
        return bust, reset, dict(sorted(adds.items()))

    @property
    def fingerprint(self) -> str:
        bust, reset, adds = self.outcomes()
        data = {"kind": "pushluck", "goal": self.goal, "bust": str(bust), "reset": str(reset),
                "adds": {str(k): str(v) for k, v in adds.items()}}
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()

    def describe(self) -> list[str]:
        bust, reset, adds = self.outcomes()
        dice = f"{self.n_dice} di{'e' if self.n_dice == 1 else 'ce'} with faces 1-{self.faces}"
        lines = [f"{self.title}: two players alternate turns; the first to bank {self.goal} points wins.",
                 f"A turn: throw {dice} as often as you like, adding to a turn total at risk, and hold to bank it.",
                 "A turn starts with a throw."]
        if self.name == "pig":
            lines.append("A 1 loses the turn total and ends the turn; any other face adds its value.")
        elif self.name == "skunk":
            lines.append("A single 1 loses the turn total and ends the turn; double 1s also reset your banked "
                         "score to 0; otherwise add the sum.")
        else:
            lines.append("A single 1 loses the turn total and ends the turn; double 1s add 25 and you go on; "
                         "other doubles add twice their sum; otherwise add the sum.")
        lines.append(f"Per throw: bust {float(bust):.4f}" + (f", reset {float(reset):.4f}" if reset else "")
                     + f", expected points when not busting {float(sum(k * v for k, v in adds.items()) / (1 - bust - reset)):.2f}.")
        return lines


PUSH_GAMES = {
    "pig": ("Pig", 1, 6),
    "skunk": ("Skunk (Two-Dice Pig)", 2, 6),
    "big-pig": ("Big Pig", 2, 6),
}


def format_throw(dice) -> str:
    return "".join(str(d) for d in dice)


def parse_throw(text: str, game: PushGame) -> tuple[int, ...]:
    """``"34"`` or ``"3 4"`` into a throw of ``game`` (checked)."""
    cleaned = "".join(str(text).split()).replace(",", "")
    if not is_digits(cleaned) or len(cleaned) > 4:
        raise InputError(f"a throw is written as its faces, like {'5' if game.n_dice == 1 else '34'}; not {text!r}")
    one_number = game.faces >= 10 and game.n_dice == 1
    dice = (int(cleaned),) if one_number else tuple(int(c) for c in cleaned)
    game.effect(dice)  # validates
    return tuple(sorted(dice)) if game.n_dice > 1 else dice


def make_push_game(name: str, choices: dict[str, str]) -> PushGame:
    """A push-your-luck game from its name and parameters (``goal=N``; ``faces=N`` for pig)."""
    title, n_dice, default_faces = PUSH_GAMES[name]
    allowed = {"goal"} | ({"faces"} if name == "pig" else set())
    for key in choices:
        if key not in allowed:
            raise GameDefinitionError(f"{name} has no parameter {key!r} (parameters: {', '.join(sorted(allowed))})")

    def number(key: str, default: int, low: int, high: int) -> int:
        text = choices.get(key)
        if text is None:
            return default
        try:
            value = parse_int(text, key)
        except InputError:
            raise GameDefinitionError(f"{name}: {key} must be a whole number, not {text!r}") from None
        if not low <= value <= high:
            raise GameDefinitionError(f"{name}: {key} must be between {low} and {high}, not {value}")
        return value

    goal = number("goal", 100, 2, MAX_GOAL)
    faces = number("faces", default_faces, 2, MAX_FACES)
    params = {k: v for k, v in (("faces", faces), ("goal", goal)) if v != {"goal": 100, "faces": default_faces}[k]}
    canonical = name + ("(" + ",".join(f"{k}={v}" for k, v in params.items()) + ")" if params else "")
    return PushGame(name, title, goal, n_dice, faces, canonical=canonical)


_POSITION = re.compile(r"^\s*([0-9]{1,4})\s*[,/ ]\s*([0-9]{1,4})\s*(?:[,/ ]\s*([0-9]{1,4}))?\s*$")


def parse_push_position(text: str, game: PushGame) -> tuple[int, int, int]:
    """``MINE,THEIRS[,TURN_TOTAL]`` (or with slashes) for the player to move."""
    m = _POSITION.match(str(text))
    if not m:
        raise InputError(f"a {game.name} position is MINE,THEIRS,TURN_TOTAL (e.g. 0,87,32), not {text!r}")
    mine, theirs, total = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
    if not (mine < game.goal and theirs < game.goal):
        raise InputError(f"scores must be below the goal ({game.goal})")
    return mine, theirs, total
