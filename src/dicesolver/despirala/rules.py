"""Despirala as data: six dice, fourteen combinations, goods, and the move language.

Each of the 14 turns: gain 5 goods, throw all six dice for free, then either Reroll (1 good; normal play
only) or pick an unused combination. Collect f scores f per f collected, with Continue (1 good, rethrow
the non-f dice) / Stop. Any other combination is picked with its arguments and must then be completed:
the missing faces are rethrown (plus the two extra dice of Four of a kind) at 1 good a throw, matching
dice kept; out of goods first, it scores 0 and every good is lost. Final score = points + goods left.
Misere play minimises the final score and forbids the whole-roll Reroll.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import ClassVar

from ..core.display import ShownGame
from ..core.errors import GameDefinitionError, InputError
from ..core.numbers import is_digits, parse_int

N_DICE = 6
FACES = 6
TURNS = 14
MAX_PLAYERS = 6
GOODS_PER_TURN = 5
MAX_GOODS = GOODS_PER_TURN * TURNS

Throw = tuple[int, ...]  # sorted faces


@dataclass(frozen=True)
class Combination:
    index: int
    name: str  # as typed in the move language
    n_args: int  # arguments chosen at pick time
    extra_dice: int = 0  # dice rethrown with the missing ones (Four of a kind: 2)

    @property
    def is_collect(self) -> bool:
        return self.name.startswith("Collect")

    def arguments(self) -> list[tuple[int, ...]]:
        if self.is_collect or self.n_args == 0:
            return [()]
        return list(itertools.combinations(range(1, FACES + 1), self.n_args))

    def target(self, args: tuple[int, ...]) -> tuple[Throw, int]:
        """The faces the combination needs (sorted) and its points."""
        name = self.name
        if name == "Three pairs":
            return tuple(sorted(args * 2)), 2 * sum(args)
        if name == "Two triples":
            return tuple(sorted(args * 3)), 3 * sum(args)
        if name == "Four of a kind":
            return (args[0],) * 4, 40
        if name == "Six of a kind":
            return (args[0],) * 6, 60
        fixed = {"Kamerun": ((4, 5, 5, 6, 6, 6), 45), "Straight": ((1, 2, 3, 4, 5, 6), 50),
                 "General": ((6,) * 6, 70), "Despirala": ((1, 1, 1, 1, 1, 6), 80)}
        return fixed[name]

    def collect_face(self) -> int:
        return int(self.name.split()[-1]) if self.is_collect else 0


COLLECT_NAMES = ["Collect 1", "Collect 2", "Collect 3", "Collect 4", "Collect 5", "Collect 6"]
COMBINATIONS: tuple[Combination, ...] = tuple(
    [Combination(i, n, 0) for i, n in enumerate(COLLECT_NAMES)]
    + [Combination(6, "Three pairs", 3), Combination(7, "Two triples", 2), Combination(8, "Four of a kind", 1, 2),
       Combination(9, "Kamerun", 0), Combination(10, "Straight", 0), Combination(11, "Six of a kind", 1),
       Combination(12, "General", 0), Combination(13, "Despirala", 0)])
ALL_FREE = (1 << len(COMBINATIONS)) - 1

# Each combination and move in one sentence, as a player at the table asks "what is Kamerun?" (docs/RULES.md)
COMBINATION_WORDS = {
    **{f"Collect {f}": f"keep every {f} thrown, {f} points each: Continue (1 good) throws the other dice again, "
                       "Stop banks what is kept" for f in range(1, 7)},
    "Three pairs": "three pairs X X Y Y Z Z: 2 × (X + Y + Z) points",
    "Two triples": "two triples X X X Y Y Y: 3 × (X + Y) points",
    "Four of a kind": "four of a kind: 40 points, the other two dice free",
    "Kamerun": "4 5 5 6 6 6: 45 points",
    "Straight": "1 2 3 4 5 6: 50 points",
    "Six of a kind": "six of a kind: 60 points",
    "General": "six 6s: 70 points",
    "Despirala": "five 1s and a 6 (1 1 1 1 1 6): 80 points",
}
MOVE_WORDS = ("Reroll: throw all six dice again for 1 good, before picking a combination. A combination picked "
              "must be completed: the missing dice are thrown again at 1 good a throw, matches kept; out of goods "
              "first, it scores 0 and every good is lost.")


def missing(target: Throw, throw: Throw) -> Throw:
    """The target's faces that the throw does not show (multiset difference), sorted."""
    left = sorted(target)
    for face in throw:  # six dice at most: a list is ten times faster than two Counters
        if face in left:
            left.remove(face)
    return tuple(left)


