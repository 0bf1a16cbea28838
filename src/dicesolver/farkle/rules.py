"""Farkle games as data: what every set of dice scores, the goal, the Farkle penalty.

A turn: throw the dice (six at first); set aside at least one scoring die (any set of dice that all
score, counted at their best), then bank the turn total or throw the dice left. A throw with nothing to
set aside is a *Farkle*: the turn total is lost and the turn ends. Setting aside every die (*hot dice*)
gives all six back. Several Farkles in a row can cost banked points. Points are counted in units of 50
(every combination is a multiple of 50), so the kernels work with small integers.

A game is its scoring (``Scoring``) and its match rules (goal, penalty, floor, least bank); ``PRESETS``
writes out the three built-in games, whose rules and sources are in docs/RULES.md.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import ClassVar, NamedTuple

import numpy as np

from ..core.display import ShownGame
from ..core.errors import GameDefinitionError, InputError
from ..core.numbers import is_digits, parse_int

UNIT = 50  # every score is a multiple of 50 points
DICE = 6
FACES = 6
MAX_GOAL = 20_000  # points; the two-person table holds (goal - floor)**2 * 9 turn starts


@dataclass(frozen=True)
class Scoring:
    """What a set of dice set aside from one throw scores (in points)."""

    single: tuple[tuple[int, int], ...] = ((1, 100), (5, 50))  # faces that score alone
    triple: tuple[int, ...] = (1000, 200, 300, 400, 500, 600)  # three of a kind, by face
    kind_factor: tuple[int, ...] = (1, 2, 4, 8)  # 3, 4, 5, 6 of a kind: times the triple
    three_pairs: int = 750  # 0: not a combination
    four_and_pair: bool = False  # whether four of a kind and a pair count as three pairs
    straight: int = 1500  # 1-6; 0: not a combination
    short_straights: tuple[tuple[str, int], ...] = ()  # ("12345", 500), ("23456", 750): Kingdom Come
    six_dice_nothing: int = 0  # six dice thrown with no scoring die: these points and all six back (0: a Farkle)

    @cached_property
    def table(self) -> dict[tuple[int, ...], int]:
        """Every multiset of 1 to 6 dice (as counts of faces 1..6) that scores with all its dice: its best points."""
        best: dict[tuple[int, ...], int] = {}
        memo: dict[tuple[int, ...], int] = {}
        for n in range(1, DICE + 1):
            for dice in itertools.combinations_with_replacement(range(1, FACES + 1), n):
                counts = counts_of(dice)
                points = _best_partition(self, counts, memo)
                if points > 0:
                    best[counts] = points
        return best

    def combinations(self, counts: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        """The scoring combinations that fit in ``counts``: (the dice they use, points)."""
        found: list[tuple[tuple[int, ...], int]] = []
        n = sum(counts)

        def add(used: list[int], points: int) -> None:
            if points > 0 and all(u <= c for u, c in zip(used, counts)):
                found.append((tuple(used), points))

        for face, points in self.single:
            add([int(f == face) for f in range(1, FACES + 1)], points)
        for face in range(1, FACES + 1):
            for k, factor in zip(range(3, DICE + 1), self.kind_factor):
                add([k if f == face else 0 for f in range(1, FACES + 1)], self.triple[face - 1] * factor)
        if n == DICE:
            if self.straight and counts == (1,) * FACES:
                add(list(counts), self.straight)
            shape = sorted(c for c in counts if c)
            if self.three_pairs and (shape == [2, 2, 2] or (self.four_and_pair and shape == [2, 4])):
                add(list(counts), self.three_pairs)
        for run, points in self.short_straights:
            add([1 if str(f) in run else 0 for f in range(1, FACES + 1)], points)
        if n == DICE and self.six_dice_nothing and not found:  # not a die of the six scores
            add(list(counts), self.six_dice_nothing)
        return found


def _best_partition(scoring: Scoring, counts: tuple[int, ...], memo: dict) -> int:
    """The most a multiset scores using every die (0 when some die cannot score), trying each combination."""
    if not any(counts):
        return 0
    if counts in memo:
        return memo[counts]
    best = 0
    for used, points in scoring.combinations(counts):
        rest = tuple(c - u for c, u in zip(counts, used))
        tail = _best_partition(scoring, rest, memo)
        if tail > 0 or not any(rest):
            best = max(best, points + tail)
    memo[counts] = best
    return best


def counts_of(dice: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(dice.count(f) for f in range(1, FACES + 1))


@dataclass(frozen=True)
class Option:
    """One way to go on after a throw: set aside ``dice`` (counts of faces) for ``points``."""

    dice: tuple[int, ...]
    points: int

    @property
    def dice_sorted(self) -> tuple[int, ...]:
        return tuple(f for f in range(1, FACES + 1) for _ in range(self.dice[f - 1]))


def options(scoring: Scoring, roll: tuple[int, ...]) -> list[Option]:
    """Every legal set-aside of a throw (sorted faces): each sub-multiset whose every die scores."""
    counts = counts_of(roll)
    table = scoring.table
    found = []
    for used in itertools.product(*(range(c + 1) for c in counts)):
        points = table.get(used, 0)
        if points:
            found.append(Option(used, points))
    found.sort(key=lambda o: (sum(o.dice), o.dice_sorted))
    return found


def best_by_count(scoring: Scoring, roll: tuple[int, ...]) -> dict[int, int]:
    """For each number of dice set aside, the most points (the only set-aside worth considering: more turn
    points never hurt, since a higher banked score is never worse)."""
    best: dict[int, int] = {}
    for option in options(scoring, roll):
        k = sum(option.dice)
        best[k] = max(best.get(k, 0), option.points)
    return best


@dataclass(frozen=True)
class ThrowClasses:
    """Every throw of 1 to 6 dice summarised for the kernels (see ``farkle.kernels``): the classes of ``n``
    dice are ``class_start[n]:class_start[n + 1]``, each with its probability and its options (dice left
    after setting aside, 6 after hot dice; points in units)."""

    class_start: np.ndarray
    class_prob: np.ndarray
    option_start: np.ndarray
    option_left: np.ndarray
    option_units: np.ndarray
    p_farkle: np.ndarray  # by number of dice thrown

    def arrays(self) -> Throws:
        """The classes as the kernels read them."""
        return Throws(self.class_start, self.class_prob, self.option_start, self.option_left, self.option_units)


class Throws(NamedTuple):
    """``ThrowClasses`` as one argument of the kernels (``kernels.lend_throws`` lends it borrowed)."""

    class_start: np.ndarray  # int64 [n + 1]: the classes of n dice are class_start[n]:class_start[n + 1] ...
    class_prob: np.ndarray  # ... each with its probability ...
    option_start: np.ndarray  # ... and its options option_start[c]:option_start[c + 1] ...
    option_left: np.ndarray  # ... each leaving that many dice to throw (6 after hot dice) ...
    option_units: np.ndarray  # ... and adding that many units to the turn


class KernelRules(NamedTuple):
    """A game's match rules as the kernels read them, in units (``FarkleGame.kernel_rules``)."""

    goal: int
    floor: int
    limit: int  # Farkles in a row that cost the penalty
    penalty: int
    min_bank: int  # the least turn total that may be banked


