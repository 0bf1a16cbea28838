"""Future-score distribution tables: for every turn-start state of a scorecard game, the whole
distribution of the points still to come when the rest of the game is played to maximise the expected
score (the "Maximus" strategy), upper and extra-yacht bonuses included.

Built backwards one level (number of used boxes) at a time from the solved expected-score table: a
state's distribution is the mixture, over the distinct outcomes of one optimally played turn, of the
next state's distribution shifted by the outcome's points. Stored ragged in float32 (sums in float64):
state ``i`` (the solitaire table's index) has P(future points = start[i] + x) = data[offset[i] + x] for
x < length[i]. Tails lighter than ``TAIL`` on either side are cut (Yahtzee's extra bonuses would
otherwise stretch every distribution to hundreds of practically impossible points).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cached_property
from typing import Callable

import numpy as np

from ...core import tables
from ...core.arrays import frozen
from ...core.errors import TableError
from ...core.family import TableSize
from ...core.jit import Stripes
from ..solitaire.distribution import turn_outcome_batch
from .kernels.future import copy_segments, future_bounds, future_convolve
from .kernels.mindful import Futures
from ..game.rules import ScorecardGame
from ..solitaire.table import SolitaireModel, SolitaireTable, TurnState, load_or_solve

TAIL = 1e-12  # probability mass cut from each tail of each distribution
CHUNK_STATES = 20_000  # states per batch of turn outcomes (bounds memory)
TABLE_KIND = "future-distribution"

ProgressCallback = Callable[[int, int], None]


@dataclass
class FutureTable:
    """Per-state future-score distributions (see the module docstring)."""

    game: ScorecardGame
    model: SolitaireModel
    data: np.ndarray  # float32
    offset: np.ndarray  # int64, one per state
    start: np.ndarray  # int32
    length: np.ndarray  # int32

    def distribution(self, state: TurnState) -> tuple[int, np.ndarray]:
        """(lowest future score, probabilities from there on) of a turn-start state."""
        if state.used == self.model.full:
            return 0, np.ones(1)
        i = self.model.index(state)
        o = int(self.offset[i])
        return int(self.start[i]), np.asarray(self.data[o:o + int(self.length[i])], dtype=np.float64)

    def mean(self, state: TurnState) -> float:
        lo, p = self.distribution(state)
        return float(np.dot(np.arange(lo, lo + len(p)), p))

    @cached_property
    def arrays(self) -> Futures:
        """The distributions as the kernels read them, read-only (one type for numba: ``core.arrays.frozen``)."""
        return Futures(frozen(self.data), frozen(self.offset), frozen(self.start), frozen(self.length))

    @property
    def nbytes(self) -> int:
        return int(self.data.nbytes + self.offset.nbytes + self.start.nbytes + self.length.nbytes)


def build(solution: SolitaireTable, progress: ProgressCallback | None = None) -> dict[str, np.ndarray]:
    """The arrays of a future-distribution table (see ``FutureTable``)."""
    model = solution.model
    game = solution.game
    values = np.ascontiguousarray(solution.values)
    levels = model.levels()
    n = game.n_categories
    offset = np.zeros(model.size, dtype=np.int64)
    start = np.zeros(model.size, dtype=np.int32)
    length = np.zeros(model.size, dtype=np.int32)
    # the last level (every box used): nothing more to score
    full = model.full
    rows = np.arange(model.offset[full], model.offset[full + 1])
    length[rows] = 1
    offset[rows] = np.arange(len(rows))
    level_data = [np.ones(len(rows), dtype=np.float32)]
    work = [float((model.n_bonus_lanes[lv] * model.n_groups[lv]).sum()) for lv in levels]
    total, done = sum(work[:n]), 0.0
    with Stripes() as stripes:  # one pool of threads for every level's kernels
        for k in range(n - 1, -1, -1):
            src = level_data[-1]
            us = levels[k]
            lanes = (model.n_bonus_lanes[us] * model.n_groups[us]).astype(np.int64)
            pieces = []
            base = 0
            first = 0
            while first < len(us):
                stop = first + 1
                while stop < len(us) and lanes[first:stop + 1].sum() <= CHUNK_STATES:
                    stop += 1
                chunk = us[first:stop]
                slots = np.concatenate([[0], np.cumsum(lanes[first:stop])[:-1]]).astype(np.int64)
                n_states = int(lanes[first:stop].sum())
                outcomes = turn_outcome_batch(model, values, chunk, slots, n_states, stripes)
                above = Futures(src, offset, start, length)
                lo = np.empty(n_states, dtype=np.int64)
                width = np.empty(n_states, dtype=np.int64)
                stripes.each(future_bounds, n_states, outcomes, above, lo, width)
                scratch_off = np.concatenate([[0], np.cumsum(width)[:-1]]).astype(np.int64)
                scratch = np.empty(int(width.sum()), dtype=np.float32)
                keep_from = np.empty(n_states, dtype=np.int64)
                keep_len = np.empty(n_states, dtype=np.int64)
                stripes.each(future_convolve, n_states, outcomes, above, lo, width, scratch_off, scratch, TAIL,
                             keep_from, keep_len)
                dst_off = np.concatenate([[0], np.cumsum(keep_len)[:-1]]).astype(np.int64)
                piece = np.empty(int(keep_len.sum()), dtype=np.float32)
                stripes.each(copy_segments, scratch, scratch_off, keep_len, piece, dst_off)
                rows = np.concatenate([np.arange(model.offset[u], model.offset[u] + lanes[first + i])
                                       for i, u in enumerate(chunk)])
                offset[rows] = base + dst_off
                start[rows] = lo + keep_from
                length[rows] = keep_len
                base += len(piece)
                pieces.append(piece)
                first = stop
            # offsets of this level are relative to its own array until the end
            level_data.append(np.concatenate(pieces) if pieces else np.empty(0, dtype=np.float32))
            done += work[k]
            if progress:
                progress(int(done), int(total))
    # lay the levels out in one array: level n first (as built), then n-1, ... 0
    level_base = np.cumsum([0] + [len(d) for d in level_data[:-1]])
    level_of_set = np.zeros(model.n_sets, dtype=np.int64)
    for k, lv in enumerate(levels):
        level_of_set[lv] = n - k  # position of level k in level_data
    set_of_row = np.repeat(np.arange(model.n_sets), np.diff(model.offset))
    offset += level_base[level_of_set[set_of_row]]
    offset[length == 0] = 0
    return {"data": np.concatenate(level_data), "offset": offset, "start": start, "length": length}


def table_key(game: ScorecardGame) -> tables.TableKey:
    return tables.TableKey(TABLE_KIND, game.canonical, game.fingerprint)


def future_size(model: SolitaireModel) -> TableSize:
    """At most the table's bytes: every state's distribution over all the points its open boxes and the
    set bonuses could still hold (the cut tails make the real table smaller: Yatzy's bound is 1.2 GiB)."""
    game = model.game
    us = np.arange(1 << game.n_categories, dtype=np.int64)
    reach = np.full(us.size, 1 + int(model.rules.bonus_points.sum()), dtype=np.int64)
    for c, most in enumerate(game.max_scores.tolist()):
        reach += (((us >> c) & 1) == 0) * most
    return TableSize(int((reach * model.n_bonus_lanes * model.n_groups).sum()) * 4)


def load_or_build(
    game: ScorecardGame,
    progress: ProgressCallback | None = None,
    rebuild: bool = False,
    on_problem: Callable[[str], None] | None = None,
    solution: SolitaireTable | None = None,
) -> tuple[FutureTable, bool, float]:
    """The future-distribution table of a game, from the cache when sound, else built (and the
    expected-score table solved first if needed). Returns (table, built now, seconds)."""
    if solution is None:
        solution, _ = load_or_solve(game, on_problem=on_problem)
    model = solution.model
    root = model.index(TurnState(0))
    t0 = time.perf_counter()

    def make():
        from ..game.size import check_table

        check_table(game, "playing to win against others (Mindful Maximus: every turn start's distribution of "
                    "points to come)", future_size(model))
        arrays = build(solution, progress)
        o, ln = int(arrays["offset"][root]), int(arrays["length"][root])
        p = arrays["data"][o:o + ln].astype(np.float64)
        mean = float(np.dot(np.arange(ln) + int(arrays["start"][root]), p))
        return arrays, mean, {"build_seconds": time.perf_counter() - t0, "tail": TAIL}

    def check(table: tables.LoadedTable) -> None:
        a = table.arrays
        shapes_ok = all(a[name].shape == (model.size,) for name in ("offset", "start", "length"))
        if not shapes_ok or abs(table.manifest["root_value"] - float(solution.values[root])) > 1e-3:
            raise TableError(f"table in {table.directory} fails its root-value check")
        if int((a["offset"].astype(np.int64) + a["length"]).max()) > a["data"].shape[0]:
            raise TableError(f"table in {table.directory} has offsets beyond its data")

    table, built = tables.load_or_build(table_key(game), make, check, rebuild=rebuild, on_problem=on_problem)
    a = table.arrays
    seconds = float(table.manifest.get("build_seconds", 0.0)) if built else time.perf_counter() - t0
    return FutureTable(game, model, a["data"], a["offset"], a["start"], a["length"]), built, seconds
