"""Playing for a target: the best chance of finishing a solitaire scorecard game with at least T points,
or of beating a known score S (more than S wins, exactly S counts half).

For every turn-start state and every need n = 0..N of points still to score, a table holds the best chance
of scoring more than n further points, exactly n counting ``tie`` (``kernels``): 1 for targets
("at least n"), 1/2 for a score to beat. The chance of reaching T from the start is the target table's
entry for n = T; one table of N needs answers every target up to N, so the whole curve of the best chance
against the target comes from one solve. Within a turn, the batch answer engine prices every keep and box
for one need from the table (``answers.SolitaireEngine`` with an aim). Built backwards a level at a time like the expected-score table, stored
as float32, cached like every table.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ...core import tables
from ...core.aims import (AT_LEAST, BEAT, MAX_NEED, NEED_STEP, AtLeast, Beat, Field, FinalScoreGoal, Percentile,
                          table_needs)
from ...core.errors import InputError, TableError
from ..game.rules import ScorecardGame
from ..solitaire.table import SolitaireModel, TurnState

KIND = "target-chances"
PROGRESS_PARTS = 16  # progress reports per level


@dataclass
class TargetTable:
    """needs(state)[n]: the best chance of more than n further points from a turn start (exactly n: tie)."""

    game: ScorecardGame
    model: SolitaireModel
    V: np.ndarray  # float32, state index * (N + 1) + n
    N: int
    tie: float = AT_LEAST
    directory: str = ""  # where it is cached
    # a goal's table (its aim N fixed): the most points a game can have scored at each turn start (-1: never
    # reached); the needs below N - most[row] are not solved (None: every need is, as a target's table)
    most: np.ndarray | None = None

    def needs(self, state: TurnState) -> np.ndarray:
        """The best chance for every need n = 0..N from the start of a turn in ``state`` (a goal's table: the
        needs no game reaches there are 0)."""
        i = self.model.index(state)
        return self.V[i * (self.N + 1): (i + 1) * (self.N + 1)].astype(np.float64)

    def chance(self, state: TurnState, need: int) -> float:
        """The best chance for one need (any integer: below 0 the game is already won)."""
        if need < 0:
            return 1.0
        if need > self.N:
            raise InputError(f"this table answers needs up to {self.N} points")
        self.check_reached(state, self.N - need)
        return float(self.needs(state)[need])

    def check_reached(self, state: TurnState, points: int) -> None:
        """InputError where no game reaches ``state`` with ``points`` scored (a goal's table holds no chance
        for it)."""
        if self.most is None:
            return
        most = int(self.most[self.model.index(state)])
        if points > most:
            raise InputError(f"no game has {points} points with these boxes filled (at most {max(most, 0)}): "
                             "check the card")

    def curve(self) -> np.ndarray:
        """The best chance over a whole game, for every need 0..N: for targets, of reaching T points."""
        return self.needs(TurnState(0))


def target_row(N: int, tie: float) -> np.ndarray:
    """A target's (or a score to beat's) full-card row: (tie, 0, ..., 0), no more points."""
    row = np.zeros(N + 1)
    row[0] = tie
    return row


def empty_table(model: SolitaireModel, row: np.ndarray) -> np.ndarray:
    """The table before its solve: zeros, but every full card's row is ``row`` (the goal's utility of each
    need, ``core.aims.FinalScoreGoal.full_card_row``)."""
    W = len(row)
    V = np.zeros(model.size * W, dtype=np.float32)
    full = model.full
    start, stop = int(model.offset[full]), int(model.offset[full + 1])
    V[start * W: stop * W] = np.tile(row.astype(np.float32), stop - start)
    return V


def build(game: ScorecardGame, N: int, progress: Callable[[int, int], None] | None = None,
          tie: float = AT_LEAST, row: np.ndarray | None = None) -> TargetTable:
    """The table of needs 0..N for a target (``tie`` 1) or a score to beat (1/2), or for any goal on the final
    score given its full card's ``row`` (N + 1 utilities, from 0 to 1, never lower for a smaller need)."""
    from ...core.jit import Stripes
    from .kernels import target_level

    if not 1 <= N <= MAX_NEED:
        raise InputError(f"a target is between 1 and {MAX_NEED} points")
    if game.n_players != 1:
        raise InputError("a target is one player's own score: solve the game for one player")
    model = SolitaireModel(game)
    from ..game.size import check_table, needs_cost

    # one float32 chance for every turn start and points still needed (Yahtzee to 300: 0.7 GB)
    check_table(game, f"the chance of each need up to {N} from each of its {model.size:,} turn starts",
                needs_cost(game, N))
    goal = row is not None
    row = target_row(N, tie) if row is None else check_row(row, N)
    V = empty_table(model, row)
    # a target's table answers any target, so every need from every row; a goal's aim is N, so a row needs
    # only the needs N - points for the points a game can have there (Yahtzee's field of 10: a quarter)
    most = most_points(model) if goal else None
    first_need = (np.where(most >= 0, np.clip(N - most, 0, N), N + 1) if most is not None
                  else np.zeros(model.size, dtype=np.int64))
    levels = model.levels()[:-1]  # the full card's level is the row set above
    work = [row_work(model, lv, first_need, N) for lv in levels]
    total, done = float(sum(w.sum() for w in work)), 0.0
    with Stripes() as stripes:  # one pool of threads for every level
        for k in range(len(levels) - 1, -1, -1):
            # a level in parts, so that a long build reports its progress often enough to be estimated
            for part in np.array_split(np.arange(len(levels[k])), PROGRESS_PARTS if progress else 1):
                if len(part):
                    stripes.each(target_level, levels[k][part[0]: part[-1] + 1], V, N, first_need, model.rules,
                                 game.dice.graph, game.rolls - 1)
                    done += float(work[k][part].sum())
                    if progress:
                        progress(int(done), int(total))
    return TargetTable(game, model, V, N, tie, most=most)