def throw_classes(scoring: Scoring) -> ThrowClasses:
    class_start, class_prob, option_start, option_left, option_units = [0, 0], [], [0], [], []
    p_farkle = [0.0]
    for n in range(1, DICE + 1):
        weights: dict[tuple[tuple[int, int], ...], int] = {}
        for roll in itertools.combinations_with_replacement(range(1, FACES + 1), n):
            key = tuple(sorted(best_by_count(scoring, roll).items()))
            weights[key] = weights.get(key, 0) + _arrangements(roll)
        p_farkle.append(weights.pop((), 0) / FACES ** n)
        for key, weight in sorted(weights.items()):
            class_prob.append(weight / FACES ** n)
            for k, points in key:
                option_left.append(DICE if k == n else n - k)
                option_units.append(points // UNIT)
            option_start.append(len(option_left))
        class_start.append(len(class_prob))
    ints = [np.array(a, dtype=np.int64) for a in (class_start, option_start, option_left, option_units)]
    return ThrowClasses(ints[0], np.array(class_prob), ints[1], ints[2], ints[3], np.array(p_farkle))


def _arrangements(roll: tuple[int, ...]) -> int:
    """How many ordered throws show this multiset."""
    result = math.factorial(len(roll))
    for face in set(roll):
        result //= math.factorial(roll.count(face))
    return result


def format_dice(dice: tuple[int, ...]) -> str:
    return "".join(str(d) for d in dice)


@dataclass(frozen=True, repr=False)
class FarkleGame(ShownGame):
    """A Farkle game for two: its scoring and its match rules (points throughout)."""

    name: str
    title: str
    scoring: Scoring
    goal: int = 10_000  # the first to bank this many wins at once
    farkle_limit: int = 3  # this many Farkles in a row cost ``penalty`` (1 with no penalty)
    penalty: int = 500
    floor: int = -2_500  # banked scores never drop below it (Busche's bound on the game)
    min_bank: int = 0  # the least turn total that may be banked
    canonical: str = field(default="", compare=False)
    unit: ClassVar[int] = UNIT
    family: ClassVar[str] = "farkle"
    n_players: ClassVar[int] = 2

    # -- the game protocol -------------------------------------------------------------------------
    def with_players(self, n: int) -> FarkleGame:
        if n != 2:
            raise InputError(f"{self.name} is solved for two: you and one bot (one --vs), not {n} players")
        return self

    def start(self):
        from .state import start_state

        return start_state(self)

    def parse_state(self, text: str):
        from .state import parse_state

        return parse_state(self, text)

    @property
    def kernel_rules(self) -> KernelRules:
        return KernelRules(self.goal // UNIT, self.floor // UNIT, self.farkle_limit, self.penalty // UNIT,
                           self.min_bank // UNIT)

    def wins_from(self, mine: int) -> int:
        """The least turn total that wins from the banked score ``mine``: it reaches the goal and may be banked
        (with a least bank, reaching the goal with less at risk does not end the game)."""
        return max(self.goal - mine, self.min_bank)

    # -- the dice ---------------------------------------------------------------------------------
    def options(self, dice: tuple[int, ...]) -> list[Option]:
        return _options(self.scoring, tuple(sorted(dice)))

    def throw_odds(self, n: int) -> list[tuple[tuple[int, ...], float]]:
        """Every throw of ``n`` dice (sorted) with its probability."""
        return _throw_odds(n)

    def check_throw(self, dice: tuple[int, ...], n: int) -> tuple[int, ...]:
        if len(dice) != n or any(not 1 <= d <= FACES for d in dice):
            raise InputError(f"{n} dice are thrown now, each 1 to {FACES}: not {format_dice(dice)}")
        return tuple(sorted(dice))

    def parse_dice(self, text: str) -> tuple[int, ...]:
        cleaned = "".join(str(text).split()).replace(",", "")
        if not is_digits(cleaned) or not 1 <= len(cleaned) <= DICE or any(c not in "123456" for c in cleaned):
            raise InputError(f"dice are written as their faces, 1 to 6, like 155 (at most six); not {text!r}")
        return tuple(sorted(int(c) for c in cleaned))

    @cached_property
    def classes(self) -> ThrowClasses:
        return throw_classes(self.scoring)

    @property
    def fingerprint(self) -> str:
        scoring = {k: v for k, v in vars(self.scoring).items() if not k.startswith("_") and k != "table"}
        if not scoring["six_dice_nothing"]:  # a rule added later: the games without it keep their tables
            del scoring["six_dice_nothing"]
        data = {"kind": "farkle", "scoring": scoring, "goal": self.goal, "limit": self.farkle_limit,
                "penalty": self.penalty, "floor": self.floor, "min_bank": self.min_bank}
        return hashlib.sha256(json.dumps(data, sort_keys=True, default=list).encode()).hexdigest()

    def describe(self) -> list[str]:
        s = self.scoring
        singles = ", ".join(f"a {face}: {points}" for face, points in s.single)
        kinds = ", ".join(f"{k} of a kind: {f}x" for k, f in zip(range(3, DICE + 1), s.kind_factor))
        lines = [f"{self.title}: two players alternate turns; the first to bank {self.goal:,} points wins.",
                 "A turn: throw six dice, set aside at least one scoring die (every die set aside must score), "
                 "then bank the turn total or throw the dice left; setting aside all six (hot dice) gives all "
                 "six back.",
                 "A throw with nothing to score is a Farkle: the turn total is lost and the turn ends.",
                 f"Scoring, within one throw: {singles}; three of a kind: {s.triple[0]} for 1s, "
                 f"{s.triple[1]}-{s.triple[5]} for 2s-6s; {kinds} (times three of a kind)."]
        extra = []
        if s.straight:
            extra.append(f"a straight 1-6: {s.straight}")
        extra += [f"{run[0]}-{run[-1]}: {points}" for run, points in s.short_straights]
        if s.three_pairs:
            extra.append(f"three pairs: {s.three_pairs}" + (" (four of a kind and a pair count)" if s.four_and_pair
                                                            else ""))
        if s.six_dice_nothing:
            extra.append(f"six dice with nothing to score: {s.six_dice_nothing}, and all six back")
        if extra:
            lines.append("Also: " + "; ".join(extra) + ".")
        if self.penalty:
            lines.append(f"{self.farkle_limit} Farkles in a row cost {self.penalty} banked points "
                         f"(never below {self.floor:,}).")
        if self.min_bank:
            lines.append(f"A bank needs at least {self.min_bank} points at risk.")
        return lines


@lru_cache(maxsize=8192)
def _options(scoring: Scoring, dice: tuple[int, ...]) -> list[Option]:
    return options(scoring, dice)


@lru_cache(maxsize=None)
def _throw_odds(n: int) -> list[tuple[tuple[int, ...], float]]:
    rolls = list(itertools.combinations_with_replacement(range(1, FACES + 1), n))
    return [(r, _arrangements(r) / FACES ** n) for r in rolls]


FACEBOOK = Scoring()
PRESETS: dict[str, tuple[str, dict]] = {
    "farkle": ("Farkle (Facebook Farkle, as Busche solves it)", dict(scoring=FACEBOOK)),
    "zilch": ("Zilch", dict(scoring=Scoring(three_pairs=1500, four_and_pair=True, six_dice_nothing=500),
                            min_bank=300)),
    "kcd": ("Farkle of Kingdom Come: Deliverance",
            dict(scoring=Scoring(three_pairs=0, short_straights=(("12345", 500), ("23456", 750))), goal=4_000,
                 farkle_limit=1, penalty=0, floor=0)),
}


def make_farkle_game(name: str, choices: dict[str, str]) -> FarkleGame:
    """A built-in game with ``goal=N`` and ``floor=N`` (points, multiples of 50)."""
    title, rules = PRESETS[name]
    default = FarkleGame(name, title, **rules)
    for key in choices:
        if key not in ("goal", "floor"):
            raise GameDefinitionError(f"{name} has no parameter {key!r} (parameters: floor, goal)")

    def number(key: str, default_value: int, low: int, high: int) -> int:
        text = choices.get(key)
        if text is None:
            return default_value
        try:
            value = parse_int(text, key)
        except InputError:
            raise GameDefinitionError(f"{name}: {key} must be a whole number, not {text!r}") from None
        if not low <= value <= high or value % UNIT:
            raise GameDefinitionError(f"{name}: {key} must be a multiple of {UNIT} from {low} to {high}, not {value}")
        return value

    goal = number("goal", default.goal, 500, MAX_GOAL)
    floor = number("floor", default.floor, -MAX_GOAL, 0)
    if not default.penalty and floor != default.floor:
        raise GameDefinitionError(f"{name} has no Farkle penalty: scores never fall, so it has no floor to set")
    params = {k: v for k, v in (("floor", floor), ("goal", goal)) if v != getattr(default, k)}
    canonical = name + ("(" + ",".join(f"{k}={v}" for k, v in params.items()) + ")" if params else "")
    return FarkleGame(name, title, default.scoring, goal, default.farkle_limit, default.penalty, floor,
                      default.min_bank, canonical=canonical)
