"""One turn played to maximise a value given for each final roll: the turn widget on its own.

``turn_values`` runs the widget (numpy, turn.py: no numba to load for a one-turn table) on many value
columns at once; ``exact_turn_value`` does the same in exact rational arithmetic in pure Python (the slow
reference it is tested against).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np

from ...core.dice import DiceSpace, multiset_permutations
from . import widget as turn


def turn_values(dice: DiceSpace, rolls: int, final: np.ndarray) -> np.ndarray:
    """Turn-start value of each column of ``final`` (n_rolls x lanes), played to maximise it."""
    buf = np.empty((dice.n_keeps, final.shape[1]))
    buf[dice.roll_offset:] = final
    turn.run_stages(buf, dice, rolls)  # the empty keep thrown with every throw of the turn to come
    return buf[0].copy()


def exact_turn_value(dice: DiceSpace, rolls: int, final: list[Fraction]) -> Fraction:
    """The same as ``turn_values`` for one column, in exact rational arithmetic (pure Python)."""
    values = {roll: Fraction(v) for roll, v in zip(dice.rolls, final)}

    def keep_value(keep):
        return sum((p * values[roll] for roll, p in exact_outcomes(dice, keep)), Fraction(0))

    for _ in range(rolls - 1):
        keep_cache: dict = {}
        new_values: dict[tuple[int, ...], Fraction] = {}
        for roll in dice.rolls:
            for keep in dice.sub_keeps(roll):
                if keep not in keep_cache:
                    keep_cache[keep] = keep_value(keep)
            new_values[roll] = max(keep_cache[keep] for keep in dice.sub_keeps(roll))
        values = new_values
    return keep_value(())


def exact_outcomes(dice: DiceSpace, keep: tuple[int, ...]) -> list[tuple[tuple[int, ...], Fraction]]:
    """Each roll reachable by keeping ``keep`` and throwing the rest, with its exact probability."""
    thrown = dice.n_dice - len(keep)
    denominator = dice.faces**thrown
    return [
        (tuple(sorted(keep + extra)), Fraction(multiset_permutations(extra), denominator))
        for extra in itertools.combinations_with_replacement(range(1, dice.faces + 1), thrown)
    ]
