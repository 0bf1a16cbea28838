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

import hashlib
import time
from dataclasses import dataclass
from functools import cached_property
from typing import Callable

import numpy as np

from ...core import tables
from ...core.errors import TableError
from ..game.kernel_rules import lane_of
from ..game.position import Position
from ..game.rules import ScorecardGame
from ..game.size import check_solvable

ProgressCallback = Callable[[int, int], None]


@dataclass(frozen=True)
class TurnState:
    """The start of a turn: used categories (bit mask), progress code toward the set bonuses (the capped upper
    total where the upper bonus is the only one), and the yacht-flag group (``Position.progress``, ``group``)."""

    used: int
    progress: int = 0
    group: int = 0

    @classmethod
    def of(cls, game: ScorecardGame, card: Position) -> TurnState:
        """The turn start of a player's card (whatever the dice of this turn show)."""
        return cls(card.used, card.progress(game), card.group(game))


class SolitaireModel:
    """A game compiled for the kernels: the table layout and every rule array."""

    def __init__(self, game: ScorecardGame):
        self.game = game
        self.n_sets = 1 << game.n_categories
        self.full = self.n_sets - 1
        self.rules = rules = game.kernel_rules  # what every kernel is given: the rules and the table's layout
        self.offset, self.n_bonus_lanes, self.n_groups = rules.offset, rules.n_bonus_lanes, rules.n_groups
        self.size = int(self.offset[-1])
        dice = game.dice
        self.keep_add = dice.keep_add
        self.sub_ptr, self.sub_idx = dice.keep_sub
        self.roll_offset = dice.roll_offset
        self.roll_prob = dice.roll_probabilities
        self.n_keeps = dice.n_keeps
        self.max_lanes = int((self.n_bonus_lanes * self.n_groups).max())

    # -- states and lanes ------------------------------------------------------------------------
    def lane(self, state: TurnState) -> int:
        u = state.used
        lu = int(self.n_bonus_lanes[u])
        g = min(int(state.group), int(self.n_groups[u]) - 1)
        return g * lu + lane_of(self.rules, u, state.progress)

    def index(self, state: TurnState) -> int:
        return int(self.offset[state.used]) + self.lane(state)

    def levels(self) -> list[np.ndarray]:
        """The used-category sets to solve, grouped by how many boxes are used (reachable ones only)."""
        n = self.game.n_categories
        if self.rules.forced_order:
            return [np.array([(1 << k) - 1], dtype=np.int64) for k in range(n + 1)]
        masks = np.arange(self.n_sets, dtype=np.int64)
        pop = np.array([bin(m).count("1") for m in range(self.n_sets)])
        return [masks[pop == k] for k in range(n + 1)]

    # -- solving ----------------------------------------------------------------------------------
    def compile_parallel_solve(self) -> None:
        """Compile (or load) the parallel solve kernel, on a level of no sets: the next solves use it."""
        from ...core.jit import thread_count
        from .kernels.solve import solve_level

        values = np.zeros(self.size, dtype=np.float64)
        solve_level(self.levels()[0][:0], values, self.rules,
                    self.keep_add, self.sub_ptr, self.sub_idx, self.roll_prob, self.roll_offset, self.game.rolls - 1,
                    thread_count(), goal_of(0.0))

    def solve(self, progress: ProgressCallback | None = None, parallel: bool | None = None,
              theta: float = 0.0) -> np.ndarray:
        """All turn-start values, by backward induction over the number of used categories: expected future
        points, or for a risk appetite ``theta`` != 0 their certainty equivalents (ln E[exp(theta X)] / theta).
        ``parallel``: by numba's parallel kernel (default: where it is compiled), else by its stripes on
        Python's threads (the same table to the bit)."""
        from ...core.jit import Stripes, compiled, thread_count
        from .kernels.solve import solve_level, solve_stripe  # numba is loaded only by what needs it

        values = np.zeros(self.size, dtype=np.float64)
        goal = goal_of(theta)
        levels = self.levels()
        n = len(levels) - 1
        work = [float((self.n_bonus_lanes[lv] * self.n_groups[lv]).sum()) for lv in levels]
        total = sum(work[:n])
        done = 0.0
        args = (values, self.rules, self.keep_add,
                self.sub_ptr, self.sub_idx, self.roll_prob, self.roll_offset, self.game.rolls - 1)
        if parallel is None:  # else the stripes on Python's threads: compiled in half the time
            parallel = compiled(solve_level)
        with Stripes(1 if parallel else None) as stripes:
            for k in range(n - 1, -1, -1):
                level = levels[k]
                if parallel:
                    solve_level(level, *args, thread_count(), goal)
                else:
                    stripes.run(lambda s, count: solve_stripe(np.int64(s), np.int64(count), level, *args, goal))
                done += work[k]
                if progress:
                    progress(int(done), int(total))
        return values


def goal_of(theta: float) -> np.ndarray:
    """The goal the kernels are given, one array as the answer engine's ``aim``: (-1, 0, theta), the mean for
    theta = 0, else a risk appetite's certainty equivalent."""
    return np.array((-1.0, 0.0, float(theta)))


@dataclass
class SolitaireTable:
    """A solved game: turn-start values plus on-demand within-turn values."""

    game: ScorecardGame
    values: np.ndarray
    theta: float = 0.0  # the risk appetite whose certainty equivalents ``values`` are (0: expected points)

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


RISK_TABLE_KIND = "solitaire-ce"


def table_key(game: ScorecardGame, theta: float = 0.0) -> tables.TableKey:
    """The expected-score table's key, or for a risk appetite theta != 0 its certainty-equivalent table's (one
    a theta: the fingerprint names it)."""
    if theta == 0.0:
        return tables.TableKey(TABLE_KIND, game.canonical, game.fingerprint)
    named = hashlib.sha256(f"{game.fingerprint}:theta={float(theta)!r}".encode()).hexdigest()
    return tables.TableKey(RISK_TABLE_KIND, f"{game.canonical}-theta={float(theta):g}", named)


def load_or_solve(
    game: ScorecardGame,
    progress: ProgressCallback | None = None,
    rebuild: bool = False,
    on_problem: Callable[[str], None] | None = None,
    theta: float = 0.0,
) -> tuple[SolitaireTable, TableLoad]:
    """The solved table of a game: from the cache when it is sound, else solved now and cached; for a risk
    appetite ``theta`` != 0, the certainty equivalents of its final score under its best play (a table of
    its own).

    A game too big for this machine is refused before anything is built (size.check_solvable)."""
    check_solvable(game)
    model = SolitaireModel(game)
    root_index = model.index(TurnState(0))
    start = time.perf_counter()

    def build():
        values = model.solve(progress, theta=theta)
        return {"values": values}, float(values[root_index]), {"solve_seconds": time.perf_counter() - start}

    def check(table: tables.LoadedTable) -> None:
        values = table.arrays["values"]
        if values.shape != (model.size,) or not np.isclose(values[root_index], table.manifest["root_value"], rtol=0,
                            atol=1e-9):
            raise TableError(f"table in {table.directory} fails its root-value check")

    table, built = tables.load_or_build(table_key(game, theta), build, check, rebuild=rebuild, on_problem=on_problem)
    values = table.arrays["values"]
    solution = SolitaireTable(game, values, float(theta))
    solution.__dict__["model"] = model
    seconds = float(table.manifest.get("solve_seconds", 0.0)) if built else time.perf_counter() - start
    return solution, TableLoad(built, seconds, str(table.directory), int(values.nbytes))
