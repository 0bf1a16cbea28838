"""Push-your-luck games solved for the probability of winning (optimal play by both), and exact
evaluation of any two fixed strategies against each other.

``PushTable.table[m, o, t]`` is the probability that the player to move wins with banked score ``m``
against ``o`` and turn total ``t`` at risk (``m + t < goal``). Solved with the kernels in
``pushluck.kernels`` to a tolerance of 1e-12 (largest change of a start-of-turn value in the last
sweep) and cached like the other tables.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cached_property
from typing import Callable

import numpy as np

from ..core import tables
from ..core.errors import InputError, TableError
from ..core.arrays import frozen
from .rules import Outcomes, PushGame

TOLERANCE = 1e-12
MAX_SWEEPS = 1000
KIND = "pushluck"
THRESHOLD_ROWS = 4096  # rows whose stop/go list a table remembers
_NO_POLICY = np.zeros((1, 1, 1), dtype=np.int8)


def contiguous(policy: np.ndarray) -> np.ndarray:
    """A policy as the kernels take it: int8, C order (a strategy's view or transposed table would compile
    the sweep again for its layout)."""
    return np.ascontiguousarray(policy, dtype=np.int8)


def game_arrays(game: PushGame) -> Outcomes:
    """The throw's effects as the kernels read them: points added and their probabilities, bust, reset."""
    bust, reset, adds = game.outcomes()
    points = np.array(list(adds), dtype=np.int64)
    probs = np.array([float(p) for p in adds.values()], dtype=np.float64)
    return Outcomes(frozen(points), frozen(probs), float(bust), float(reset))


@dataclass(frozen=True)
class Sweeps:
    """How the value iteration ended: the sweeps made, the last sweep's largest change, the seconds taken."""

    sweeps: int
    last_change: float
    seconds: float


def _initial(goal: int) -> np.ndarray:
    """Start values: 1/2 where play goes on, 1 where the turn total reaches the goal (the mover holds
    and wins; the kernels never read those cells, but users of the table may)."""
    table = np.full((goal, goal, goal), 0.5)
    m = np.arange(goal)[:, None, None]
    t = np.arange(goal)[None, None, :]
    table[np.broadcast_to(m + t >= goal, table.shape)] = 1.0
    return table


def solve(game: PushGame, tol: float = TOLERANCE) -> tuple[np.ndarray, Sweeps]:
    """The optimal win-probability table of ``game`` (solved now, not cached)."""
    start = time.perf_counter()
    table = _initial(game.goal)
    changes = np.zeros(MAX_SWEEPS)
    from .kernels import solve_tables  # numba is loaded by what needs it: advice from a table does not

    sweeps = solve_tables(game.goal, table, table, _NO_POLICY, _NO_POLICY, True, game_arrays(game), tol, MAX_SWEEPS,
                          changes)
    if sweeps == MAX_SWEEPS and changes[sweeps - 1] > tol:
        raise RuntimeError(f"{game.canonical}: no convergence after {sweeps} sweeps")
    return table, Sweeps(int(sweeps), float(changes[sweeps - 1]), time.perf_counter() - start)


def evaluate(game: PushGame, policy_a: np.ndarray, policy_b: np.ndarray, tol: float = TOLERANCE) -> tuple[np.ndarray, np.ndarray]:
    """Exact win probabilities of two fixed strategies (``policy[m, o, t]``: 1 throw, 0 hold).

    Returns (A's table, B's table): each the probability that the player to move (A in the first, B in
    the second) wins from (own score, other's score, turn total)."""
    shape = (game.goal,) * 3
    for policy in (policy_a, policy_b):
        if policy.shape != shape:
            raise InputError(f"a strategy for {game.canonical} needs a policy of shape {shape}")
    first = _initial(game.goal)
    second = _initial(game.goal)
    changes = np.zeros(MAX_SWEEPS)
    from .kernels import solve_tables

    sweeps = solve_tables(game.goal, first, second, contiguous(policy_a), contiguous(policy_b), False,
                          game_arrays(game), tol, MAX_SWEEPS, changes)
    if sweeps == MAX_SWEEPS and changes[sweeps - 1] > tol:
        raise RuntimeError(f"{game.canonical}: policy evaluation did not converge")
    return first, second


