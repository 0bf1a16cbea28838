"""Exact evaluation of one two-player strategy against another (no simulation).

For strategies whose decisions are functions of the position (Malina, Maximus, Joe, whatever, greedy;
random by averaging over its choices), two value tables are filled together by backward induction over
the same positions as the equity solve: one for positions where A is to move, one where B is. Each
reads the other's values one box later. The result is the exact expected result (+1/0/-1) of A
against B from the start, going first and going second.

The evaluated values are float32, like the stored table (twice the SIMD width): Malina vs Maximus comes
out +0.03355 / +0.04528 against +0.03356 / +0.04531 with float64 values. Malina and Mindful Maximus
decide by their own values in float64, as the players do.
"""

from __future__ import annotations

import math
import shutil
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from ...core import tables
from ...core.errors import InputError, TableError
from ...core.jit import shared_stripes
from ...core.arrays import frozen
from .table import DuelModel, DuelPosition, DuelTable, cells_of
from .kernels.eval import DUEL_MINDFUL, DUEL_OPTIMAL, DUEL_RANDOM, DUEL_TABLE, EvaluatedStrategy, duel_eval_level
from .kernels.solve import TablePart
from ..mindful.kernels.mindful import Futures
from ..bots.kernels import set_policy_tables
from ..bots.players import make_player
from ..bots.joe import joe_tables
from ..game.rules import ScorecardGame

IN_MEMORY_CELLS = 200_000_000  # bigger games keep their two value tables on disk (two-person Generala: 87 M)

DUEL_STRATEGIES = {
    "malina": "the optimal two-player strategy (maximises the expected result, from the exact equity table)",
    "maximus": "maximises his own expected score (the solitaire solution), ignoring the opponent",
    "mindful": "Mindful Maximus: the best equity assuming both players play Maximus from here on",
    "joe": "the human-like closest-pattern player of the Generala essay",
    "whatever": "never re-rolls and scores the most points",
    "greedy": "keeps for, and scores, the most points this turn",
    "random": "never re-rolls and scores a random open category",
}


@dataclass(frozen=True)
class DuelStrategy:
    name: str
    kind: int
    keep_table: np.ndarray
    cat_table: np.ndarray
    future: Futures | None = None  # Mindful Maximus: the future-score distributions ...
    set_index: np.ndarray | None = None  # ... and each used set's first state in them

    def evaluated(self) -> EvaluatedStrategy:
        """The strategy as the evaluation kernel reads it (stand-ins of the same types for what it lacks)."""
        future = self.future or Futures(*(frozen(np.zeros(1, dtype=t))
                                          for t in (np.float32, np.int64, np.int32, np.int32)))
        set_index = self.set_index if self.set_index is not None else frozen(np.zeros(1, dtype=np.int64))
        return EvaluatedStrategy(self.kind, self.keep_table, self.cat_table, future, set_index)


def duel_strategy(name: str, game: ScorecardGame) -> DuelStrategy:
    key = name.strip().lower()
    n_sets, rolls = 1 << game.n_categories, game.rolls
    dummy_keep = np.zeros((1, 1, 1), dtype=np.int64)
    dummy_cat = np.zeros((1, 1), dtype=np.int64)
    if key == "malina":
        return DuelStrategy(key, DUEL_OPTIMAL, dummy_keep, dummy_cat)
    if key == "random":
        return DuelStrategy(key, DUEL_RANDOM, dummy_keep, dummy_cat)
    if key == "mindful":
        from ..mindful.future import load_or_build

        table, _, _ = load_or_build(game)
        return DuelStrategy(key, DUEL_MINDFUL, dummy_keep, dummy_cat, table.arrays, frozen(table.model.offset[:-1]))
    if key == "joe":
        keep, cat = joe_tables(game)
        return DuelStrategy(key, DUEL_TABLE, keep, cat)
    if key in ("maximus", "whatever", "greedy"):
        player = make_player("optimal" if key == "maximus" else key, game)
        dice = game.dice
        keep = np.zeros((n_sets, max(rolls - 1, 1), dice.n_rolls), dtype=np.int64)
        cat = np.zeros((n_sets, dice.n_rolls), dtype=np.int64)
        set_policy_tables(player.mode, player.hand_values, *player.kernel_args(), dice.graph, rolls, keep, cat)
        return DuelStrategy(key, DUEL_TABLE, keep, cat)
    raise InputError(f"unknown two-player strategy {name!r} (strategies: {', '.join(DUEL_STRATEGIES)})")