def format_throw(throw) -> str:
    return "".join(str(d) for d in sorted(throw))


def parse_throw(text: str, count: int | None = N_DICE) -> Throw:
    """``"113456"`` (spaces and commas allowed) into sorted faces; ``count`` dice exactly, when given."""
    cleaned = "".join(str(text).replace(",", " ").split())
    if not is_digits(cleaned) and cleaned not in ("", "-"):
        raise InputError(f"dice are written as their faces 1-6, like 113456; not {text!r}")
    faces = tuple(sorted(int(c) for c in cleaned if c != "-"))
    if any(not 1 <= f <= FACES for f in faces):
        raise InputError(f"a die shows 1 to 6, not {text!r}")
    if count is not None and len(faces) != count:
        raise InputError(f"type {count} dice, not {len(faces)}")
    return faces


@dataclass(frozen=True, repr=False)
class DespiralaGame(ShownGame):
    """Despirala, played normal (maximise the final score) or misere (minimise it; no Reroll)."""

    mode: str = "normal"
    name: str = "despirala"
    title: str = "Despirala"
    players: int = 1
    family: ClassVar[str] = "despirala"

    @property
    def canonical(self) -> str:
        return "despirala" if self.mode == "normal" else "despirala(misere)"

    @property
    def n_players(self) -> int:
        return self.players

    def with_players(self, n: int) -> DespiralaGame:
        if not 1 <= n <= MAX_PLAYERS:
            raise InputError(f"Despirala is played by 1 to {MAX_PLAYERS} players, not {n}")
        return replace(self, players=n)

    def start(self):
        from .state import start_state

        return start_state(self.players, self)

    def parse_state(self, text: str):
        from .notation import parse_state

        return parse_state(self, text)

    def describe(self) -> list[str]:
        lines = [f"{self.title} ({self.mode} play): 6 dice, 14 combinations, 14 turns; final score = points + goods left.",
                 "Each turn: gain 5 goods, throw all six dice for free, then Reroll (1 good) or pick an unused combination.",
                 "Collect f (f = 1..6): f points per f collected; Continue (1 good) rethrows the other dice, Stop banks.",
                 "Three pairs X Y Z: 2(X+Y+Z); Two triples X Y: 3(X+Y); Four of a kind X: 40 (two extra dice);",
                 "Kamerun 455666: 45; Straight 123456: 50; Six of a kind X: 60; General 666666: 70; Despirala 111116: 80.",
                 "A picked combination must be completed: the missing dice are rethrown at 1 good a throw, matches kept;",
                 "out of goods first, it scores 0 and every good is lost."]
        if self.mode == "misere":
            lines.append("Misere: the lowest final score is best, and the whole-roll Reroll is not allowed.")
        return lines


def make_despirala(choices: dict[str, str]) -> DespiralaGame:
    modes = []
    for key, value in choices.items():
        if key in ("misere", "normal") and value == "on":
            modes.append(key)
        elif key in ("play", "mode") and value.lower() in ("normal", "misere"):
            modes.append(value.lower())
        else:
            raise GameDefinitionError(f"despirala takes 'misere' (or play=normal|misere), not {key}={value}")
    if len(modes) > 1:
        raise GameDefinitionError(f"despirala is played one way: {' and '.join(modes)} were both given")
    return DespiralaGame(modes[0] if modes else "normal")


# -- the move language -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Move:
    kind: str  # "pick", "reroll", "continue", "stop", "list"
    combination: int = -1
    args: tuple[int, ...] = ()

    def text(self) -> str:
        if self.kind != "pick":
            return {"reroll": "Reroll", "continue": "Continue", "stop": "Stop", "list": "List"}[self.kind]
        combo = COMBINATIONS[self.combination]
        return " ".join([combo.name] + [str(a) for a in self.args])

    @property
    def label(self) -> str:
        return self.text()

    def __str__(self) -> str:
        return self.text()


_WORDS = {"reroll": "reroll", "continue": "continue", "continue collecting": "continue", "stop": "stop",
          "stop collecting": "stop", "list": "list", "options": "list", "list options": "list"}
_NAMES = {re.sub(r"\s+", " ", c.name.lower()): c for c in COMBINATIONS if not c.is_collect}