@dataclass
class PushTable:
    game: PushGame
    table: np.ndarray  # float64 [goal, goal, goal]

    @property
    def root_value(self) -> float:
        return float(self.table[0, 0, 0])

    def check_state(self, mine: int, theirs: int, turn_total: int = 0) -> None:
        goal = self.game.goal
        if not (0 <= mine < goal and 0 <= theirs < goal):
            raise InputError(f"scores must be between 0 and {goal - 1} (a score of {goal} has won)")
        if turn_total < 0:
            raise InputError("the turn total cannot be negative")

    def win(self, mine: int, theirs: int, turn_total: int = 0) -> float:
        """Probability that the player to move wins (1 once the turn total reaches the goal)."""
        self.check_state(mine, theirs, turn_total)
        if mine + turn_total >= self.game.goal:
            return 1.0
        return float(self.table[mine, theirs, turn_total])

    @cached_property
    def rolls(self) -> np.ndarray:
        """The value of throwing at every state (NaN where the goal is reached)."""
        from .kernels import roll_values

        return roll_values(self.game.goal, frozen(self.table), game_arrays(self.game))

    def roll_value(self, mine: int, theirs: int, turn_total: int) -> float:
        self.check_state(mine, theirs, turn_total)
        if mine + turn_total >= self.game.goal:
            raise InputError("the goal is reached: hold to win")
        return float(self._row_rolls(mine, theirs)[turn_total])

    def _row_rolls(self, mine: int, theirs: int) -> np.ndarray:
        """The value of throwing at (mine, theirs, t) for every t with mine + t < goal: kernels.roll_values
        for one row, in numpy and in the kernel's order of operations (the same bits), so that advice
        from a table on disk does not load numba."""
        goal = self.game.goal
        points, probs, bust, reset = self._effects
        after = np.arange(goal - mine)[:, None] + points[None, :]
        reached = np.where(mine + after < goal, self.table[mine, theirs, np.minimum(after, goal - 1)], 1.0)
        roll = np.full(goal - mine, bust * (1.0 - self.table[theirs, mine, 0]) + reset * (1.0 - self.table[theirs, 0, 0]))
        for e in range(len(points)):
            roll += probs[e] * reached[:, e]
        return roll

    def hold_value(self, mine: int, theirs: int, turn_total: int) -> float:
        """Value of banking the turn total (None-like NaN when nothing is at risk: a turn starts with a throw)."""
        self.check_state(mine, theirs, turn_total)
        if turn_total == 0:
            return float("nan")
        if mine + turn_total >= self.game.goal:
            return 1.0
        return 1.0 - float(self.table[theirs, mine + turn_total, 0])

    def should_roll(self, mine: int, theirs: int, turn_total: int) -> bool:
        if mine + turn_total >= self.game.goal:
            return False
        return turn_total == 0 or self.roll_value(mine, theirs, turn_total) > self.hold_value(mine, theirs, turn_total)

    @cached_property
    def policy(self) -> np.ndarray:
        """1 where throwing is optimal (strictly better than holding, or nothing is at risk), else 0."""
        goal = self.game.goal
        holds = np.empty_like(self.table)
        start = self.table[:, :, 0]  # start[o, m]: the opponent's turn after I bank m
        for t in range(goal):
            # hold at (m, o, t) = 1 - start[o, m + t]
            shifted = np.full((goal, goal), np.nan)
            shifted[: goal - t, :] = 1.0 - start[:, t:].T
            holds[:, :, t] = shifted
        policy = (self.rolls > holds).astype(np.int8)
        policy[:, :, 0] = 1
        mine = np.arange(goal)[:, None, None]
        turn = np.arange(goal)[None, None, :]
        policy[np.broadcast_to(mine + turn >= goal, policy.shape)] = 0
        policy.flags.writeable = False  # shared by every bot of the table
        return policy

    @cached_property
    def _effects(self) -> Outcomes:
        """``game_arrays`` of this table's game, made once (each advice reads a row: 60 µs of fractions a time)."""
        return game_arrays(self.game)

    @cached_property
    def _thresholds(self) -> dict[tuple[int, int], tuple[int, ...]]:
        return {}

    def thresholds(self, mine: int, theirs: int) -> list[int]:
        """The seed's alternating STOP/GO list: the turn totals where the best action switches (from
        throwing at 0), the goal counting as a STOP. Remembered by row (each advice asks twice)."""
        self.check_state(mine, theirs)
        known = self._thresholds.get((mine, theirs))
        if known is None:
            if len(self._thresholds) >= THRESHOLD_ROWS:
                self._thresholds.clear()
            known = self._thresholds[mine, theirs] = tuple(self._switches(mine, theirs))
        return list(known)

    def _switches(self, mine: int, theirs: int) -> list[int]:
        goal = self.game.goal
        t = np.arange(1, goal - mine)  # the turn totals short of the goal (reaching it is a STOP)
        throwing = self._row_rolls(mine, theirs)[t] > 1.0 - self.table[theirs, mine + t, 0]  # as policy decides
        now = np.append(throwing, False)
        before = np.concatenate(([True], now[:-1]))  # a turn starts throwing
        return (np.flatnonzero(now != before) + 1).tolist()


def _check(game: PushGame) -> Callable[[tables.LoadedTable], None]:
    def check(loaded: tables.LoadedTable) -> None:
        table = loaded.arrays.get("win")
        if table is None or table.shape != (game.goal,) * 3 or table.dtype != np.float64:
            raise TableError(f"the {game.canonical} table has the wrong shape")
        if abs(float(table[0, 0, 0]) - float(loaded.manifest.get("root_value", -1))) > 1e-12:
            raise TableError(f"the {game.canonical} table does not match its manifest")
    return check


@dataclass(frozen=True)
class LoadInfo:
    built: bool
    seconds: float
    sweeps: int
    directory: str
    table_bytes: int


def load_or_solve(game: PushGame, rebuild: bool = False,
                  on_problem: Callable[[str], None] | None = None) -> tuple[PushTable, LoadInfo]:
    """The cached solution (solved and saved on first use)."""
    start = time.perf_counter()
    key = tables.TableKey(KIND, game.canonical, game.fingerprint)

    def build():
        table, info = solve(game)
        return {"win": table}, float(table[0, 0, 0]), {"sweeps": info.sweeps, "last_change": info.last_change,
                                                       "tolerance": TOLERANCE}

    loaded, built = tables.load_or_build(key, build, _check(game), rebuild=rebuild, on_problem=on_problem)
    table = frozen(loaded.arrays["win"])
    info = LoadInfo(built, time.perf_counter() - start, int(loaded.manifest.get("sweeps", 0)), str(loaded.directory),
                    int(sum(e["bytes"] for e in loaded.manifest["arrays"].values())))
    return PushTable(game, table), info