@dataclass(frozen=True)
class DuelComparison:
    game: str
    a: str
    b: str
    first: float  # A's expected result moving first
    second: float  # A's expected result moving second
    average: float  # with the first move decided by a coin
    elo_first: float
    elo_second: float
    elo: float
    seconds: float


def elo(equity: float) -> float:
    """Elo difference equivalent to an expected result: p = 0.5 + equity/2, Elo = 400 log10(p / (1 - p))."""
    p = 0.5 + equity / 2
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return 400 * math.log10(p / (1 - p))


def compare_exact(optimal: DuelTable | None, game: ScorecardGame, a: str, b: str,
                  progress: Callable[[int, int], None] | None = None, filled: int = 0) -> DuelComparison:
    """A against B exactly (``optimal`` is the equity table, needed when either is Malina).

    ``filled``: both cards start with these boxes filled and the scores level (an endgame of the real
    game); ``optimal`` may then be that sub-game's table (``solve_subgame(game, (filled, filled))``).

    The sweep goes level by level like the solve, each level reading only the one above it; the two
    value tables of a big game (two-person Yacht: 6.2 GB each) are files on disk, of which only those two
    levels are mapped at a time (out of core, like the solve)."""
    start = time.perf_counter()
    sa, sb = duel_strategy(a, game), duel_strategy(b, game)
    model = optimal.model if optimal is not None else DuelModel(game, None if filled == 0 else (filled, filled))
    if DUEL_OPTIMAL in (sa.kind, sb.kind) and optimal is None:
        raise InputError("Malina needs the solved equity table")
    opt_values = optimal.values if optimal is not None else np.zeros(1, dtype=np.float32)  # read by Malina only
    with _value_tables(model.size) as (ev_a, ev_b):
        above = None
        for i, seg in enumerate(model.segments):
            lo, hi = seg.first_pair, seg.end_pair
            up = above or seg  # the top level reads nothing above it
            opt_up = frozen(cells_of(opt_values, up.start, up.stop))
            for mover, ev_self, ev_other in ((sa, ev_a, ev_b), (sb, ev_b, ev_a)):
                out, other = cells_of(ev_self, seg.start, seg.stop, True), cells_of(ev_other, up.start, up.stop)
                shared_stripes().each(duel_eval_level, model.pa[lo:hi], model.pb[lo:hi],
                                      TablePart(np.asarray(out), seg.start), TablePart(frozen(other), up.start),
                                      TablePart(opt_up, up.start), model.layout, game.dice.graph, game.rolls,
                                      mover.evaluated())
                _release(out)
            above = seg
            if progress:
                progress(i + 1, len(model.segments))
        root = model.index(DuelPosition(filled, filled, 0))
        first = float(ev_a[root])
        second = -float(ev_b[root])
    average = (first + second) / 2
    return DuelComparison(game.canonical, sa.name, sb.name, first, second, average, elo(first), elo(second),
                          elo(average), time.perf_counter() - start)


@contextmanager
def _value_tables(cells: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Two float32 value tables: in memory when small, else sparse files in a scratch directory of the
    cache (removed afterwards), refused at once when the disk lacks the room."""
    if cells <= IN_MEMORY_CELLS:
        yield np.zeros(cells, dtype=np.float32), np.zeros(cells, dtype=np.float32)
        return
    scratch = tables.cache_dir() / "scratch"
    scratch.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(scratch).free
    if 8 * cells > free:
        raise TableError(f"not enough disk space to compare exactly: {8 * cells / 1e9:.1f} GB of value tables "
                         f"needed in {scratch}, which has {free / 1e9:.1f} GB free")
    with tempfile.TemporaryDirectory(dir=scratch) as where:
        arrays = []
        for name in ("a", "b"):
            path = Path(where) / f"{name}.f32"
            with open(path, "wb") as fh:
                fh.truncate(4 * cells)  # sparse: blocks are allocated as levels are written
            arrays.append(np.memmap(path, dtype=np.float32, mode="r+", shape=(cells,)))
        try:
            yield arrays[0], arrays[1]
        finally:
            del arrays


def _release(part: np.ndarray) -> None:
    if isinstance(part, np.memmap):
        part.flush()  # written back, so that its pages can be given back once unmapped
