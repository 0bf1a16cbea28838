"""The turn widget for one position, in numpy: answers from a table on disk without loading numba.

The kernels (kernels/widget.py) run the widget for millions of positions; advice needs it for one
position (a few hundred lanes at most), where numpy over one keep size at a time is as quick as a kernel
call and avoids loading numba and the compiled kernels (most of a CLI answer's time).
Rows are the dice space's keeps, ordered by size, the last ``n_rolls`` of them the rolls (core/dice.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...core.dice import DiceSpace


@dataclass(frozen=True)
class KeepSteps:
    """The keeps of each size with their one-die-larger keeps (expectation) and their one-die-smaller
    keeps, padded with the keep itself (best keep inside)."""

    by_size: tuple[np.ndarray, ...]  # keep indices of size 0, 1, ...
    larger: tuple[np.ndarray, ...]  # (keeps of size s, faces): keep + one die of each face
    smaller: tuple[np.ndarray, ...]  # (keeps of size s, widest): keep minus one die of each distinct face


@lru_cache(maxsize=16)
def keep_steps(dice: DiceSpace) -> KeepSteps:
    sizes = np.array([len(k) for k in dice.keeps])
    ptr, idx = dice.keep_sub
    by_size, larger, smaller = [], [], []
    for s in range(dice.n_dice + 1):
        keeps = np.nonzero(sizes == s)[0]
        by_size.append(keeps)
        larger.append(dice.keep_add[keeps].astype(np.int64))
        widest = max([int(ptr[k + 1] - ptr[k]) for k in keeps] + [1])
        pad = np.repeat(keeps[:, None], widest, axis=1)
        for row, k in enumerate(keeps):
            subs = idx[ptr[k]:ptr[k + 1]]
            pad[row, :len(subs)] = subs
        smaller.append(pad)
    return KeepSteps(tuple(by_size), tuple(larger), tuple(smaller))


def expect_keeps(buf: np.ndarray, dice: DiceSpace) -> None:
    """Every keep smaller than a roll gets the mean over the next die's faces (in place, largest first)."""
    steps = keep_steps(dice)
    for s in range(dice.n_dice - 1, -1, -1):
        buf[steps.by_size[s]] = buf[steps.larger[s]].mean(axis=1)


def best_keeps(buf: np.ndarray, dice: DiceSpace) -> None:
    """Every keep gets the best of itself and the keeps inside it (in place, smallest first): afterwards a
    roll's row is the value of its best keep."""
    steps = keep_steps(dice)
    for s in range(1, dice.n_dice + 1):
        rows = steps.by_size[s]
        buf[rows] = np.maximum(buf[rows], buf[steps.smaller[s]].max(axis=1))


def run_stages(buf: np.ndarray, dice: DiceSpace, rerolls_left: int) -> None:
    """From final-roll values in the roll rows: the roll rows with ``rerolls_left`` throws to come, and
    (when any) the keep rows as thrown from there, as the kernels' within-turn widget leaves them."""
    for _ in range(max(rerolls_left - 1, 0)):
        expect_keeps(buf, dice)
        best_keeps(buf, dice)
    if rerolls_left > 0:
        expect_keeps(buf, dice)
