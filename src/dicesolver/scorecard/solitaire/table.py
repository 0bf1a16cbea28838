"""The solitaire solver: maximum expected final score of every turn-start state of a scorecard game.

A turn-start state is (used categories U, capped upper total t, yacht flag g). The table stores, for
each U, a contiguous block of lanes ``g * L(U) + t`` where

* L(U) = 1 when the game has no upper bonus or every upper box is used (the bonus, paid the moment
  the total reaches the threshold, is then settled), else min(threshold, max upper total of U) + 1:
  totals above what U's boxes can hold are unreachable and skipped;
* the flag group g (0 or 1) exists only once the yacht box is used in games with an extra-yacht bonus.

Values are expected *future* points (the score so far excluded), so a position's expected final
score is its current total plus the table value.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cached_property
from typing import Callable

import numpy as np

from ...core import tables
from ...core.errors import TableError
from ..game.rules import ScorecardGame
from ..game.size import check_solvable

ProgressCallback = Callable[[int, int], None]


@dataclass(frozen=True)
class TurnState:
    """The start of a turn: used categories (bit mask), upper total, and the yacht-bonus flag."""

    used: int
    upper: int = 0
    yacht_flag: bool = False


class SolitaireModel:
    """A game compiled for the kernels: the table layout and every rule array."""

    def __init__(self, game: ScorecardGame):
        self.game = game
        n = game.n_categories
        self.n_sets = 1 << n
        self.full = self.n_sets - 1
        masks = np.arange(self.n_sets, dtype=np.int64)
        max_scores = game.max_scores.astype(np.int64)
        upper_bits = [c for c, cat in enumerate(game.categories) if cat.is_upper]
        if game.has_upper_bonus:
            reach = np.zeros(self.n_sets, dtype=np.int64)
            all_upper = np.ones(self.n_sets, dtype=bool)
            for c in upper_bits:
                has = (masks >> c) & 1
                reach += has * max_scores[c]
                all_upper &= has.astype(bool)
            lanes = np.minimum(reach, game.upper_threshold) + 1
            lanes[all_upper] = 1
        else:
            lanes = np.ones(self.n_sets, dtype=np.int64)
        groups = np.ones(self.n_sets, dtype=np.int64)
        if game.tracks_yacht_flag and game.extra_yacht is not None:
            groups[((masks >> game.extra_yacht.category) & 1).astype(bool)] = 2
        self.n_upper_lanes = lanes.astype(np.int32)
        self.n_groups = groups.astype(np.int32)
        sizes = lanes * groups
        self.offset = np.zeros(self.n_sets + 1, dtype=np.int64)
        np.cumsum(sizes, out=self.offset[1:])
        self.size = int(self.offset[-1])

        dice = game.dice
        self.scores = np.ascontiguousarray(game.score_table.astype(np.int64))
        self.upper_face = np.array([cat.face if cat.is_upper else 0 for cat in game.categories], dtype=np.int64)
        self.threshold = game.upper_threshold if game.has_upper_bonus else 0
        self.upper_points = game.upper_points if game.has_upper_bonus else 0
        x = game.extra_yacht
        self.yacht_cat = x.category if x else -1
        self.xbonus = x.points if x else 0
        self.joker_mode = {"none": 0, "forced": 1, "free": 2}[x.joker] if x else 0
        self.joker_pts = np.full(n, -1, dtype=np.int64)
        if x:
            for c in x.joker_categories:
                self.joker_pts[c] = game.categories[c].fixed_points or 0
        counts = dice.counts
        self.roll_yacht_face = np.zeros(dice.n_rolls, dtype=np.int64)
        for r in range(dice.n_rolls):
            full = np.nonzero(counts[r] == game.n_dice)[0]
            if len(full):
                self.roll_yacht_face[r] = full[0] + 1
        self.upper_cat_of_face = np.full(game.faces + 1, -1, dtype=np.int64)
        for c in upper_bits:
            self.upper_cat_of_face[game.categories[c].face] = c
        self.forced_order = bool(game.forced_order)
        self.keep_add = dice.keep_add
        self.sub_ptr, self.sub_idx = dice.keep_sub
        self.roll_offset = dice.roll_offset
        self.roll_prob = dice.roll_probabilities
        self.n_keeps = dice.n_keeps
        self.max_lanes = int(sizes.max())

    # -- states and lanes ------------------------------------------------------------------------
    def lane(self, state: TurnState) -> int:
        u = state.used
        lu = int(self.n_upper_lanes[u])
        t = min(state.upper, self.threshold, lu - 1) if self.threshold else 0
        g = 1 if (state.yacht_flag and self.n_groups[u] == 2) else 0
        return g * lu + t

    def index(self, state: TurnState) -> int:
        return int(self.offset[state.used]) + self.lane(state)

    def levels(self) -> list[np.ndarray]:
        """The used-category sets to solve, grouped by how many boxes are used (reachable ones only)."""
        n = self.game.n_categories
        if self.forced_order:
            return [np.array([(1 << k) - 1], dtype=np.int64) for k in range(n + 1)]
        masks = np.arange(self.n_sets, dtype=np.int64)
        pop = np.array([bin(m).count("1") for m in range(self.n_sets)])
        return [masks[pop == k] for k in range(n + 1)]

    def rule_args(self) -> tuple:
        return (self.scores, self.upper_face, self.threshold, self.upper_points, self.yacht_cat, self.xbonus,
                self.joker_mode, self.joker_pts, self.roll_yacht_face, self.upper_cat_of_face, self.forced_order)

    # -- solving ----------------------------------------------------------------------------------
    def compile_parallel_solve(self) -> None:
        """Compile (or load) the parallel solve kernel, on a level of no sets: the next solves use it."""
        from ...core.jit import thread_count
        from .kernels.solve import solve_level

        values = np.zeros(self.size, dtype=np.float64)
        solve_level(self.levels()[0][:0], values, self.offset, self.n_upper_lanes, self.n_groups, *self.rule_args(),
                    self.keep_add, self.sub_ptr, self.sub_idx, self.roll_prob, self.roll_offset, self.game.rolls - 1,
                    thread_count())

    def solve(self, progress: ProgressCallback | None = None, parallel: bool | None = None) -> np.ndarray:
        """All turn-start values, by backward induction over the number of used categories. ``parallel``: by
        numba's parallel kernel (default: where it is compiled), else by its stripes on Python's threads (the
        same table to the bit)."""
        from ...core.jit import Stripes, compiled, thread_count
        from .kernels.solve import solve_level, solve_stripe  # numba is loaded only by what needs it

        values = np.zeros(self.size, dtype=np.float64)
        levels = self.levels()
        n = len(levels) - 1
        work = [float((self.n_upper_lanes[lv] * self.n_groups[lv]).sum()) for lv in levels]
        total = sum(work[:n])
        done = 0.0
        args = (values, self.offset, self.n_upper_lanes, self.n_groups, *self.rule_args(), self.keep_add,
                self.sub_ptr, self.sub_idx, self.roll_prob, self.roll_offset, self.game.rolls - 1)
        if parallel is None:  # else the stripes on Python's threads: compiled in half the time
            parallel = compiled(solve_level)
        with Stripes(1 if parallel else None) as stripes:
            for k in range(n - 1, -1, -1):
                level = levels[k]
                if parallel:
                    solve_level(level, *args, thread_count())
                else:
                    stripes.run(lambda s, count: solve_stripe(np.int64(s), np.int64(count), level, *args))
                done += work[k]
                if progress:
                    progress(int(done), int(total))
        return values


@dataclass
class SolitaireTable:
    """A solved game: turn-start values plus on-demand within-turn values."""

    game: ScorecardGame
    values: np.ndarray

    @cached_property
    def model(self) -> SolitaireModel:
        return SolitaireModel(self.game)

    @property
    def root_value(self) -> float:
        return float(self.values[self.model.index(TurnState(0))])

    def value(self, state: TurnState) -> float:
        """Expected future points from the start of a turn in ``state``."""
        if state.used == self.model.full:
            return 0.0
        return float(self.values[self.model.index(state)])


TABLE_KIND = "solitaire-ev"


@dataclass
class TableLoad:
    """How a table was obtained: from the cache or solved now (and how long that took)."""

    built: bool
    seconds: float
    directory: str
    table_bytes: int


def table_key(game: ScorecardGame) -> tables.TableKey:
    return tables.TableKey(TABLE_KIND, game.canonical, game.fingerprint)


def load_or_solve(
    game: ScorecardGame,
    progress: ProgressCallback | None = None,
    rebuild: bool = False,
    on_problem: Callable[[str], None] | None = None,
) -> tuple[SolitaireTable, TableLoad]:
    """The solved table of a game: from the cache when it is sound, else solved now and cached.

    A game too big for this machine is refused before anything is built (size.check_solvable)."""
    check_solvable(game)
    model = SolitaireModel(game)
    root_index = model.index(TurnState(0))
    start = time.perf_counter()

    def build():
        values = model.solve(progress)
        return {"values": values}, float(values[root_index]), {"solve_seconds": time.perf_counter() - start}

    def check(table: tables.LoadedTable) -> None:
        values = table.arrays["values"]
        if values.shape != (model.size,) or not np.isclose(values[root_index], table.manifest["root_value"], rtol=0, atol=1e-9):
            raise TableError(f"table in {table.directory} fails its root-value check")

    table, built = tables.load_or_build(table_key(game), build, check, rebuild=rebuild, on_problem=on_problem)
    values = table.arrays["values"]
    solution = SolitaireTable(game, values)
    solution.__dict__["model"] = model
    seconds = float(table.manifest.get("solve_seconds", 0.0)) if built else time.perf_counter() - start
    return solution, TableLoad(built, seconds, str(table.directory), int(values.nbytes))