def most_points(model: SolitaireModel) -> np.ndarray:
    """The most points a game can have scored at each turn-start row (-1 where none arrives), int32."""
    from .kernels import most_points as forward

    levels = model.levels()
    most = np.full(model.size, -1, dtype=np.int64)
    most[model.index(TurnState(0))] = 0
    forward(np.concatenate(levels), np.cumsum([0] + [len(lv) for lv in levels]), model.rules, most)
    return most.astype(np.int32)


def row_work(model: SolitaireModel, sets: np.ndarray, first_need: np.ndarray, N: int) -> np.ndarray:
    """Each used set's needs to solve, over its rows (the build's progress is counted in these)."""
    out = np.zeros(len(sets))
    for i, u in enumerate(sets):
        start, stop = int(model.offset[u]), int(model.offset[u + 1])
        out[i] = np.clip(N + 1 - first_need[start:stop], 0, None).sum()
    return out


def check_row(row: np.ndarray, N: int) -> np.ndarray:
    """A goal's full-card row, checked: N + 1 utilities in [0, 1], none above a smaller need's."""
    row = np.asarray(row, dtype=np.float64)
    if row.shape != (N + 1,) or not np.all((row >= 0) & (row <= 1)) or np.any(np.diff(row) > 0):
        raise InputError("a goal's utilities are N + 1 chances from 0 to 1, none rising with the need")
    return row


def fingerprint(game: ScorecardGame, N: int, tie: float, row: np.ndarray | None = None) -> str:
    if row is None:  # a target or a score to beat: keyed as before goals had rows
        return hashlib.sha256(f"{KIND}-v2:{game.fingerprint}:{N}:{tie}".encode()).hexdigest()
    # the utilities to 1e-12 (far below the table's float32): a refactor of their formula keeps the table
    utilities = hashlib.sha256(np.round(np.asarray(row, dtype=np.float64) * 1e12).tobytes()).hexdigest()
    return hashlib.sha256(f"{KIND}-v2:{game.fingerprint}:{N}:row:{utilities}".encode()).hexdigest()


