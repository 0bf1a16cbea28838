"""Two-person Farkle solved for the probability of winning, by value iteration over turn starts.

``FarkleTable.starts[i, j, f, g]`` is the probability that the player to move wins at the start of a
turn with banked scores ``floor + 50 i`` (theirs) and ``floor + 50 j`` (the opponent's) and ``f`` and
``g`` Farkles in a row. Every other state (a turn total at risk, dice on the table) is valued by solving
that turn backwards from these numbers (``kernels.turn``), which takes well under a millisecond.

The sweeps (``kernels.sweep``) run until no turn start moves by more than ``TOLERANCE``. The table is
built in place (``core.inplace``) with a checkpoint after each sweep, so a killed solve resumes from its
last sweep: value iteration converges from any start, so resuming changes nothing but the time.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..core import inplace, tables
from ..core.arrays import frozen
from ..core.errors import TableError
from .rules import UNIT, FarkleGame

TOLERANCE = 1e-10
MAX_SWEEPS = 200
KIND = "farkle"
Progress = Callable[[int, int], None]


def table_shape(game: FarkleGame) -> tuple[int, int, int, int]:
    size = (game.goal - game.floor) // UNIT
    return size, size, game.farkle_limit, game.farkle_limit


def state_count(game: FarkleGame) -> int:
    """Every (scores, Farkles in a row, turn total, dice to throw) with the turn total short of a win, six
    dice counts for each turn total, 0 included: 423,562,500 for Facebook Farkle. Busche's 423,765,000 is
    the count with a least bank of 300, where reaching the goal with less at risk does not win
    (docs/RULES.md)."""
    size = (game.goal - game.floor) // UNIT
    turn_totals = sum(game.wins_from(game.floor + UNIT * i) // UNIT for i in range(size))
    return turn_totals * 6 * size * game.farkle_limit ** 2


@dataclass(frozen=True)
class SolveFacts:
    sweeps: int
    last_change: float
    seconds: float
    resumed: bool


def solve_in(game: FarkleGame, starts: np.ndarray, done: int = 0, progress: Progress | None = None,
             after_sweep: Callable[[int, float], None] | None = None, tol: float = TOLERANCE) -> SolveFacts:
    """Sweep ``starts`` (any values: a fresh 1/2 or a checkpoint's) until it converges."""
    from .kernels import sweep  # numba is loaded by what needs it

    begin = time.perf_counter()
    rules, throws = game.kernel_rules, game.classes.arrays()
    changes: list[float] = []
    for k in range(done, MAX_SWEEPS):
        change = float(sweep(starts, rules, throws, tol))
        changes.append(change)
        if after_sweep:
            after_sweep(k + 1, change)
        if progress:
            progress(k + 1, k + 1 + _sweeps_to_go(changes, tol))
        if change <= tol:
            return SolveFacts(k + 1, change, time.perf_counter() - begin, done > 0)
    raise RuntimeError(f"{game.canonical}: no convergence after {MAX_SWEEPS} sweeps")


def initial_values(game: FarkleGame) -> np.ndarray:
    """A starting point for the sweeps: a logistic guess in the difference of the points each player still
    needs, half a turn's points to the mover. Value iteration converges from any start; from 1/2 the
    penalty's stale values take about six sweeps to settle near the floor, from this guess a few fewer."""
    size = table_shape(game)[0]
    score = game.floor + UNIT * np.arange(size)
    lead = (game.goal - score[None, :]) - (game.goal - score[:, None]) + 275
    guess = 1.0 / (1.0 + np.exp(-lead / (game.goal / 4)))
    return np.broadcast_to(guess[:, :, None, None], table_shape(game)).copy()


def _sweeps_to_go(changes: list[float], tol: float) -> int:
    """A guess for the progress bar: the last two sweeps' rate of convergence, continued."""
    if changes[-1] <= tol:
        return 0
    if len(changes) < 2 or not 0 < changes[-1] < changes[-2]:
        return 8
    rate = changes[-1] / changes[-2]
    return max(1, math.ceil(math.log(tol / changes[-1]) / math.log(rate)))


@dataclass
class FarkleTable:
    game: FarkleGame
    starts: np.ndarray  # float64 (size, size, limit, limit)

    @property
    def root_value(self) -> float:
        i = -self.game.floor // UNIT
        return float(self.starts[i, i, 0, 0])


def load_or_solve(game: FarkleGame, progress: Progress | None = None, rebuild: bool = False,
                  on_problem: Callable[[str], None] | None = None) -> tuple[FarkleTable, bool, float, dict]:
    """The cached table (solved, with a checkpoint per sweep, on first use): (solution, solved now,
    seconds, manifest)."""
    begin = time.perf_counter()
    key = tables.TableKey(KIND, game.canonical, game.fingerprint)
    shape = table_shape(game)

    def cached() -> tables.LoadedTable | None:
        try:
            loaded = tables.load(key)
            starts = loaded.arrays["starts"]
            if starts.shape != (int(np.prod(shape)),) or starts.dtype != np.float64:
                raise TableError(f"the {game.canonical} table in {loaded.directory} has the wrong shape")
            root = float(starts.reshape(shape)[(-game.floor // UNIT,) * 2 + (0, 0)])
            if abs(root - float(loaded.manifest.get("root_value", -1))) > 1e-12:
                raise TableError(f"the {game.canonical} table in {loaded.directory} does not match its manifest")
            return loaded
        except TableError as exc:
            if key.directory.exists() and on_problem:
                on_problem(f"{exc}; rebuilding it")
            return None

    loaded = None if rebuild else cached()
    built = loaded is None
    if built:
        def fill(build: inplace.InPlaceBuild) -> tuple[float, dict]:
            cells = int(np.prod(shape))
            segment = build.segment("starts", 0, cells, writable=True)
            starts = np.array(segment).reshape(shape)
            done = len(build.done)
            if not done:
                starts[:] = initial_values(game)

            def checkpoint(k: int, change: float) -> None:
                segment[:] = starts.reshape(-1)
                build.checkpoint(f"sweep {k}", [segment])

            facts = solve_in(game, starts, done, progress, checkpoint)
            solution = FarkleTable(game, starts)
            return solution.root_value, {"sweeps": facts.sweeps, "last_change": facts.last_change,
                                         "tolerance": TOLERANCE, "resumed": facts.resumed,
                                         "solve_seconds": facts.seconds, "states": state_count(game)}

        bad = key.directory.exists()  # a table there failed its checks: build anew (none: another may finish it)
        inplace.run(key, {"starts": (int(np.prod(shape)), "float64")}, fill, restart=rebuild,
                    reuse=not (rebuild or bad))
        loaded = cached()
    if loaded is None:
        raise TableError(f"the table just written in {key.directory} does not load")
    starts = frozen(np.asarray(loaded.arrays["starts"]).reshape(shape))
    return FarkleTable(game, starts), built, time.perf_counter() - begin, dict(loaded.manifest)
