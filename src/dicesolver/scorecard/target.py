"""Playing for a target: the best chance of finishing a solitaire scorecard game with at least T points.

For every turn-start state and every need n = 1..N of points still to score, the table holds the best
probability of scoring at least n more (``kernels.target``); the chance of reaching T from the start is
its entry for n = T, and one table of N needs answers every target up to N, so the whole curve of the
best chance against the target comes from one solve. Built backwards a level at a time like the
expected-score table, stored as float32, cached like every table.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..core import tables
from ..core.errors import InputError, TableError
from .rules import ScorecardGame
from .solitaire import SolitaireModel, TurnState

KIND = "target-chances"
MAX_NEED = 2000
NEED_STEP = 50  # tables are built for needs up to a multiple of this, so nearby targets share one


@dataclass
class TargetTable:
    """chance(state, n): the best probability of scoring at least n more points from a turn start."""

    game: ScorecardGame
    model: SolitaireModel
    V: np.ndarray  # float32, state index * N + n - 1
    N: int
    directory: str = ""  # where it is cached

    def needs(self, state: TurnState) -> np.ndarray:
        """The best chance of at least n more points from ``state``, for n = 0..N."""
        out = np.ones(self.N + 1)
        if state.used == self.model.full:
            out[1:] = 0.0
            return out
        i = self.model.index(state)
        out[1:] = self.V[i * self.N: (i + 1) * self.N]
        return out

    def chance(self, state: TurnState, need: int) -> float:
        if need <= 0:
            return 1.0
        if need > self.N:
            raise InputError(f"this table answers targets up to {self.N} points")
        return float(self.needs(state)[need])

    def curve(self) -> np.ndarray:
        """The best chance of reaching T points in a whole game, for T = 0..N."""
        return self.needs(TurnState(0))


def build(game: ScorecardGame, N: int, progress: Callable[[int, int], None] | None = None) -> TargetTable:
    from .kernels.target import target_level

    if not 1 <= N <= MAX_NEED:
        raise InputError(f"a target is between 1 and {MAX_NEED} points")
    if game.n_players != 1:
        raise InputError("a target is one player's own score: solve the game for one player")
    model = SolitaireModel(game)
    V = np.zeros(model.size * N, dtype=np.float32)  # the full card's states stay 0: no more points
    levels = model.levels()
    n = len(levels) - 1
    work = [float((model.n_upper_lanes[lv] * model.n_groups[lv]).sum()) for lv in levels]
    total, done = sum(work[:n]), 0.0
    for k in range(n - 1, -1, -1):
        target_level(levels[k], V, N, model.offset, model.n_upper_lanes, model.n_groups, *model.rule_args(),
                     model.keep_add, model.sub_ptr, model.sub_idx, model.roll_prob, model.roll_offset,
                     game.rolls - 1)
        done += work[k]
        if progress:
            progress(int(done), int(total))
    return TargetTable(game, model, V, N)


def fingerprint(game: ScorecardGame, N: int) -> str:
    return hashlib.sha256(f"{KIND}-v1:{game.fingerprint}:{N}".encode()).hexdigest()


def load_or_build(game: ScorecardGame, N: int, progress: Callable[[int, int], None] | None = None,
                  on_problem: Callable[[str], None] | None = None) -> tuple[TargetTable, bool, float]:
    """(table, built now, seconds)."""
    start = time.perf_counter()
    model = SolitaireModel(game)
    key = tables.TableKey(KIND, f"{game.canonical} targets to {N}", fingerprint(game, N))

    def make():
        table = build(game, N, progress)
        return {"V": table.V}, float(table.curve()[N]), {"game": game.canonical, "needs": N}

    def check(loaded: tables.LoadedTable) -> None:
        V = loaded.arrays.get("V")
        if V is None or V.dtype != np.float32 or V.shape != (model.size * N,):
            raise TableError(f"the {game.canonical} target table has the wrong shape")

    loaded, built = tables.load_or_build(key, make, check, on_problem=on_problem)
    table = TargetTable(game, model, loaded.arrays["V"], N, str(loaded.directory))
    return table, built, time.perf_counter() - start
