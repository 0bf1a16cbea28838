"""The exact distribution of a Despirala player's final score under the expected-score strategy, from
every turn start: what playing to win (``players.CompetitivePlayer``) weighs its options and the
opponents' chances with.

Rows are kept only for the goods a turn can hold (a turn with k combinations free comes after 14 - k
turns: at most 5 * (15 - k) goods); a position typed with more goods reads the last row, as the
expected-score table does. Built level by level (number of free combinations) upwards from the last
turn, in float64 sums stored as float32: 216 million cells, 0.86 GB, cached like every table.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import numpy as np

from ..core import tables
from ..core.errors import TableError
from .rules import ALL_FREE, COMBINATIONS, GOODS_PER_TURN, TURNS
from .arrays import Futures
from .solver import H, DespiralaTable, kernel_throws, max_points

KIND = "despirala-future"


def most_goods(free: int) -> int:
    """The most goods a turn with ``free`` combinations free can start with (this turn's 5 included)."""
    return min(GOODS_PER_TURN * (TURNS + 1 - free.bit_count()), H - 1)


@lru_cache(maxsize=None)
def layout(within: int = ALL_FREE) -> tuple[np.ndarray, np.ndarray, int]:
    """(offset, length, cells): mask's rows start at offset[mask], each length[mask] cells long (every
    points total its free combinations can still score plus the goods it can end with). Only the sets
    inside ``within`` have rows (a part of the table, for the games that start there)."""
    top = np.array([max_points(c.index) for c in COMBINATIONS])
    offset = np.zeros(ALL_FREE + 1, dtype=np.int64)
    length = np.zeros(ALL_FREE + 1, dtype=np.int64)
    cells = 0
    for mask in range(1, ALL_FREE + 1):
        if mask & ~within:
            continue
        length[mask] = sum(int(top[c]) for c in range(len(COMBINATIONS)) if mask >> c & 1) + GOODS_PER_TURN * TURNS + 1
        offset[mask] = cells
        cells += (most_goods(mask) + 1) * int(length[mask])
    return offset, length, cells


def build(solution: DespiralaTable, progress: Callable[[int, int], None] | None = None,
          within: int = ALL_FREE) -> FutureTable:
    """The table (or the part of it for the sets of free combinations inside ``within``)."""
    from ..core.jit import Stripes
    from .kernels.future import future_level

    mode = solution.mode
    W = np.ascontiguousarray(solution.W)
    offset, length, cells = layout(within)
    futures = Futures(np.zeros(cells, dtype=np.float32), offset, length, rows())
    masks = np.array([m for m in range(ALL_FREE + 1) if not m & ~within])
    sizes = np.array([int(m).bit_count() for m in masks])
    work = [float(length[masks[sizes == k]].sum() * (most_goods((1 << k) - 1) + 1))
            for k in range(len(COMBINATIONS) + 1)]
    done = 0.0
    with Stripes() as stripes:  # one pool of threads for every level
        for k in range(1, len(COMBINATIONS) + 1):
            level = masks[sizes == k]
            if not len(level):
                continue
            stripes.each(future_level, futures, level, most_goods((1 << k) - 1), solution.sign, solution.theta, W,
                         kernel_throws(mode))
            done += work[k]
            if progress:
                progress(int(done), int(sum(work)))
    return FutureTable(mode, futures.F, offset, length)


@dataclass
class FutureTable:
    """Distributions of the points still to come plus the final goods (see the module docstring)."""

    mode: str
    F: np.ndarray  # float32, ragged (see layout())
    offset: np.ndarray
    length: np.ndarray

    def start(self, free: int, goods: int) -> np.ndarray:
        """P(x) for a turn starting with ``free`` combinations and ``goods`` (this turn's 5 included)."""
        if free == 0:
            out = np.zeros(goods + 1)
            out[goods] = 1.0
            return out
        h = min(goods, most_goods(free))
        o = int(self.offset[free]) + h * int(self.length[free])
        return np.asarray(self.F[o:o + int(self.length[free])], dtype=np.float64)

    def after_turn(self, free: int, goods: int) -> np.ndarray:
        """P(x) when a turn ends leaving ``free`` and ``goods``: the final goods alone when nothing is
        free, else the next turn's distribution."""
        return self.start(free, goods if free == 0 else min(goods + GOODS_PER_TURN, H - 1))

    @property
    def nbytes(self) -> int:
        return int(self.F.nbytes)

    @property
    def arrays(self) -> Futures:
        """The table as the kernels read it."""
        return Futures(self.F, self.offset, self.length, rows())


@lru_cache(maxsize=1)
def rows() -> np.ndarray:
    """rows[mask]: the most goods a turn of that set of free combinations starts with (``most_goods``)."""
    return np.array([most_goods(m) for m in range(ALL_FREE + 1)], dtype=np.int64)


def fingerprint(mode: str, theta: float = 0.0) -> str:
    appetite = f":theta={theta!r}" if theta else ""
    return hashlib.sha256(f"{KIND}-v1:{mode}:{H}{appetite}".encode()).hexdigest()


def _check(solution: DespiralaTable):
    def check(loaded: tables.LoadedTable) -> None:
        F = loaded.arrays.get("F")
        if F is None or F.dtype != np.float32 or F.shape != (layout()[2],):
            raise TableError(f"the Despirala {solution.mode} distribution table has the wrong shape")
        p = FutureTable(solution.mode, F, *layout()[:2]).start(ALL_FREE, GOODS_PER_TURN)
        # the mean strategy's mean is its table's value; a risk appetite's table holds exp utilities
        if solution.theta:
            with np.errstate(over="ignore"):
                value = float(np.log(p @ np.exp(solution.theta * np.arange(len(p)))) / solution.theta)
        else:
            value = float(p @ np.arange(len(p)))
        if abs(value - solution.root_value) > 1e-3:
            raise TableError(f"the Despirala {solution.mode} distribution table does not match its game")
    return check


def load_or_build(solution: DespiralaTable, progress: Callable[[int, int], None] | None = None,
                  on_problem: Callable[[str], None] | None = None) -> FutureTable:
    appetite = f" theta={solution.theta:g}" if solution.theta else ""
    key = tables.TableKey(KIND, f"despirala({solution.mode}){appetite} distributions",
                          fingerprint(solution.mode, solution.theta))

    def make():
        started = time.perf_counter()
        table = build(solution, progress)
        p = table.start(ALL_FREE, GOODS_PER_TURN)
        return {"F": table.F}, float(p @ np.arange(len(p))), {"mode": solution.mode,
                                                          "seconds": round(time.perf_counter() - started, 2)}

    loaded, _ = tables.load_or_build(key, make, _check(solution), on_problem=on_problem)
    offset, length, _ = layout()
    return FutureTable(solution.mode, loaded.arrays["F"], offset, length)
