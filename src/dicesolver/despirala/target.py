"""Despirala played for a score: the best chance of finishing with at least T points (at most T in misere
play), or of beating a known score S (a tie counting half), from any position; in normal play, any goal on
the final score (``core.aims.FinalScoreGoal``: a blind field, a percentile), as the best expected utility,
from the same table with the goal's own row for a finished game (``kernels.target``).

One table per mode and aim holds every turn start's best chance for every need n = 0..N of further points
(``kernels.target``); the options inside a turn are priced here in Python from it, in the kernel's order
of operations, so that advice never loads numba. Built level by level (number of free combinations)
upwards from the last turn, stored as float32 and cached like every table.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import numpy as np

from ..core import tables
from ..core.aims import AT_LEAST, MAX_NEED
from ..core.errors import InputError, TableError
from .arrays import Targets
from .future import most_goods
from .rules import ALL_FREE, COMBINATIONS, GOODS_PER_TURN, Move
from .solver import H, binomial_table, check_mode, completion_odds, kernel_throws, throw_moves

KIND = "despirala-target"


@lru_cache(maxsize=None)
def layout(N: int, within: int = ALL_FREE) -> tuple[np.ndarray, np.ndarray, int]:
    """(offset, rows, cells): mask's block starts at offset[mask] and has rows[mask] + 1 rows of N + 1
    needs (rows[mask]: the most goods a turn of that set can start with). Only the sets inside ``within``
    have blocks (a part of the table, for the games that start there)."""
    offset = np.zeros(ALL_FREE + 1, dtype=np.int64)
    rows = np.array([most_goods(m) for m in range(ALL_FREE + 1)], dtype=np.int64)
    cells = 0
    for mask in range(1, ALL_FREE + 1):
        if not mask & ~within:
            offset[mask] = cells
            cells += (int(rows[mask]) + 1) * (N + 1)
    return offset, rows, cells


def target_row(mode: str, N: int, tie: float = AT_LEAST) -> np.ndarray:
    """A target's row: a finished game still needing m points is worth ``tie`` at m = 0, then nothing (normal
    play: fewer points than needed) or everything (misere: fewer than the most allowed)."""
    row = np.full(N + 1, 0.0 if mode == "normal" else 1.0)
    row[0] = tie
    return row


def row_tail(row: np.ndarray) -> tuple[int, float]:
    """(reach, beyond): from ``reach`` (1 to N) on, every cell of ``row`` is ``beyond`` (the kernel's prune)."""
    N = len(row) - 1
    reach = N
    while reach > 1 and row[reach - 1] == row[N]:
        reach -= 1
    return reach, float(row[N])


@dataclass
class TargetTable:
    """The best chances of a mode's games for needs 0..N (see the module docstring)."""

    mode: str
    V: np.ndarray  # float32, see layout()
    N: int
    row: np.ndarray  # a finished game still needing m points is worth row[m] (``target_row`` for a target)
    directory: str = ""
    within: int = ALL_FREE

    @property
    def normal(self) -> bool:
        return self.mode == "normal"

    @property
    def tie(self) -> float:
        """What finishing with the need exactly is worth (a target's 1, a score to beat's 1/2)."""
        return float(self.row[0])

    def _below(self) -> float:
        return 1.0 if self.normal else 0.0

    @property
    def arrays(self) -> Targets:
        """The table as the kernels read it."""
        offset, rows, _ = layout(self.N, self.within)
        return Targets(np.asarray(self.V), offset, rows, self.N, np.ascontiguousarray(self.row, dtype=np.float64))

    def _check_need(self, need: int) -> None:
        if need > self.N:
            raise InputError(f"this table answers needs up to {self.N} points")

    def start(self, free: int, goods: int, need: int) -> float:
        """The best chance at the start of a turn (``goods``: this turn's 5 included)."""
        if need < 0:
            return self._below()
        self._check_need(need)
        if free == 0:
            return self._terminal(goods, need)
        if free & ~self.within:
            raise InputError("this target table is an endgame's: it does not hold these combinations")
        offset, rows, _ = layout(self.N, self.within)
        h = min(goods, int(rows[free]))
        return float(self.V[int(offset[free]) + h * (self.N + 1) + need])

    def _terminal(self, goods: int, need: int) -> float:
        return self._below() if goods > need else float(self.row[need - goods])

    def end(self, free: int, goods: int, need: int) -> float:
        """The best chance when a turn ends leaving ``free`` and ``goods``, needing ``need``."""
        if need < 0:
            return self._below()
        if free == 0:
            return self._terminal(goods, need)
        return self.start(free, min(goods + GOODS_PER_TURN, H - 1), need)

    def curve(self) -> np.ndarray:
        """The best chance over a whole game, for every need 0..N."""
        if self.within != ALL_FREE:
            raise InputError("this target table is an endgame's: it has no whole game")
        offset, _, _ = layout(self.N, self.within)
        o = int(offset[ALL_FREE]) + GOODS_PER_TURN * (self.N + 1)
        return np.asarray(self.V[o: o + self.N + 1], dtype=np.float64)

    # -- inside a turn (the kernel's sums, in its order) ---------------------------------------------------
    def collect_chances(self, free_after: int, face: int, have: int, goods: int, need: int) -> dict[str, float]:
        """Collecting ``face`` holding ``have`` at ``goods``: the chance of Stop, and of Continue where it
        is allowed (goods left and a die that is not ``face``)."""
        self._check_need(need)
        binom = binomial_table()
        # col[c, g]: the best chance holding c at g goods; Continue keeps the need, Stop takes face * c off it
        col = np.empty((7, goods + 1))
        for g in range(goods + 1):
            for c in range(7):
                stop = self.end(free_after, g, need - face * c)
                if g > 0 and c < 6:
                    go = 0.0
                    for j in range(6 - c + 1):
                        go += binom[6 - c, j] * col[c + j, g - 1]
                    stop = max(stop, go)
                col[c, g] = stop
        out = {"stop": self.end(free_after, goods, need - face * have)}
        if goods > 0 and have < 6:
            out["continue"] = float(sum(binom[6 - have, j] * col[have + j, goods - 1] for j in range(6 - have + 1)))
        return out

    def pick_chance(self, after: int, shape: int, goods: int, points: int, need: int) -> float:
        """Picking a combination that misses ``shape`` and scores ``points`` at ``goods``, leaving ``after``."""
        self._check_need(need)
        q, qcum = completion_odds()
        ok = qcum[shape, goods]
        lost = (1.0 - ok) * self.end(after, 0, need)
        if need - points < 0:
            return float(ok * self._below() + lost)
        acc = 0.0
        for t in range(goods + 1):
            if q[shape, t] != 0.0:
                acc += q[shape, t] * self.end(after, goods - t, need - points)
        return float(acc + lost)

    def turn_options(self, free: int, goods: int, throw: tuple[int, ...], need: int) -> list[tuple[Move, float]]:
        """Every legal move after a throw and its best chance, best first."""
        out: list[tuple[Move, float]] = []
        for move, after, shape_or_have, points_or_face in throw_moves(free, goods, throw, self.normal):
            if move.kind == "reroll":
                chance = self.start(free, goods - 1, need)
            elif COMBINATIONS[move.combination].is_collect:
                chance = max(self.collect_chances(after, points_or_face, shape_or_have, goods, need).values())
            else:
                chance = self.pick_chance(after, shape_or_have, goods, points_or_face, need)
            out.append((move, chance))
        out.sort(key=lambda mv: -mv[1])
        return out


def build(mode: str, N: int, progress: Callable[[int, int], None] | None = None, tie: float = AT_LEAST,
          within: int = ALL_FREE, row: np.ndarray | None = None) -> TargetTable:
    """The table (or the part of it for the sets of free combinations inside ``within``); ``row``: a goal's
    worth of a finished game for every need (a target's by default)."""
    from ..core.jit import Stripes
    from .kernels.target import target_level

    mode = check_mode(mode)
    if not 1 <= N <= MAX_NEED:
        raise InputError(f"a target is between 1 and {MAX_NEED} points")
    row = target_row(mode, N, tie) if row is None else np.ascontiguousarray(row, dtype=np.float64)
    reach, beyond = row_tail(row)
    offset, rows, cells = layout(N, within)
    targets = Targets(np.zeros(cells, dtype=np.float32), offset, rows, N, row)
    masks = np.array([m for m in range(1, ALL_FREE + 1) if not m & ~within], dtype=np.int64)
    sizes = np.array([int(m).bit_count() for m in masks])
    levels = [masks[sizes == k] for k in range(len(COMBINATIONS) + 1)]
    work = [len(level) * (most_goods((1 << k) - 1) + 1) for k, level in enumerate(levels)]
    done = 0
    with Stripes() as stripes:  # one pool of threads for every level
        for k in range(1, len(COMBINATIONS) + 1):
            if len(levels[k]):
                stripes.each(target_level, targets, levels[k], most_goods((1 << k) - 1), reach, beyond,
                             kernel_throws(mode))
            done += work[k]
            if progress:
                progress(done, sum(work))
    return TargetTable(mode, targets.V, N, row, within=within)


def fingerprint(mode: str, N: int, tie: float, within: int, row: np.ndarray | None = None) -> str:
    """A target's tables keep their key; a goal's row (rounded to 1e-12) is part of its own."""
    part = "" if within == ALL_FREE else f":{within}"
    goal = "" if row is None else ":row=" + ",".join(f"{x:.12f}" for x in row)
    return hashlib.sha256(f"{KIND}-v1:{mode}:{H}:{N}:{tie}{part}{goal}".encode()).hexdigest()


def load_or_build(mode: str, N: int, progress: Callable[[int, int], None] | None = None,
                  on_problem: Callable[[str], None] | None = None, tie: float = AT_LEAST,
                  within: int = ALL_FREE, row: np.ndarray | None = None, goal: str = ""
                  ) -> tuple[TargetTable, bool, float]:
    """(table, built now, seconds); ``within``: only the sets inside it (an endgame's own table); ``row``: a
    goal's worth of a finished game for every need, ``goal`` its words for the table's name."""
    mode = check_mode(mode)
    if not 0 < within <= ALL_FREE:
        raise InputError("a target table needs a combination left to play")
    started = time.perf_counter()
    aim = goal or ("targets" if tie == AT_LEAST else "scores to beat")
    part = "" if within == ALL_FREE else f", combinations {within:#x}"
    if row is not None:
        row = np.asarray(row, dtype=np.float64)
        if row.shape != (N + 1,) or not np.all((row >= 0) & (row <= 1)):
            raise InputError(f"a goal's row is {N + 1} worths from 0 to 1")
    key = tables.TableKey(KIND, f"despirala({mode}) {aim} to {N}{part}", fingerprint(mode, N, tie, within, row))

    def make():
        table = build(mode, N, progress, tie, within, row)
        # the manifest's value: the best chance of the table's largest need from the start (a part's last cell)
        value = float(table.curve()[N]) if within == ALL_FREE else float(table.V[-1])
        return {"V": table.V}, value, {"mode": mode, "needs": N, "tie": tie, "within": within}

    def check(loaded: tables.LoadedTable) -> None:
        V = loaded.arrays.get("V")
        if V is None or V.dtype != np.float32 or V.shape != (layout(N, within)[2],):
            raise TableError(f"the Despirala {mode} target table has the wrong shape")

    loaded, built = tables.load_or_build(key, make, check, on_problem=on_problem)
    table = TargetTable(mode, loaded.arrays["V"], N, target_row(mode, N, tie) if row is None else row,
                        str(loaded.directory), within)
    return table, built, time.perf_counter() - started
