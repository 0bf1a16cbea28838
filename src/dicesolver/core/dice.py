"""Dice as multisets: every roll and every keep of N dice with F faces, and how they connect.

A *roll* is the sorted multiset of all N dice; a *keep* is a sorted multiset of 0..N of them. Keeps are
numbered by size, then lexicographically, so the rolls are exactly the last ``n_rolls`` keeps, in roll
order. That layout lets the turn kernel work in place on one (keeps x lanes) buffer:

* the value of a keep is the mean over one more die:  K(k) = mean_f K(k + f)   (sizes N-1 down to 0);
* the best keep inside a keep is  B(k) = max(K(k), max_{f in k} B(k - f))   (sizes 0 up to N),
  so B of a roll is the best thing to keep from it, found in about 2.5 steps per keep instead of
  enumerating every sub-multiset of every roll.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np

from .arrays import DiceGraph, frozen
from .errors import InputError
from .numbers import is_digits

Dice = tuple[int, ...]

MIN_DICE, MAX_DICE = 1, 8
MIN_FACES, MAX_FACES = 2, 20


def _multisets(n: int, faces: int) -> list[Dice]:
    return list(itertools.combinations_with_replacement(range(1, faces + 1), n))


@dataclass(frozen=True)
class DiceSpace:
    """All rolls and keeps of ``n_dice`` dice with ``faces`` faces (numbered 1..faces)."""

    n_dice: int
    faces: int
    _keep_index: dict[Dice, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not (MIN_DICE <= self.n_dice <= MAX_DICE):
            raise InputError(f"number of dice must be {MIN_DICE}..{MAX_DICE}, not {self.n_dice}")
        if not (MIN_FACES <= self.faces <= MAX_FACES):
            raise InputError(f"number of faces must be {MIN_FACES}..{MAX_FACES}, not {self.faces}")
        object.__setattr__(self, "_keep_index", {k: i for i, k in enumerate(self.keeps)})

    # -- enumeration -------------------------------------------------------------------------------
    @cached_property
    def keeps(self) -> list[Dice]:
        return [k for size in range(self.n_dice + 1) for k in _multisets(size, self.faces)]

    @cached_property
    def rolls(self) -> list[Dice]:
        return self.keeps[self.roll_offset :]

    @property
    def n_keeps(self) -> int:
        return len(self.keeps)

    @property
    def n_rolls(self) -> int:
        return math.comb(self.n_dice + self.faces - 1, self.n_dice)

    @property
    def roll_offset(self) -> int:
        """Index of the first full-size keep: keep ``roll_offset + r`` is roll ``r``."""
        return len(self.keeps) - self.n_rolls

    def keep_index(self, keep: Dice) -> int:
        return self._keep_index[tuple(sorted(keep))]

    def roll_index(self, roll: Dice) -> int:
        roll = tuple(sorted(roll))
        if len(roll) != self.n_dice:
            raise InputError(f"a roll has {self.n_dice} dice, not {len(roll)}")
        return self._keep_index[roll] - self.roll_offset

    # -- probabilities -----------------------------------------------------------------------------
    @cached_property
    def roll_probabilities(self) -> np.ndarray:
        """Probability of each roll when all dice are thrown."""
        return np.array([multiset_probability(r, self.faces) for r in self.rolls])

    @cached_property
    def roll_weights(self) -> np.ndarray:
        """Integer weights: number of ordered outcomes of each roll (they sum to faces**n_dice)."""
        return np.array([multiset_permutations(r) for r in self.rolls], dtype=np.int64)

    def outcomes(self, keep: Dice) -> list[tuple[Dice, float]]:
        """Each roll reachable by keeping ``keep`` and throwing the rest, with its probability (a list shared
        by every call with this keep: not to be changed)."""
        keep = tuple(sorted(keep))
        known = self.__dict__.setdefault("_outcomes", {})
        if keep not in known:
            thrown = self.n_dice - len(keep)
            known[keep] = [(tuple(sorted(keep + extra)), multiset_probability(extra, self.faces))
                           for extra in _multisets(thrown, self.faces)]
        return known[keep]

    # -- structure for the kernels -----------------------------------------------------------------
    @cached_property
    def keep_add(self) -> np.ndarray:
        """keep_add[k, f-1] = index of keep k plus one die showing f (-1 for full keeps)."""
        table = np.full((self.n_keeps, self.faces), -1, dtype=np.int32)
        for i, k in enumerate(self.keeps):
            if len(k) < self.n_dice:
                for f in range(1, self.faces + 1):
                    table[i, f - 1] = self._keep_index[tuple(sorted(k + (f,)))]
        return table

    @cached_property
    def keep_sub(self) -> tuple[np.ndarray, np.ndarray]:
        """CSR lists: for keep k, the keeps with one die of each distinct face of k removed."""
        ptr = np.zeros(self.n_keeps + 1, dtype=np.int32)
        idx: list[int] = []
        for i, k in enumerate(self.keeps):
            for f in sorted(set(k)):
                rest = list(k)
                rest.remove(f)
                idx.append(self._keep_index[tuple(rest)])
            ptr[i + 1] = len(idx)
        return ptr, np.array(idx, dtype=np.int32)

    @cached_property
    def keep_sizes(self) -> np.ndarray:
        return np.array([len(k) for k in self.keeps], dtype=np.int64)

    @cached_property
    def roll_faces(self) -> np.ndarray:
        """roll_faces[r] = the sorted faces of roll r."""
        return np.array(self.rolls, dtype=np.int64).reshape(self.n_rolls, self.n_dice)

    @cached_property
    def keep_counts(self) -> np.ndarray:
        """keep_counts[k, f-1] = number of dice showing f in keep k."""
        sizes = self.keep_sizes
        faces = np.fromiter((f for k in self.keeps for f in k), dtype=np.int64, count=int(sizes.sum()))
        table = np.zeros((self.n_keeps, self.faces), dtype=np.int32)
        np.add.at(table, (np.repeat(np.arange(self.n_keeps), sizes), faces - 1), 1)
        return table

    @cached_property
    def roll_sub_keeps(self) -> tuple[np.ndarray, np.ndarray]:
        """CSR lists: for roll r, the indices of its distinct keeps, in increasing keep index.

        Built as arrays, a level a die (a one-shot answer builds it in every process): from each roll, its keeps
        one die smaller (``keep_sub``), made distinct, down to keeping nothing."""
        sub_ptr, sub_idx = (a.astype(np.int64) for a in self.keep_sub)
        roll = np.arange(self.n_rolls, dtype=np.int64)
        keep = roll + self.roll_offset
        pairs = [roll * self.n_keeps + keep]  # (roll, keep) as one number, to sort and make distinct
        for _ in range(self.n_dice):
            fan = sub_ptr[keep + 1] - sub_ptr[keep]
            first = np.repeat(sub_ptr[keep] - (np.cumsum(fan) - fan), fan)
            smaller = sub_idx[first + np.arange(int(fan.sum()))]
            level = np.unique(np.repeat(roll, fan) * self.n_keeps + smaller)
            roll, keep = np.divmod(level, self.n_keeps)
            pairs.append(level)
        pair = np.sort(np.concatenate(pairs))
        ptr = np.zeros(self.n_rolls + 1, dtype=np.int64)
        np.cumsum(np.bincount(pair // self.n_keeps, minlength=self.n_rolls), out=ptr[1:])
        return ptr, pair % self.n_keeps

    @cached_property
    def graph(self) -> DiceGraph:
        """The arrays above as one argument for the kernels, read-only (one type for numba: see ``frozen``)."""
        sub_ptr, sub_idx = self.keep_sub
        roll_sub_ptr, roll_sub_idx = self.roll_sub_keeps
        return DiceGraph(frozen(self.keep_add), frozen(sub_ptr), frozen(sub_idx), self.roll_offset,
                         frozen(self.roll_probabilities), frozen(roll_sub_ptr), frozen(roll_sub_idx),
                         frozen(self.roll_faces), frozen(self.keep_sizes))

    @cached_property
    def counts(self) -> np.ndarray:
        """counts[r, f-1] = number of dice showing f in roll r."""
        return self.keep_counts[self.roll_offset:]

    def sub_keeps(self, roll: Dice) -> list[Dice]:
        """Every distinct keep (sub-multiset) of a roll, from keeping nothing to keeping all."""
        return list(_sub_keeps(tuple(roll)))

    # -- text forms --------------------------------------------------------------------------------
    def format(self, dice: Dice) -> str:
        return format_dice(dice, self.faces)

    def parse_roll(self, text: str) -> Dice:
        dice = parse_dice(text, self.faces)
        if len(dice) != self.n_dice:
            raise InputError(f"a roll needs {self.n_dice} dice, got {len(dice)} in {text!r}")
        return dice

    def parse_keep(self, text: str, roll: Dice | None = None) -> Dice:
        """Parse a keep; with ``roll`` given, check that the kept dice are among the rolled ones."""
        dice = parse_dice(text, self.faces, allow_empty=True)
        if len(dice) > self.n_dice:
            raise InputError(f"cannot keep {len(dice)} dice: there are only {self.n_dice}")
        if roll is not None and not is_sub_multiset(dice, roll):
            raise InputError(
                f"cannot keep {format_dice(dice, self.faces)} from {format_dice(roll, self.faces)}"
            )
        return dice


@lru_cache(maxsize=8192)
def _sub_keeps(roll: Dice) -> tuple[Dice, ...]:
    """``DiceSpace.sub_keeps``, worked out once per roll: every decision with throws left lists them (a review
    asks for them at every decision of a game)."""
    faces = sorted(set(roll))
    options = [range(roll.count(f) + 1) for f in faces]
    keeps = [tuple(f for f, c in zip(faces, choice) for _ in range(c)) for choice in itertools.product(*options)]
    return tuple(sorted(keeps, key=lambda k: (len(k), k)))


def sub_keeps(roll: Dice) -> tuple[Dice, ...]:
    """Every distinct keep (sub-multiset) of a roll, from keeping nothing to keeping all (made once per roll)."""
    return _sub_keeps(tuple(roll))


def is_sub_multiset(small: Dice, big: Dice) -> bool:
    rest = list(big)
    for d in small:
        if d not in rest:
            return False
        rest.remove(d)
    return True


def multiset_permutations(dice: Dice) -> int:
    result = math.factorial(len(dice))
    for f in set(dice):
        result //= math.factorial(dice.count(f))
    return result


def multiset_probability(dice: Dice, faces: int) -> float:
    return multiset_permutations(dice) / faces ** len(dice)


def format_dice(dice: Dice, faces: int) -> str:
    """Canonical text: sorted digits ("11345"); with more than 9 faces, dash-separated ("2-10-12")."""
    return _dice_text(tuple(dice), faces)


@lru_cache(maxsize=16384)  # a game has a few hundred rolls and keeps; every position's text writes some
def _dice_text(dice: Dice, faces: int) -> str:
    dice = tuple(sorted(dice))
    if not dice:
        return "-"
    if faces <= 9:
        return "".join(str(d) for d in dice)
    return "-".join(str(d) for d in dice)


def parse_dice(text: str, faces: int, allow_empty: bool = False) -> Dice:
    """Forgiving dice parser: "11345", "5 3 1 4 1", "1-1-3-4-5", "1,1,3"; "-" or "" is no dice."""
    cleaned = text.strip()
    if cleaned in ("", "-", "none", "nothing"):
        if allow_empty:
            return ()
        raise InputError("no dice given")
    separated = any(sep in cleaned for sep in " ,-/")
    if separated:
        tokens = [t for t in cleaned.replace(",", " ").replace("-", " ").replace("/", " ").split() if t]
    else:
        tokens = list(cleaned) if faces <= 9 else [cleaned]
    dice = []
    for token in tokens:
        if not is_digits(token) or len(token) > 3:
            raise InputError(f"{token[:20]!r} is not a die in {text[:60]!r} (dice are numbers 1..{faces})")
        value = int(token)
        if not 1 <= value <= faces:
            raise InputError(f"{value} is not a face of a {faces}-sided die (in {text!r})")
        dice.append(value)
    return tuple(sorted(dice))


@lru_cache(maxsize=None)
def dice_space(n_dice: int, faces: int) -> DiceSpace:
    """Shared, cached dice spaces (building 6d6 structure takes a few milliseconds)."""
    return DiceSpace(n_dice, faces)


def seeded_dice(seed: int, key: tuple[int, ...], count: int, faces: int) -> Dice:
    """``count`` dice for one throw, fixed by (seed, key): the same seed and key always give the same
    dice, so a resumed game continues with the dice it would have had."""
    rng = np.random.default_rng([seed & 0xFFFFFFFF, *key])
    return tuple(int(d) for d in rng.integers(1, faces + 1, size=count))
