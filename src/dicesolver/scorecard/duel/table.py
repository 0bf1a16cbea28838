"""Two-player scorecard games solved exactly for equity (+1 win, 0 draw, -1 loss for the player to move).

A position is (a, b, d): the mover's used categories a, the other player's b, and d = mover's score
minus the other's; the mover has used as many boxes as the other or one fewer. Backward induction runs
over the number of used boxes; within a pair (a, b) every reachable d in [-max(b), max(a)] is one lane
of the turn widget. The full Generala table has 86,767,645 such lanes; counting only the differences
that scores can actually make (and the finished positions) gives the essay's 85,646,716 + 491 =
85,647,207 positions.

Values are stored as float32 (the widget computes in float64; storing rounds each equity by at most
6e-8, and the tests compare with float64 sub-game solves to 1e-6).

Games with an upper bonus or an extra-yacht bonus are not supported here: the score difference alone
would not describe the position.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Callable, Iterable

import numpy as np

from ...core import inplace, tables
from ...core.answers import Answers
from ...core.arrays import frozen
from ...core.distributed import Cluster
from ...core.errors import InputError, TableError
from ..game.rules import ScorecardGame
from ..game.state import ScorecardState

if TYPE_CHECKING:
    from .answers import DuelEngine

ProgressCallback = Callable[[int, int], None]
LAYOUT_KIND = "duel-layout"
TABLE_KIND = "duel-equity-levels"  # laid out level by level (tables of the earlier "duel-equity" were not)
MAX_CATEGORIES = 13  # crag; the pair index is (2^n)^2 entries (537 MB at 13)
BLOCK_CELLS = 32_000_000  # the most cells one Dask task computes (128 MB of float32)


def supports(game: ScorecardGame) -> bool:
    """Whether the two-player solver takes the game (check_duel_game says why not)."""
    return not (game.bonuses or game.extra_yacht is not None or game.forced_order
                or game.n_categories > MAX_CATEGORIES)


def check_duel_game(game: ScorecardGame) -> None:
    """InputError, saying why and how big the table would be, for a game the two-player solver cannot take."""
    if supports(game):
        return
    bonuses = [what for what, has in (("an upper bonus", game.has_upper_bonus),
                                      ("a bonus on a set of boxes", bool(game.set_bonuses)),
                                      ("an extra-yacht bonus", game.extra_yacht is not None)) if has]
    if bonuses:
        cells = bonus_table_cells(game)
        raise InputError(
            f"{game.canonical}: two players are solved exactly only in games scored by the score difference "
            f"alone (generala, crag, yacht, rules files without bonuses); with {' and '.join(bonuses)} each "
            f"player's upper total and bonus state would have to be in the table too: about {cells:.1e} "
            f"positions ({cells * 4 / 1e12:,.0f} TB as float32). Judge it with 'mindful' instead")
    if game.forced_order:
        raise InputError(f"{game.canonical}: the exact two-player solver does not play a forced card order")
    if game.n_categories > MAX_CATEGORIES:
        cells = sum(level_cells(game).values())
        raise InputError(f"{game.canonical}: at most {MAX_CATEGORIES} categories for the exact two-player solver "
                         f"(its pair index alone would take {(4 ** game.n_categories) * 8 / 1e9:.0f} GB; the table "
                         f"{cells:.2e} positions, {cells * 4 / 1e9:,.0f} GB as float32)")


def level_cells(game: ScorecardGame) -> dict[int, int]:
    """The cells of each level of the two-player table (level: boxes filled by both), from the rules alone:
    the sum over the level's pairs (a, b) of maxsum(a) + maxsum(b) + 1, without listing the pairs."""
    n = game.n_categories
    maxsum, pop = _set_sums(game)
    out = {}
    for m in range(2 * n - 1, -1, -1):
        a, b = pop == m // 2, pop == m - m // 2
        out[m] = int(b.sum() * maxsum[a].sum() + a.sum() * maxsum[b].sum() + a.sum() * b.sum())
    return out


def _set_sums(game: ScorecardGame) -> tuple[np.ndarray, np.ndarray]:
    """For every set of used boxes: the most points its boxes can hold, and how many boxes it has."""
    masks = np.arange(1 << game.n_categories)
    most = np.zeros(masks.size, dtype=np.int64)
    for c, top in enumerate(game.max_scores):
        most += ((masks >> c) & 1) * int(top)
    return most, np.array([bin(int(u)).count("1") for u in masks])


