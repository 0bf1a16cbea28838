"""Why a Despirala option is worth what it is (``dicesolver advise despirala ... --explain``, ``ds.explain``):
its expected final score split over what produces it (each combination's points still to come, the goods
left at the end, the points already scored) under the expected-score strategy, and the standard deviation
of the final score.

Every turn start's split and variance are a table (``kernels/breakdown.py``), built once from the
expected-score table level by level, as that table is, and cached like every table (2**14 sets of free
combinations x 76 goods x 16 float64: 160 MB). A position inside a turn is played out to the turn's end
through the game's own protocol, each decision the strategy's, each turn end read from the table;
the points a turn scores go to the combination that scores them."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..core import tables
from ..core.arrays import frozen
from ..core.errors import TableError
from ..core.family import TableSize, tell_stage
from ..core.why import Split
from .future import most_goods
from .rules import ALL_FREE, COMBINATIONS, GOODS_PER_TURN, Move
from .solver import H, DespiralaTable, collect_values, kernel_throws, throw_values
from .state import COLLECT, THROW, DespiralaState

KIND = "despirala-breakdown"
GOODS, SO_FAR = "goods_left", "points_so_far"
TURN_STARTS_PER_SECOND = 45_000  # the sweep's pace on the 2-core machine, every (set, goods) cell (BENCHMARKS.md)
N_PARTS = len(COMBINATIONS) + 2  # the combinations, the final goods, the points so far


def aspect_names() -> list[str]:
    """The split's parts: each combination by name ("collect_1", "three_pairs", ...), the goods left at the end,
    the points scored before the position."""
    return [c.name.lower().replace(" ", "_") for c in COMBINATIONS] + [GOODS, SO_FAR]


def aspect_titles() -> dict[str, str]:
    return dict(zip(aspect_names(), [c.name for c in COMBINATIONS] + ["goods left at the end", "points so far"]))


@dataclass(frozen=True)
class DespiralaBreakdown:
    """Every turn start's expected points by combination and final goods (``parts[mask, h]``) and the variance
    of its points still to come plus final goods (``variance[mask, h]``), ``h`` the goods (this turn's 5
    included)."""

    mode: str
    parts: np.ndarray  # float64 [2**14, H, combinations + 1]
    variance: np.ndarray  # float64 [2**14, H]


def sweep(solution: DespiralaTable, progress: Callable[[int, int], None] | None = None,
          within: int = ALL_FREE) -> DespiralaBreakdown:
    """The table (its sets of free combinations inside ``within`` only: the others stay zero)."""
    from ..core.jit import Stripes
    from .kernels.breakdown import breakdown_level

    mode = solution.mode
    W = np.ascontiguousarray(solution.W)
    parts = np.zeros((ALL_FREE + 1, H, len(COMBINATIONS) + 1))
    variance = np.zeros((ALL_FREE + 1, H))
    masks = np.array([m for m in range(1, ALL_FREE + 1) if not m & ~within], dtype=np.int64)
    sizes = np.array([int(m).bit_count() for m in masks])
    with Stripes() as stripes:  # one pool of threads for every level
        for k in range(1, len(COMBINATIONS) + 1):
            level = masks[sizes == k]
            if len(level):
                stripes.each(breakdown_level, parts, variance, level, most_goods((1 << k) - 1), W, kernel_throws(mode))
            if progress:
                progress(int((sizes <= k).sum()), len(masks))
    return DespiralaBreakdown(mode, parts, variance)


def breakdown_size() -> TableSize:
    turn_starts = (ALL_FREE + 1) * H
    return TableSize(turn_starts * (len(COMBINATIONS) + 2) * 8, turn_starts / TURN_STARTS_PER_SECOND)


def load_or_build(solution: DespiralaTable, progress: Callable[[int, int], None] | None = None) -> DespiralaBreakdown:
    """The table of ``solution``'s mode: from the cache, or built now (with ``progress``) and cached."""
    fingerprint = hashlib.sha256(f"{KIND}-v1:{solution.mode}:{H}".encode()).hexdigest()
    key = tables.TableKey(KIND, f"despirala({solution.mode}) breakdown", fingerprint)

    def build():
        tell_stage(progress, f"explaining every one of its {(ALL_FREE + 1) * H:,} turn starts, once")
        started = time.perf_counter()
        table = sweep(solution, progress)
        return ({"parts": table.parts, "variance": table.variance}, _root(table),
                {"mode": solution.mode, "seconds": round(time.perf_counter() - started, 2)})

    def check(loaded: tables.LoadedTable) -> None:
        parts, variance = loaded.arrays.get("parts"), loaded.arrays.get("variance")
        if (parts is None or variance is None or parts.shape != (ALL_FREE + 1, H, len(COMBINATIONS) + 1)
                or variance.shape != (ALL_FREE + 1, H)
                or abs(_root(DespiralaBreakdown(solution.mode, parts, variance)) - solution.root_value) > 1e-6):
            raise TableError(f"the Despirala {solution.mode} breakdown table in {loaded.directory} does not fit")

    loaded, _ = tables.load_or_build(key, build, check)
    return DespiralaBreakdown(solution.mode, frozen(loaded.arrays["parts"]), frozen(loaded.arrays["variance"]))