def parse_move(text: str) -> Move:
    """One move in the seed's language (case-insensitive): ``Collect 3``, ``Three pairs 3 5 6``,
    ``Two triples 3 5``, ``Four of a kind 4``, ``Six of a kind 2``, ``Kamerun``, ``Straight``, ``General``,
    ``Despirala``, ``Reroll``, ``Continue [collecting]``, ``Stop [collecting]``, ``List [options]``/``Options``."""
    words = str(text).strip().lower().split()
    if not words:
        raise InputError("type a move (List shows the legal ones)")
    joined = " ".join(words)
    if joined in _WORDS:
        return Move(_WORDS[joined])
    names = [w for w in words if not re.fullmatch(r"-?[0-9]+", w)]
    numbers = [w for w in words if re.fullmatch(r"-?[0-9]+", w)]
    if words[: len(names)] != names:
        raise InputError(f"cannot read {text!r}: the name comes first, then its numbers")
    name = " ".join(names)
    args = tuple(parse_int(n, "a move's number") for n in numbers)
    if name == "collect":
        if len(args) != 1 or not 1 <= args[0] <= FACES:
            raise InputError("Collect takes one face from 1 to 6, e.g. Collect 3")
        return Move("pick", args[0] - 1)
    combo = _NAMES.get(name)
    if combo is None:
        raise InputError(f"unknown move {text!r} (List shows the legal ones)")
    if len(args) != combo.n_args:
        raise InputError(f"{combo.name} takes {combo.n_args or 'no'} number{'s' if combo.n_args != 1 else ''}, "
                         f"not {len(args)}")
    if any(not 1 <= a <= FACES for a in args):
        raise InputError(f"{combo.name}: faces are 1 to 6")
    if len(set(args)) != len(args):
        raise InputError(f"{combo.name} needs different faces")
    return Move("pick", combo.index, tuple(sorted(args)))


# -- rolls of six dice ---------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def six_dice_throws() -> tuple[tuple[Throw, ...], tuple[float, ...]]:
    """The 462 distinct throws of six dice and their probabilities."""
    counts = Counter(tuple(sorted(t)) for t in itertools.product(range(1, FACES + 1), repeat=N_DICE))
    throws = tuple(sorted(counts))
    total = FACES ** N_DICE
    return throws, tuple(counts[t] / total for t in throws)


# -- positions -----------------------------------------------------------------------------------------------

_NOT_LETTERS = re.compile(r"[^a-z0-9]")


@lru_cache(maxsize=1)
def _combinations_by_key() -> dict[str, Combination]:
    """Each combination by its name in lower case without spaces (the first of any two that would share one)."""
    keys: dict[str, Combination] = {}
    for c in COMBINATIONS:
        keys.setdefault(_NOT_LETTERS.sub("", c.name.lower()), c)
    return keys


def combination_by_name(text: str) -> Combination:
    """``Collect 3``, ``collect3``, ``three pairs``, ``Straight`` ... (case and spaces ignored)."""
    found = _combinations_by_key().get(_NOT_LETTERS.sub("", str(text).lower()))
    if found is None:
        raise InputError(f"unknown combination {text!r} (e.g. Collect 3, Three pairs, Four of a kind, Kamerun)")
    return found


@dataclass(frozen=True)
class DecisionPoint:
    """A moment of choice: the free combinations, the goods held now, and the six dice showing."""

    free: int
    goods: int
    dice: Throw

    def text(self) -> str:
        used = [c.name for c in COMBINATIONS if not self.free & (1 << c.index)]
        return f"{','.join(used) or 'none'};{self.goods};{format_throw(self.dice)}"


def parse_decision_point(text: str) -> DecisionPoint:
    """``USED;GOODS;DICE``: the combinations already used (comma-separated names, or ``none``), the goods held
    now (this turn's 5 included, rerolls paid), and the six dice showing. ``none;5;113456`` is a first throw."""
    parts = str(text).split(";")
    if len(parts) != 3:
        raise InputError(f"a Despirala position is USED;GOODS;DICE, e.g. 'none;5;113456' or 'Straight,Collect 3;7;223456', "
                         f"not {text!r}")
    used_text, goods_text, dice_text = (p.strip() for p in parts)
    free = ALL_FREE
    if used_text.lower() not in ("", "-", "none"):
        for name in used_text.split(","):
            c = combination_by_name(name)
            if not free & (1 << c.index):
                raise InputError(f"{c.name} is listed twice")
            free &= ~(1 << c.index)
    if free == 0:
        raise InputError("every combination is used: the game is over")
    goods = parse_int(goods_text, "goods")
    turns_played = TURNS - bin(free).count("1")
    most = GOODS_PER_TURN * (turns_played + 1)
    if not 0 <= goods <= most:
        raise InputError(f"after {turns_played} turns a player holds 0 to {most} goods, not {goods}")
    return DecisionPoint(free, goods, parse_throw(dice_text))