def bonus_table_cells(game: ScorecardGame) -> float:
    """The positions of an exact two-player table that also knew both players' upper totals and yacht flags:
    the sum over pairs (a, b) of score differences x a's turn lanes x b's (kernel_rules.turn_lanes), by popcount."""
    from ..game.kernel_rules import turn_lanes

    lanes, groups, _ = turn_lanes(game)
    state = (lanes * groups).astype(np.float64)
    n = game.n_categories
    reach, pop = _set_sums(game)
    total = 0.0
    for k in range(n):
        for kb in (k, k + 1):
            a, b = pop == k, pop == kb
            # sum over a in A, b in B of (reach_a + reach_b + 1) * state_a * state_b
            total += ((reach[a] * state[a]).sum() * state[b].sum() + state[a].sum() * (reach[b] * state[b]).sum()
                      + state[a].sum() * state[b].sum())
    return total


@dataclass(frozen=True)
class LevelSegment:
    """One level of the table: ``level`` boxes filled by both players; its pairs and its cells."""

    level: int
    first_pair: int
    end_pair: int
    start: int  # first cell
    stop: int  # one past the last cell

    @property
    def cells(self) -> int:
        return self.stop - self.start


@dataclass(frozen=True)
class DuelPosition:
    """Mover's used set, the other player's used set, and mover's score minus the other's."""

    mover: int
    other: int
    diff: int


