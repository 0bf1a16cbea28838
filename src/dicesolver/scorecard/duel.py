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

import time
from dataclasses import dataclass
from typing import Callable, Iterable

import numpy as np

from ..core import tables
from ..core.errors import InputError, TableError
from .kernels.duel import duel_level, duel_widget
from .kernels.widget import expect_keeps
from .rules import ScorecardGame

ProgressCallback = Callable[[int, int], None]
TABLE_KIND = "duel-equity"
MAX_CATEGORIES = 12


def check_duel_game(game: ScorecardGame) -> None:
    if game.has_upper_bonus or game.extra_yacht is not None or game.forced_order:
        raise InputError(f"{game.canonical}: the exact two-player solver needs a game without an upper bonus, "
                         "extra-yacht bonus or forced order (generala, crag, yacht, custom games)")
    if game.n_categories > MAX_CATEGORIES:
        raise InputError(f"{game.canonical}: at most {MAX_CATEGORIES} categories for the exact two-player solver")


@dataclass(frozen=True)
class DuelPosition:
    """Mover's used set, the other player's used set, and mover's score minus the other's."""

    mover: int
    other: int
    diff: int


class DuelModel:
    """The pair layout of a two-player game (all pairs, or those reachable from a start position)."""

    def __init__(self, game: ScorecardGame, start: tuple[int, int] | None = None):
        check_duel_game(game)
        self.game = game
        n = game.n_categories
        self.n_sets = 1 << n
        self.full = self.n_sets - 1
        maxs = game.max_scores.astype(np.int64)
        self.maxsum = np.zeros(self.n_sets, dtype=np.int64)
        for u in range(1, self.n_sets):
            c = (u & -u).bit_length() - 1
            self.maxsum[u] = self.maxsum[u & (u - 1)] + maxs[c]
        pop = np.array([bin(u).count("1") for u in range(self.n_sets)])
        pairs = [(a, b) for a in range(self.n_sets) for b in range(self.n_sets)
                 if pop[b] - pop[a] in (0, 1) and pop[a] < n]
        if start is not None:
            x0, o0 = start
            pairs = [(a, b) for a, b in pairs
                     if (a & x0 == x0 and b & o0 == o0) or (a & o0 == o0 and b & x0 == x0)]
        self.start = start
        self.pa = np.array([p[0] for p in pairs], dtype=np.int64)
        self.pb = np.array([p[1] for p in pairs], dtype=np.int64)
        lanes = self.maxsum[self.pa] + self.maxsum[self.pb] + 1
        self.pair_offset = np.full(self.n_sets * self.n_sets, -1, dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum(lanes)[:-1]]).astype(np.int64)
        self.pair_offset[self.pa * self.n_sets + self.pb] = offsets
        self.size = int(lanes.sum())
        self.level = pop[self.pa] + pop[self.pb]
        self.scores = np.ascontiguousarray(game.score_table.astype(np.int64))

    def levels(self) -> Iterable[np.ndarray]:
        for m in range(int(self.level.max()), -1, -1):
            idx = np.nonzero(self.level == m)[0]
            if len(idx):
                yield idx

    def solve(self, progress: ProgressCallback | None = None, dtype=np.float32) -> np.ndarray:
        dice = self.game.dice
        ptr, idx = dice.keep_sub
        values = np.zeros(self.size, dtype=dtype)
        work = self.maxsum[self.pa] + self.maxsum[self.pb] + 1
        total = int(work.sum())
        done = 0
        for sel in self.levels():
            duel_level(self.pa[sel], self.pb[sel], values, self.pair_offset, self.maxsum, self.scores, self.full,
                            dice.keep_add, ptr, idx, dice.roll_probabilities, dice.roll_offset, self.game.rolls - 1)
            done += int(work[sel].sum())
            if progress:
                progress(done, total)
        return values

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
        finished positions too."""
        game = self.game
        sums: list[set[int]] = [set() for _ in range(self.n_sets)]
        sums[0] = {0}
        for u in range(1, self.n_sets):
            c = (u & -u).bit_length() - 1
            sums[u] = {s + p for s in sums[u & (u - 1)] for p in game.possible_scores(c)}
        arrays = [np.array(sorted(s)) for s in sums]
        count = 0
        pairs = list(zip(self.pa.tolist(), self.pb.tolist())) + [(self.full, self.full)]
        for a, b in pairs:
            count += len(np.unique(arrays[a][:, None] - arrays[b][None, :]))
        return count


@dataclass
class DuelSolution:
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

    def within_turn(self, pos: DuelPosition, rerolls_left: int) -> np.ndarray:
        """(keeps x lanes) equities: roll rows = best equity with ``rerolls_left`` throws to come; keep
        rows = the equity of each keep thrown from there (computed only when rerolls_left > 0)."""
        m = self.model
        dice = self.game.dice
        ptr, idx = dice.keep_sub
        lanes = int(m.maxsum[pos.mover] + m.maxsum[pos.other] + 1)
        buf = np.empty((dice.n_keeps, lanes))
        duel_widget(pos.mover, pos.other, buf, self.values, m.pair_offset, m.maxsum, m.scores, m.full,
                         dice.keep_add, ptr, idx, dice.roll_offset, max(rerolls_left - 1, 0))
        if rerolls_left > 0:
            expect_keeps(buf, dice.keep_add, dice.roll_offset, lanes)
        return buf

    def category_equities(self, pos: DuelPosition, roll: tuple[int, ...]) -> dict[int, float]:
        """Equity after scoring the final roll in each open category."""
        game = self.game
        r = game.dice.roll_index(roll)
        result = {}
        for c in range(game.n_categories):
            if pos.mover >> c & 1:
                continue
            pts = int(game.score_table[r, c])
            after = DuelPosition(pos.other, pos.mover | (1 << c), -(pos.diff + pts))
            result[c] = -self.equity(after)
        return result

    def keep_equities(self, pos: DuelPosition, roll: tuple[int, ...], rolls_left: int) -> dict[tuple, float]:
        """Equity of every distinct keep from ``roll`` with ``rolls_left`` throws still allowed."""
        dice = self.game.dice
        buf = self.within_turn(pos, rolls_left)
        lane = pos.diff + int(self.model.maxsum[pos.other])
        return {k: float(buf[dice.keep_index(k), lane]) for k in dice.sub_keeps(tuple(sorted(roll)))}


def solve_subgame(game: ScorecardGame, start: tuple[int, int], dtype=np.float64) -> DuelSolution:
    """Only the positions reachable from (mover's used set, other's used set): endgames in seconds."""
    model = DuelModel(game, start)
    return DuelSolution(model, model.solve(dtype=dtype))


def table_key(game: ScorecardGame) -> tables.TableKey:
    return tables.TableKey(TABLE_KIND, game.canonical, game.fingerprint)


def load_or_solve(game: ScorecardGame, progress: ProgressCallback | None = None, rebuild: bool = False,
                  on_problem: Callable[[str], None] | None = None) -> tuple[DuelSolution, float, bool]:
    """The full duel table (cached): (solution, seconds, solved now)."""
    model = DuelModel(game)
    root = model.index(DuelPosition(0, 0, 0))
    start = time.perf_counter()

    def build():
        values = model.solve(progress)
        return {"values": values}, float(values[root]), {"solve_seconds": time.perf_counter() - start}

    def check(table: tables.LoadedTable) -> None:
        values = table.arrays["values"]
        if values.shape != (model.size,) or abs(float(values[root]) - table.manifest["root_value"]) > 1e-6:
            raise TableError(f"table in {table.directory} fails its root-value check")

    table, built = tables.load_or_build(table_key(game), build, check, rebuild=rebuild, on_problem=on_problem)
    seconds = float(table.manifest.get("solve_seconds", 0.0)) if built else time.perf_counter() - start
    return DuelSolution(model, table.arrays["values"]), seconds, built