def _root(table: DespiralaBreakdown) -> float:
    return float(table.parts[ALL_FREE, GOODS_PER_TURN].sum())


def turn_split(values: DespiralaTable, table: DespiralaBreakdown, state: DespiralaState
               ) -> tuple[Split, list[Split]]:
    """The split of ``state`` for its mover and of each of its options (in ``legal_actions`` order): the turn
    played out through the protocol with the strategy's moves (``strategy_move`` on ``values``), its end read
    from the table."""
    me, turn = state.mover, state.turn_key()
    seen: dict[DespiralaState, tuple[np.ndarray, float]] = {}

    def settled(s: DespiralaState) -> tuple[np.ndarray, float]:
        """The mover's points to come when a throw is due or the turn is over (0 so far)."""
        seat = s.seats[me]
        out = np.zeros(N_PARTS)
        if s.is_terminal() or seat.free == 0:
            out[len(COMBINATIONS)] = seat.goods
            return out, 0.0
        h = min(seat.goods if s.mover == me and s.phase == THROW else seat.goods + GOODS_PER_TURN, H - 1)
        out[:-1] = table.parts[seat.free, h]
        return out, float(table.variance[seat.free, h])

    def future(s: DespiralaState) -> tuple[np.ndarray, float]:
        if s.phase == THROW or s.is_terminal() or s.turn_key() != turn:
            return settled(s)
        if s not in seen:
            if s.is_chance():
                seen[s] = _mixture([(p, after(s, step)) for step, p in s.chance_outcomes()])
            else:
                seen[s] = after(s, strategy_move(values, s))
        return seen[s]

    def after(s: DespiralaState, step) -> tuple[np.ndarray, float]:
        nxt = s.apply(step)
        parts, var = future(nxt)
        gain = nxt.seats[me].points - s.seats[me].points
        if gain:
            parts = parts.copy()
            parts[step.combination if isinstance(step, Move) and step.kind == "pick" else s.combination] += gain
        return parts, var

    def split(found: tuple[np.ndarray, float]) -> Split:
        parts, var = found
        parts = parts.copy()
        parts[-1] = state.seats[me].points
        return Split(parts, float(np.sqrt(max(var, 0.0))))

    options = [split(after(state, step)) for step in state.legal_actions()] if state.to_move() is not None else []
    return split(future(state)), options


def strategy_move(table: DespiralaTable, state: DespiralaState) -> Move:
    """The expected-score strategy's move, as its kernels make it (``expected_choice``, ``collect_goes_on``):
    the first best of its own values, which leave out the points so far. The judge's values add them, and an
    exact tie (a last turn's Collect often is one: a good spent for a third of a die's points) may not
    survive the sum."""
    sign = 1.0 if table.mode == "normal" else -1.0
    seat = state.seat
    if state.phase == COLLECT:
        combo = COMBINATIONS[state.combination]
        values = collect_values(table, seat.free & ~(1 << combo.index), combo.collect_face(), state.have, seat.goods)
        go = values.get("continue")
        return Move("continue") if go is not None and sign * go > sign * values["stop"] else Move("stop")
    chosen, best = None, 0.0
    for move, value in throw_values(table, seat.free, seat.goods, state.dice):
        if chosen is None or sign * value > sign * best:
            chosen, best = move, value
    if chosen is None:
        raise AssertionError(f"no move at {state}")
    return chosen


def _mixture(branches: list[tuple[float, tuple[np.ndarray, float]]]) -> tuple[np.ndarray, float]:
    """The parts and variance of a mixture of branches (the law of total variance)."""
    parts = sum(p * b[0] for p, b in branches)
    mean = sum(p * float(b[0].sum()) for p, b in branches)
    var = sum(p * (b[1] + (float(b[0].sum()) - mean) ** 2) for p, b in branches)
    return np.asarray(parts, dtype=np.float64), float(var)