class DuelModel:
    """The pair layout of a two-player game (all pairs, or those reachable from a start position).

    The full game's layout is cached beside its table (``duel-layout``: memory-mapped, so that a position
    of two-person Yacht is answered without building its 16-million-entry pair index again)."""

    def __init__(self, game: ScorecardGame, start: tuple[int, int] | None = None):
        check_duel_game(game)
        self.game = game
        self.start = start
        self.n_sets = 1 << game.n_categories
        self.full = self.n_sets - 1
        layout = pair_layout(game, start) if start is not None else _cached_layout(game)
        # read-only whether built now or read from disk: the kernels are compiled for one of the two
        self.maxsum, self.pa, self.pb = frozen(layout["maxsum"]), frozen(layout["pa"]), frozen(layout["pb"])
        self.pair_offset = frozen(layout["pair_offset"])
        # level m's pairs pa[lo:hi] and cells start..stop, from the top level down
        self.segments = [LevelSegment(*(int(x) for x in row)) for row in layout["segments"]]
        self.size = sum(seg.cells for seg in self.segments)
        self.scores = np.ascontiguousarray(game.score_table.astype(np.int64))

    @cached_property
    def layout(self):
        """The layout as the kernels read it (``kernels.solve.DuelLayout``): numba is loaded by the first use."""
        from .kernels.solve import DuelLayout

        return DuelLayout(self.pair_offset, self.maxsum, self.scores, self.full)

    @cached_property
    def level(self) -> np.ndarray:
        """Boxes filled by both players, for each pair."""
        pop = np.array([bin(u).count("1") for u in range(self.n_sets)])
        return pop[self.pa] + pop[self.pb]

    def levels(self) -> Iterable[np.ndarray]:
        for seg in self.segments:
            yield np.arange(seg.first_pair, seg.end_pair)

    def solve(self, progress: ProgressCallback | None = None, dtype=np.float32) -> np.ndarray:
        """The whole table in memory (sub-games, small games)."""
        values = np.zeros(self.size, dtype=dtype)
        done = 0
        for seg in self.segments:
            self.solve_level(seg, values, 0, values, 0)
            done += seg.cells
            if progress:
                progress(done, self.size)
        return values

    def solve_level(self, seg: LevelSegment, out: np.ndarray, out_base: int, above: np.ndarray, above_base: int
                    ) -> None:
        """One level's equities into ``out`` (table cells from ``out_base``), reading the level above from
        ``above`` (table cells from ``above_base``)."""
        from ...core.jit import shared_stripes
        from .kernels.solve import TablePart, duel_level  # here: advice from a table on disk never loads numba

        shared_stripes().each(duel_level, self.pa[seg.first_pair:seg.end_pair], self.pb[seg.first_pair:seg.end_pair],
                              TablePart(out, out_base), TablePart(frozen(above), above_base), self.layout,
                              self.game.dice.graph, self.game.rolls - 1)

    def index(self, pos: DuelPosition) -> int:
        off = self.pair_offset[pos.mover * self.n_sets + pos.other]
        if off < 0:
            raise InputError("that position is not in this table (not reachable, or not the mover's turn)")
        lo, hi = -int(self.maxsum[pos.other]), int(self.maxsum[pos.mover])
        if not lo <= pos.diff <= hi:
            raise InputError(f"a score difference of {pos.diff} is impossible here (possible: {lo}..{hi})")
        return int(off) + pos.diff - lo

    def attainable_positions(self) -> int:
        """Positions counted as the Generala essay does: only differences that scores can make, and the
        finished positions too. Pairs whose two sets of attainable totals are the same are counted once."""
        game = self.game
        sums: list[set[int]] = [set() for _ in range(self.n_sets)]
        sums[0] = {0}
        for u in range(1, self.n_sets):
            c = (u & -u).bit_length() - 1
            sums[u] = {s + p for s in sums[u & (u - 1)] for p in game.possible_scores(c)}
        distinct: dict[tuple[int, ...], int] = {}
        set_id = np.array([distinct.setdefault(tuple(sorted(s)), len(distinct)) for s in sums], dtype=np.int64)
        listed = list(distinct)
        flat = np.array([x for totals in listed for x in totals], dtype=np.int64)
        ptr = np.concatenate([[0], np.cumsum([len(t) for t in listed])]).astype(np.int64)
        a = np.append(self.pa, self.full)
        b = np.append(self.pb, self.full)
        combos, weight = np.unique(set_id[a] * len(listed) + set_id[b], return_counts=True)
        span = 2 * int(self.maxsum[self.full]) + 1
        from .kernels.solve import count_differences

        counts = count_differences(combos // len(listed), combos % len(listed), flat, ptr, span)
        return int((counts * weight).sum())


@dataclass
class DuelTable:
    model: DuelModel
    values: np.ndarray

    @property
    def game(self) -> ScorecardGame:
        return self.model.game

    def equity(self, pos: DuelPosition) -> float:
        """Equity for the mover at the start of the mover's turn."""
        if pos.mover == self.model.full and pos.other == self.model.full:
            return float(np.sign(pos.diff))
        return float(self.values[self.model.index(pos)])

    def first_player_equity(self) -> float:
        return self.equity(DuelPosition(0, 0, 0))

    @cached_property
    def engine(self) -> DuelEngine:
        """The batch answer engine on this table."""
        from .answers import DuelEngine

        return DuelEngine(self, tie=0.0)

    def _options(self, pos: DuelPosition, roll: tuple[int, ...], rolls_left: int) -> list[tuple[int, float]]:
        """(code, equity) of every option with ``roll`` showing at ``pos`` (the engine's answer)."""
        dice = np.array([sorted(roll)], dtype=np.int64)
        answers = self.engine.answer_positions(pos.mover, pos.other, pos.diff, dice, rolls_left)
        return [(code, value) for code, value, _ in answers.options(0)]

    def category_equities(self, pos: DuelPosition, roll: tuple[int, ...]) -> dict[int, float]:
        """Equity after scoring the final roll in each open category."""
        holds = 1 << self.game.n_dice
        return {code - holds: v for code, v in self._options(pos, roll, 0)}

    def keep_equities(self, pos: DuelPosition, roll: tuple[int, ...], rolls_left: int) -> dict[tuple, float]:
        """Equity of every distinct keep from ``roll`` with ``rolls_left`` throws still allowed."""
        holds = 1 << self.game.n_dice
        dice = sorted(roll)
        return {tuple(d for j, d in enumerate(dice) if code >> j & 1): v
                for code, v in self._options(pos, roll, rolls_left) if code < holds}

    def opening_equities(self) -> tuple[list[ScorecardState], Answers]:
        """Every roll of the game's first throw, with every option's equity for the first player (from the
        duel engine: one batch)."""
        from .answers import DuelEngine
        from ..game.encoding import ScorecardEncoding
        from ..game.state import start_state

        game = self.game.with_players(2)
        start = start_state(game, 2)
        states = [ScorecardState(game, start.cards, roll, (), game.rolls - 1) for roll in game.dice.rolls]
        return states, DuelEngine(self, tie=0.0).answer(ScorecardEncoding(game).situations(states))


def cells_of(values: np.ndarray, start: int, stop: int, writable: bool = False) -> np.ndarray:
    """Cells start..stop of a table: a view of an array in memory, or a mapping of just that part of its
    file (out of core: a level done with is given back to the system when its mapping goes)."""
    if isinstance(values, np.memmap) and values.filename is not None:
        return np.memmap(values.filename, dtype=values.dtype, mode="r+" if writable else "r",
                         offset=values.offset + start * values.itemsize, shape=(max(stop - start, 0),))
    return values[start:stop]


def pair_layout(game: ScorecardGame, start: tuple[int, int] | None = None) -> dict[str, np.ndarray]:
    """The pairs (a, b) of used-box sets, level by level, with every pair's first cell and the levels' bounds.

    The table is laid out level by level (boxes filled by both, from the fullest down, the order of the
    solve): each level is one contiguous segment, written once and read only by the level below it. At
    level m the mover has filled m // 2 boxes and the other player the rest (as many, or one more)."""
    n = game.n_categories
    n_sets = 1 << n
    maxs = game.max_scores.astype(np.int64)
    maxsum = np.zeros(n_sets, dtype=np.int64)
    for u in range(1, n_sets):
        c = (u & -u).bit_length() - 1
        maxsum[u] = maxsum[u & (u - 1)] + maxs[c]
    pop = np.array([bin(u).count("1") for u in range(n_sets)])
    by_pop = [np.nonzero(pop == k)[0] for k in range(n + 1)]
    pas, pbs, rows = [], [], []
    first_pair = first_cell = 0
    for m in range(2 * n - 1, -1, -1):
        movers, others = by_pop[m // 2], by_pop[m - m // 2]
        a, b = np.repeat(movers, len(others)), np.tile(others, len(movers))
        if start is not None:
            x0, o0 = start
            keep = ((a & x0 == x0) & (b & o0 == o0)) | ((a & o0 == o0) & (b & x0 == x0))
            a, b = a[keep], b[keep]
        if len(a):
            cells = int((maxsum[a] + maxsum[b] + 1).sum())
            rows.append((m, first_pair, first_pair + len(a), first_cell, first_cell + cells))
            first_pair, first_cell = first_pair + len(a), first_cell + cells
            pas.append(a)
            pbs.append(b)
    pa = np.concatenate(pas).astype(np.int64) if pas else np.zeros(0, dtype=np.int64)
    pb = np.concatenate(pbs).astype(np.int64) if pbs else np.zeros(0, dtype=np.int64)
    lanes = maxsum[pa] + maxsum[pb] + 1
    pair_offset = np.full(n_sets * n_sets, -1, dtype=np.int64)
    pair_offset[pa * n_sets + pb] = np.concatenate([[0], np.cumsum(lanes)[:-1]]).astype(np.int64)
    return {"maxsum": maxsum, "pa": pa, "pb": pb, "pair_offset": pair_offset,
            "segments": np.array(rows, dtype=np.int64).reshape(-1, 5)}


def _cached_layout(game: ScorecardGame) -> dict[str, np.ndarray]:
    def build():
        layout = pair_layout(game)
        return layout, float(layout["segments"][:, 4].max(initial=0)), {}

    table, _ = tables.load_or_build(tables.TableKey(LAYOUT_KIND, game.canonical, game.fingerprint), build)
    return table.arrays


def solve_subgame(game: ScorecardGame, start: tuple[int, int], dtype=np.float64) -> DuelTable:
    """Only the positions reachable from (mover's used set, other's used set): endgames in seconds."""
    model = DuelModel(game, start)
    return DuelTable(model, model.solve(dtype=dtype))


def table_key(game: ScorecardGame) -> tables.TableKey:
    return tables.TableKey(TABLE_KIND, game.canonical, game.fingerprint)


def load_or_solve(game: ScorecardGame, progress: ProgressCallback | None = None, rebuild: bool = False,
                  on_problem: Callable[[str], None] | None = None, verify: bool | None = None,
                  cluster: Cluster | None = None) -> tuple[DuelTable, float, bool]:
    """The full duel table (cached): (solution, seconds, solved now).

    The table is solved out of core (core/inplace.py): level by level into a file on disk, holding in
    memory only the level being written and the one it reads, with a checkpoint after each level, so that a
    killed solve resumes at the level where it stopped. ``verify``: checksum the cached table on loading
    (by default only small tables are; see tables.load). ``cluster``: solve on dask.distributed instead
    (core/distributed.py)."""
    model = DuelModel(game)
    root = model.index(DuelPosition(0, 0, 0))
    key = table_key(game)
    start = time.perf_counter()

    def cached() -> DuelTable | None:
        try:
            table = tables.load(key, verify)
            values = table.arrays["values"]
            if values.shape != (model.size,) or abs(float(values[root]) - table.manifest["root_value"]) > 1e-6:
                raise TableError(f"table in {table.directory} fails its root-value check")
            return DuelTable(model, values)
        except TableError as exc:
            if key.directory.exists() and on_problem:
                on_problem(f"{exc}; rebuilding it")
            return None

    solution = None if rebuild else cached()
    if solution is not None:
        return solution, time.perf_counter() - start, False
    bad = key.directory.exists()  # a table there failed its checks: build anew; none: another may finish it
    if cluster is None:
        def fill(build):
            return _solve_levels(model, build, progress)
    else:
        def fill(build):
            return _solve_levels_on(cluster, model, build, progress)
    inplace.run(key, {"values": (model.size, "float32")}, fill, restart=rebuild, reuse=not (rebuild or bad))
    solution = cached()
    if solution is None:
        raise TableError(f"the table just written in {key.directory} does not load")
    return solution, time.perf_counter() - start, True


def _solve_levels_on(cluster: Cluster, model: DuelModel, build: inplace.InPlaceBuild,
                     progress: ProgressCallback | None) -> tuple[float, dict]:
    """The same level sweep on dask.distributed (core/distributed.py): each level in blocks of pairs."""
    from ...core import distributed

    # the blocks and the finished levels the tasks read: beside the table, or on the storage all workers see
    base = build.directory if cluster.storage is None else cluster.storage
    storage = base / f"dask-{build.key.fingerprint[:16]}"
    threads = max(1, (os.cpu_count() or 1) // cluster.local_workers) if cluster.local_workers else None
    lanes = model.maxsum[model.pa] + model.maxsum[model.pb] + 1
    start = time.perf_counter()
    resumed = bool(build.done)
    with distributed.connect(cluster) as client:
        workers = max(1, len(client.scheduler_info()["workers"]))
        levels = []
        for seg in model.segments:
            # a few blocks per worker and level, none bigger than BLOCK_CELLS
            most = max(1, min(BLOCK_CELLS, -(-seg.cells // (4 * workers))))
            blocks = []
            for lo, hi in distributed.split(seg.first_pair, seg.end_pair, lanes, most):
                first = model.pair_offset[model.pa[lo] * model.n_sets + model.pb[lo]]
                last = model.pair_offset[model.pa[hi - 1] * model.n_sets + model.pb[hi - 1]] + lanes[hi - 1]
                blocks.append(distributed.Block(int(first), int(last), (model.game, lo, hi, int(first), int(last))))
            levels.append(distributed.Level(str(seg.level), seg.start, seg.stop, tuple(blocks)))
        distributed.sweep(client, build, "values", levels, solve_block, storage, progress, threads,
                          prefix=f"duel-{model.game.fingerprint[:12]}")
    shutil.rmtree(storage, ignore_errors=True)  # the last level's file: the table has it
    root = model.index(DuelPosition(0, 0, 0))
    root_value = float(build.segment("values", root, root + 1)[0])
    return root_value, {"solve_seconds": time.perf_counter() - start, "resumed": resumed, "cluster": cluster.text,
                        "level_cells": {str(seg.level): seg.cells for seg in model.segments}}


_worker_models: dict[str, DuelModel] = {}


def solve_block(game: ScorecardGame, first_pair: int, end_pair: int, first: int, last: int,
                above: np.ndarray | None, above_base: int) -> np.ndarray:
    """On a Dask worker: the equities of pairs first_pair..end_pair (table cells first..last) from the level
    above. The worker keeps the game's pair layout between tasks."""
    model = _worker_models.get(game.fingerprint)
    if model is None:
        model = _worker_models[game.fingerprint] = DuelModel(game)
    out = np.zeros(last - first, dtype=np.float32)
    model.solve_level(LevelSegment(-1, first_pair, end_pair, first, last), out, first,
                      np.zeros(0, np.float32) if above is None else above, above_base)
    return out


def _solve_levels(model: DuelModel, build: inplace.InPlaceBuild, progress: ProgressCallback | None
                  ) -> tuple[float, dict]:
    """Every level not yet done, each from the one above it (read back from disk), checkpointed."""
    start = time.perf_counter()
    done = sum(seg.cells for seg in model.segments if f"level {seg.level}" in build.done)
    resumed = bool(done)
    if progress:
        progress(done, model.size)
    above_seg = None
    for seg in model.segments:
        if f"level {seg.level}" not in build.done:
            out = build.segment("values", seg.start, seg.stop, writable=True)
            above = build.segment("values", above_seg.start, above_seg.stop) if above_seg else out
            model.solve_level(seg, np.asarray(out), seg.start, np.asarray(above),
                              above_seg.start if above_seg else seg.start)
            build.checkpoint(f"level {seg.level}", [out])
            del out, above  # unmapped: the memory of a level is given back once it is on disk
            done += seg.cells
            if progress:
                progress(done, model.size)
        above_seg = seg
    root = model.index(DuelPosition(0, 0, 0))
    root_value = float(build.segment("values", root, root + 1)[0])
    return root_value, {"solve_seconds": time.perf_counter() - start, "resumed": resumed,
                        "level_cells": {str(seg.level): seg.cells for seg in model.segments}}