def load_or_build(game: ScorecardGame, N: int, progress: Callable[[int, int], None] | None = None,
                  on_problem: Callable[[str], None] | None = None, tie: float = AT_LEAST,
                  row: np.ndarray | None = None, what: str | None = None) -> tuple[TargetTable, bool, float]:
    """(table, built now, seconds). ``row`` and ``what``: any goal's table, its full card's row and the
    goal in words for the cache's listing."""
    start = time.perf_counter()
    model = SolitaireModel(game)
    what = what or ("targets" if tie == AT_LEAST else "scores to beat")
    key = tables.TableKey(KIND, f"{game.canonical} {what} to {N}", fingerprint(game, N, tie, row))

    def make():
        table = build(game, N, progress, tie, row)
        arrays = {"V": table.V} if table.most is None else {"V": table.V, "most": table.most}
        return arrays, float(table.curve()[N]), {"game": game.canonical, "needs": N, "tie": tie, "goal": what}

    def check(loaded: tables.LoadedTable) -> None:
        V = loaded.arrays.get("V")
        if V is None or V.dtype != np.float32 or V.shape != (model.size * (N + 1),):
            raise TableError(f"the {game.canonical} target table has the wrong shape")
        most = loaded.arrays.get("most")  # a goal's table written before 2026-12-07 has every need and no "most"
        if most is not None and (most.dtype != np.int32 or most.shape != (model.size,)):
            raise TableError(f"the {game.canonical} goal table's reach has the wrong shape")

    loaded, built = tables.load_or_build(key, make, check, on_problem=on_problem)
    table = TargetTable(game, model, loaded.arrays["V"], N, tie, str(loaded.directory), loaded.arrays.get("most"))
    return table, built, time.perf_counter() - start


def load_or_build_goal(game: ScorecardGame, goal: FinalScoreGoal, progress: Callable[[int, int], None] | None = None
                       ) -> tuple[TargetTable, FinalScoreGoal, bool, float]:
    """Any goal's table (table, the goal resolved, built now, seconds): a field without scores plays against
    the game's mean-players, their exact final-score distribution (built and cached as ``distribution``); a
    percentile is the target T found in the target tables (from the mean-players' q-th percentile up)."""
    def mean_players():
        from ..solitaire.distribution_cache import load_or_build as load_distribution
        from ..solitaire.table import load_or_solve

        return load_distribution(game, lambda: load_or_solve(game, progress=progress)[0], progress, 0.0)[0]

    if isinstance(goal, Field) and goal.others is None:
        goal = goal.against(mean_players().probabilities, "players who play for the mean")
    if isinstance(goal, Percentile) and not goal.score:
        goal = goal.resolved(best_percentile(game, goal.q, mean_players().percentile(goal.q), progress))
    targets = isinstance(goal, (AtLeast, Beat))  # targets share tables of needs by NEED_STEP
    table, built, seconds = load_or_build(game, goal.needs(), progress,
                                          tie=BEAT if isinstance(goal, Beat) else AT_LEAST,
                                          row=None if targets else goal.full_card_row(),
                                          what=None if targets else goal.text())
    return table, goal, built, seconds


def best_percentile(game: ScorecardGame, q: float, start: int, progress: Callable[[int, int], None] | None = None
                    ) -> int:
    """The highest q-th percentile of the final score any play reaches: the largest T with a best chance of at
    least T points over 1 - q/100, from target tables of needs from ``start`` (the mean-players' q-th
    percentile: no less) up, the table doubled while its last target is still that likely."""
    N = table_needs(max(start + NEED_STEP, 1))
    while True:
        curve = load_or_build(game, N, progress)[0].curve()
        likely = np.nonzero(curve > 1 - q / 100)[0]
        if likely[-1] < N or N >= MAX_NEED:
            return max(int(likely[-1]), 1)
        N = min(table_needs(2 * N), MAX_NEED)
