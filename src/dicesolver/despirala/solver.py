"""Despirala solved exactly for the expected final score (normal: maximise; misere: minimise).

Completion probabilities are exact: the missing dice of a picked combination only matter through their
*shape* (how many of each still-missing face; faces are interchangeable), so one Markov chain over the
34 shapes gives q[s, t] = P(complete on exactly the t-th rethrow). ``W[mask, h]`` (see
``kernels.expected``) is solved level by level and cached like the other tables.

With a risk appetite theta (normal play) the same solve plays for the certainty equivalent
ln E[exp(theta X)] / theta of the final score X: the table then holds E[exp(theta * what is still to come)]
(``kernels.expected``), and ``certainty`` turns such a value into points.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from math import comb, factorial, prod
from typing import Callable, Iterator

import numpy as np

from ..core import tables
from ..core.aims import check_theta
from ..core.errors import InputError, TableError
from ..core.arrays import frozen
from .arrays import Throws
from .rules import ALL_FREE, COMBINATIONS, FACES, GOODS_PER_TURN, MAX_GOODS, Move, missing, six_dice_throws

H = MAX_GOODS + GOODS_PER_TURN + 1  # goods values 0..75 kept in the tables
MODES = ("normal", "misere")
KIND = "despirala-ev"
FOUR_KIND = 8
COLLECT_TABLES = 1024  # collect_table answers a table remembers (7 x goods floats each: a few MB at most)


# -- shapes of the missing dice ---------------------------------------------------------------------------

@lru_cache(maxsize=None)
def shapes() -> tuple[tuple, ...]:
    """Every shape: ("dice", multiplicities sorted descending) for up to six missing dice, and
    ("foak", k) for Four of a kind missing k of its face (rethrown with the two extra dice)."""
    out: list[tuple] = []

    def partitions(n: int, top: int):
        if n == 0:
            yield ()
            return
        for first in range(min(n, top), 0, -1):
            for rest in partitions(n - first, first):
                yield (first,) + rest

    for n in range(0, 7):
        out.extend(("dice", p) for p in partitions(n, n))
    out.extend(("foak", k) for k in range(1, 5))
    return tuple(out)


@lru_cache(maxsize=None)
def shape_index() -> dict[tuple, int]:
    return {s: i for i, s in enumerate(shapes())}


@lru_cache(maxsize=1 << 16)
def pick_shape(combination: int, args: tuple[int, ...], throw: tuple[int, ...]) -> int:
    """The shape of what a picked combination still misses from ``throw`` (Four of a kind: its face only);
    remembered, as a turn's advice asks it of every pick of every throw (462 throws, 45 picks)."""
    if combination == FOUR_KIND:
        k = max(0, 4 - throw.count(args[0]))
        return shape_index()[("foak", k)] if k else shape_index()[("dice", ())]
    target, _ = COMBINATIONS[combination].target(args)
    return shape_of(missing(target, throw))


def shape_of(missing_faces: tuple[int, ...]) -> int:
    return shape_index()[("dice", tuple(sorted(Counter(missing_faces).values(), reverse=True)))]


@lru_cache(maxsize=None)
def shape_transitions() -> np.ndarray:
    """P[s, s']: one rethrow of shape s's dice leads to shape s' (exact enumeration of the faces)."""
    index = shape_index()
    n = len(index)
    P = np.zeros((n, n))
    for s, i in index.items():
        if s == ("dice", ()):
            P[i, i] = 1.0
            continue
        if s[0] == "foak":
            k = s[1]
            for hits in range(k + 3):
                p = comb(k + 2, hits) * 5 ** (k + 2 - hits) / 6 ** (k + 2)
                left = k - hits
                P[i, index[("foak", left)] if left > 0 else index[("dice", ())]] += p
            continue
        # the rethrown dice fall on each needed face or on another one: every count of each, weighted by
        # its number of rolls (an exact integer, so P is the enumeration of all FACES ** dice rolls)
        mult = s[1]
        dice = sum(mult)
        others = FACES - len(mult)
        for falls in itertools.combinations_with_replacement(range(len(mult) + 1), dice):
            got = [falls.count(j) for j in range(len(mult) + 1)]  # per needed face, then the other faces
            rolls = factorial(dice) // prod(factorial(g) for g in got) * others ** got[-1]
            left = tuple(sorted((m - got[j] for j, m in enumerate(mult) if m > got[j]), reverse=True))
            P[i, index[("dice", left)]] += rolls
        P[i] /= FACES ** dice
    return P


@lru_cache(maxsize=None)
def completion_odds(max_throws: int = H - 1) -> tuple[np.ndarray, np.ndarray]:
    """q[s, t] = P(the shape is complete on exactly the t-th rethrow), qcum[s, h] = P(complete within h)."""
    P = shape_transitions()
    n = P.shape[0]
    done = shape_index()[("dice", ())]
    q = np.zeros((n, max_throws + 1))
    dist = np.eye(n)
    q[done, 0] = 1.0
    complete = dist[:, done].copy()
    for t in range(1, max_throws + 1):
        dist = dist @ P
        now = dist[:, done]
        q[:, t] = now - complete
        complete = now.copy()
    q[done, 1:] = 0.0
    return q, np.cumsum(q, axis=1)


# -- the options a throw offers -------------------------------------------------------------------------

@lru_cache(maxsize=None)
def throw_options(mode: str = "normal") -> tuple[np.ndarray, ...]:
    """For each of the 462 throws, its probability, counts per face, and (CSR) the distinct non-collect
    options: (combination, missing shape, points), keeping for equal shapes the most points (normal) or
    the fewest (misere)."""
    pick = max if mode == "normal" else min
    throws, probs = six_dice_throws()
    counts = np.array([[t.count(f) for f in range(1, FACES + 1)] for t in throws], dtype=np.int64)
    start, combo, shape, points = [0], [], [], []
    for t in throws:
        best: dict[tuple[int, int], int] = {}
        for c in COMBINATIONS:
            if c.is_collect:
                continue
            for args in c.arguments():
                pts = c.target(args)[1]
                key = (c.index, pick_shape(c.index, args, t))
                best[key] = pick(best[key], pts) if key in best else pts
        for (index, throw_shape), pts in sorted(best.items()):
            combo.append(index)
            shape.append(throw_shape)
            points.append(pts)
        start.append(len(combo))
    return (np.array(probs), counts, np.array(start, dtype=np.int64), np.array(combo, dtype=np.int64),
            np.array(shape, dtype=np.int64), np.array(points, dtype=np.float64))


def max_points(combination: int) -> int:
    combo = COMBINATIONS[combination]
    if combo.is_collect:
        return 6 * combo.collect_face()
    return max(combo.target(args)[1] for args in combo.arguments())


@lru_cache(maxsize=None)
def point_slots(mode: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The points each combination can score, numbered (slot 0: nothing): (slot_points[c, slot],
    n_slots[c], opt_slot[o] for every option of ``throw_options``). A Collect's slot is the dice held."""
    _, _, _, combo, _, points = throw_options(mode)
    values: list[list[int]] = []
    for c in COMBINATIONS:
        if c.is_collect:
            values.append([c.collect_face() * have for have in range(7)])
        else:
            values.append([0] + sorted({c.target(args)[1] for args in c.arguments()}))
    width = max(len(v) for v in values)
    slot_points = np.zeros((len(COMBINATIONS), width), dtype=np.int64)
    for index, v in enumerate(values):
        slot_points[index, : len(v)] = v
    opt_slot = np.array([values[c].index(int(p)) for c, p in zip(combo, points)], dtype=np.int64)
    return slot_points, np.array([len(v) for v in values], dtype=np.int64), opt_slot


@lru_cache(maxsize=None)
def used_shapes(mode: str) -> np.ndarray:
    """used[c, s]: whether some throw offers combination c with missing shape s."""
    _, _, _, combo, shape, _ = throw_options(mode)
    used = np.zeros((len(COMBINATIONS), completion_odds()[0].shape[0]), dtype=np.bool_)
    used[combo, shape] = True
    return used


@lru_cache(maxsize=None)
def code_index() -> np.ndarray:
    """index[code] = the throw (``six_dice_throws``' order) whose counts by face are the base-7 number code."""
    throws, _ = six_dice_throws()
    index = np.full(7 ** 6, -1, dtype=np.int64)
    for i, t in enumerate(throws):
        index[sum(t.count(f + 1) * 7 ** f for f in range(6))] = i
    return index


@lru_cache(maxsize=None)
def kernel_throws(mode: str) -> Throws:
    """The rules of ``mode`` as every kernel reads them (``arrays.Throws``), built once per mode."""
    probs, counts, start, combo, shape, points = throw_options(mode)
    slot_points, n_slots, opt_slot = point_slots(mode)
    q, qcum = completion_odds()
    top = np.array([max_points(c.index) for c in COMBINATIONS], dtype=np.int64)
    # read-only: the tuple is shared by every kernel call of the process
    return Throws(mode == "normal", frozen(probs), frozen(counts), frozen(code_index()), frozen(start), frozen(combo),
                  frozen(shape), frozen(points), frozen(opt_slot), frozen(slot_points), frozen(n_slots), frozen(top),
                  frozen(used_shapes(mode)), frozen(q), frozen(qcum), frozen(np.cumsum(shape_transitions(), axis=1)),
                  shape_index()[("dice", ())], frozen(binomial_table()), int(np.diff(start).max()))


def binomial_table() -> np.ndarray:
    """b[n, j] = P(j of n rethrown dice show the collected face)."""
    b = np.zeros((7, 7))
    for n in range(7):
        for j in range(n + 1):
            b[n, j] = comb(n, j) * 5 ** (n - j) / 6 ** n
    return b


@lru_cache(maxsize=1)
def _binomial() -> np.ndarray:
    """``binomial_table``, made once and read-only, for the Python paths (a kernel takes a writable one)."""
    return frozen(binomial_table())


# -- the solve -------------------------------------------------------------------------------------------

def check_mode(mode: str) -> str:
    key = str(mode).strip().lower().replace("è", "e")
    if key not in MODES:
        raise InputError(f"Despirala is played normal or misere, not {mode!r}")
    return key


def check_appetite(mode: str, theta: float) -> float:
    """A risk appetite for ``mode``: one of check_theta's, and only in normal play (misere's player wants the
    fewest points, where a certainty equivalent of the score says nothing of the player's risk)."""
    theta = check_theta(theta)
    if theta and mode != "normal":
        raise InputError("a risk appetite (theta) plays normal Despirala; misere play is for the mean alone")
    return theta


def solve(mode: str = "normal", progress: Callable[[int, int], None] | None = None, samples: int = 0,
          seed: int = 0, theta: float = 0.0) -> np.ndarray:
    """W[mask, h] for every set of free combinations and goods (see ``kernels.expected``). With
    ``samples`` = N > 0, a Monte Carlo model: every state's mean over all throws is replaced by the mean
    over N throws sampled for that state (reproducible from ``seed``). With a risk appetite ``theta``:
    E[exp(theta * what is still to come)] under the strategy of the best certainty equivalent."""
    if samples < 0 or samples > 100_000:
        raise InputError("--samples is between 1 and 100000 (0: the exact model)")
    mode = check_mode(mode)
    theta = check_appetite(mode, theta)
    sign = value_sign(mode, theta)
    from .kernels.expected import base_completion, solve_level  # numba is loaded by the solve, not by advice

    throws = kernel_throws(mode)
    n_shapes = throws.q.shape[0]
    n_combos = len(COMBINATIONS)
    levels: list[list[int]] = [[] for _ in range(n_combos + 1)]
    for mask in range(ALL_FREE + 1):
        levels[bin(mask).count("1")].append(mask)
    level_index = np.zeros(ALL_FREE + 1, dtype=np.int64)
    for level in levels:
        for i, mask in enumerate(level):
            level_index[mask] = i
    W = np.zeros((ALL_FREE + 1, H))
    D_prev = np.zeros((1, n_shapes, H))
    base_completion(throws.q, throws.qcum, D_prev[0], theta)
    for size in range(1, n_combos + 1):
        masks = np.array(levels[size], dtype=np.int64)
        D_next = np.zeros((len(masks), n_shapes, H))
        # a turn with `size` combinations free comes after 14 - size turns: at most 5 * (15 - size) goods
        hmax = GOODS_PER_TURN * (n_combos + 1 - size)
        next_hmax = GOODS_PER_TURN * (n_combos - size)
        solve_level(W, masks, hmax, sign, theta, throws, D_prev, D_next, max(next_hmax, 0), level_index, samples, seed)
        D_prev = D_next
        if progress:
            progress(size, n_combos)
    return W


@dataclass
class DespiralaTable:
    mode: str
    W: np.ndarray  # float64 [2**14, H]
    theta: float = 0.0  # a risk appetite: W holds E[exp(theta * what is still to come)]
    # collect_table's answers, by (combinations left, face, goods): a walk through a game's states asks for the
    # same few again and again (about 60 µs each)
    _collect_tables: dict[tuple[int, int, int], np.ndarray] = field(default_factory=dict, init=False, repr=False,
                                                                   compare=False)

    def collect_table(self, free_after: int, face: int, goods: int) -> np.ndarray:
        """``collect_table`` for this table, read-only and remembered (the last COLLECT_TABLES asked for)."""
        key = (free_after, face, goods)
        table = self._collect_tables.get(key)
        if table is None:
            if len(self._collect_tables) >= COLLECT_TABLES:
                self._collect_tables.clear()
            table = frozen(collect_table(np.asarray(self.W), free_after, face, goods, self.sign, self.theta))
            self._collect_tables[key] = table
        return table

    @property
    def sign(self) -> float:
        """+1 where the table's best value is its largest, -1 where it is its smallest."""
        return value_sign(self.mode, self.theta)

    @property
    def root_value(self) -> float:
        """Expected final score of a whole game (first turn: 5 goods); with a risk appetite, its certainty
        equivalent."""
        return certainty(float(self.W[ALL_FREE, GOODS_PER_TURN]), self.theta)

    def end_value(self, free: int, goods: int) -> float:
        """Value when a turn ends leaving ``free`` combinations and ``goods`` (the table's own kind)."""
        if free == 0:
            return float(goods) if self.theta == 0.0 else math.exp(self.theta * goods)
        return float(self.W[free, min(goods + GOODS_PER_TURN, H - 1)])


def certainty(value: float, theta: float) -> float:
    """A table's value in points: itself for the mean, ln(value) / theta (the certainty equivalent) with a
    risk appetite."""
    return value if theta == 0.0 else math.log(value) / theta


def _check(mode: str, theta: float = 0.0):
    def check(loaded: tables.LoadedTable) -> None:
        W = loaded.arrays.get("W")
        if W is None or W.shape != (ALL_FREE + 1, H) or W.dtype != np.float64:
            raise TableError(f"the Despirala {mode} table has the wrong shape")
        root = certainty(float(W[ALL_FREE, GOODS_PER_TURN]), theta)
        if abs(root - float(loaded.manifest.get("root_value", -1))) > 1e-9:
            raise TableError(f"the Despirala {mode} table does not match its manifest")
    return check


@dataclass(frozen=True)
class LoadInfo:
    built: bool
    seconds: float
    directory: str
    table_bytes: int


def fingerprint(mode: str, theta: float = 0.0) -> str:
    appetite = f":theta={theta!r}" if theta else ""
    return hashlib.sha256(f"despirala-ev-v1:{mode}:{H}{appetite}".encode()).hexdigest()


def load_or_solve(mode: str = "normal", rebuild: bool = False, progress: Callable[[int, int], None] | None = None,
                  on_problem: Callable[[str], None] | None = None, theta: float = 0.0
                  ) -> tuple[DespiralaTable, LoadInfo]:
    """The expected-score table of ``mode`` (with a risk appetite ``theta``: its certainty equivalent's),
    from the cache or solved now and cached."""
    mode = check_mode(mode)
    theta = check_appetite(mode, theta)
    start = time.perf_counter()
    appetite = f" theta={theta:g}" if theta else ""
    key = tables.TableKey(KIND, f"despirala({mode}){appetite}", fingerprint(mode, theta))

    def build():
        W = solve(mode, progress, theta=theta)
        extra = {"mode": mode, "theta": theta} if theta else {"mode": mode}
        return {"W": W}, certainty(float(W[ALL_FREE, GOODS_PER_TURN]), theta), extra

    loaded, built = tables.load_or_build(key, build, _check(mode, theta), rebuild=rebuild, on_problem=on_problem)
    info = LoadInfo(built, time.perf_counter() - start, str(loaded.directory),
                    int(sum(e["bytes"] for e in loaded.manifest["arrays"].values())))
    return DespiralaTable(mode, frozen(loaded.arrays["W"]), theta), info


# -- option values inside a turn (advice, hints, luck and mistakes) ------------------------------------------

def value_sign(mode: str, theta: float = 0.0) -> float:
    """+1 where values are maximised: normal play's points, or E[exp(theta X)] for theta > 0."""
    return (1.0 if mode == "normal" else -1.0) * (-1.0 if theta < 0 else 1.0)


def collect_values(solution: DespiralaTable, free_after: int, face: int, have: int, goods: int) -> dict[str, float]:
    """Collecting ``face`` with ``have`` of it showing and ``goods``: the value of Stop, and of Continue
    when it is allowed (goods left and a die that is not ``face``)."""
    table = solution.collect_table(free_after, face, goods + 1)
    stop = solution.end_value(free_after, goods)
    values = {"stop": face * have + stop if solution.theta == 0.0 else math.exp(solution.theta * (face * have)) * stop}
    if goods > 0 and have < 6:
        b = _binomial()[6 - have]
        values["continue"] = float(sum(b[j] * table[have + j, goods - 1] for j in range(6 - have + 1)))
    return values


# One position's answer, in Python in the kernels' order of operations (the same bits as kernels.py's
# _end_value, _collect_table and _pick_value), so that advice from a table on disk does not load numba.
def end_values(W: np.ndarray, mask: int, theta: float = 0.0) -> np.ndarray:
    """The value of ending a turn leaving ``mask`` free, for every number of goods."""
    H = W.shape[1]
    if mask == 0:
        if theta == 0.0:
            return np.arange(H, dtype=np.float64)
        return np.array([math.exp(theta * g) for g in range(H)])  # math.exp: the kernels' exp, to the bit
    return W[mask, np.minimum(np.arange(H) + GOODS_PER_TURN, H - 1)]


@lru_cache(maxsize=1)
def _rethrow_terms() -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]:
    """For each j = 0..6: the holdings c < 6 with c + j <= 6, binom[6 - c, j] for each, and c + j."""
    binom = binomial_table()
    terms = []
    for j in range(7):
        c = np.arange(min(6, 7 - j))
        terms.append((c, binom[6 - c, j], c + j))
    return tuple(terms)


def collect_table(W: np.ndarray, mask_after: int, face: int, goods: int, sign: float, theta: float = 0.0
                  ) -> np.ndarray:
    """out[c, h]: the best value of collecting ``face`` holding ``c`` of it with ``h`` goods (h < goods).
    Each goods column from the one before, every c at once, each sum in the kernel's order."""
    end = end_values(W, mask_after, theta)
    held = np.arange(7)
    out = np.empty((7, goods))

    gains = np.array([math.exp(theta * float(face * c)) for c in held])  # math.exp: the kernels' exp, to the bit

    def stop_at(h: int) -> np.ndarray:
        return face * held + end[h] if theta == 0.0 else gains * end[h]

    out[:, 0] = stop_at(0)
    for h in range(1, goods):
        go = np.zeros(6)  # rethrowing the 6 - c other dice, for c < 6
        for c, weight, hit in _rethrow_terms():
            go[c] += weight * out[hit, h - 1]
        stop = stop_at(h)
        out[:, h] = stop
        better = sign * go > sign * stop[:6]
        out[:6, h][better] = go[better]
    return out


def pick_value(W: np.ndarray, after: int, s: int, h: int, pts: float, q: np.ndarray, qcum: np.ndarray,
               end: np.ndarray | None = None, theta: float = 0.0) -> float:
    """Picking a combination with missing shape ``s`` and ``pts`` points at ``h`` goods, leaving ``after``
    (``end``: end_values(W, after, theta), when already at hand)."""
    if end is None:
        end = end_values(W, after, theta)
    acc = 0.0
    for t in range(h + 1):
        acc += q[s, t] * end[h - t]
    out_of_goods = (1.0 - qcum[s, h]) * end[0]
    if theta == 0.0:
        return float(pts * qcum[s, h] + acc + out_of_goods)
    return float(math.exp(theta * pts) * acc + out_of_goods)


def throw_moves(free: int, goods: int, throw: tuple[int, ...], normal: bool) -> Iterator[tuple[Move, int, int, int]]:
    """Every legal move after a throw, in the order advice lists equal values: (move, the combinations
    left after it, shape_or_have, points_or_face): for a Collect the dice showing its face and the face,
    for another pick its missing shape and its points, for a Reroll -1 and -1."""
    if len(throw) != 6:
        raise InputError("a Despirala throw has six dice")
    if normal and goods > 0:
        yield Move("reroll"), free, -1, -1
    for combo in COMBINATIONS:
        bit = 1 << combo.index
        if not free & bit:
            continue
        if combo.is_collect:
            yield Move("pick", combo.index), free & ~bit, throw.count(combo.collect_face()), combo.collect_face()
            continue
        for args in combo.arguments():
            yield (Move("pick", combo.index, args), free & ~bit, pick_shape(combo.index, args, throw),
                   combo.target(args)[1])


def turn_options(solution: DespiralaTable, free: int, goods: int, throw: tuple[int, ...]) -> list[tuple[Move, float]]:
    """Every legal move after a throw (Reroll and each free combination with each argument) and its
    expected final-score value (points still to come + goods at the end), best first for the mode."""
    out = list(throw_values(solution, free, goods, throw))
    out.sort(key=lambda mv: -solution.sign * mv[1])
    return out


def throw_values(solution: DespiralaTable, free: int, goods: int, throw: tuple[int, ...]
                 ) -> Iterator[tuple[Move, float]]:
    """``turn_options`` in the order of ``throw_moves`` (the kernels' order: their first best is the first
    best here)."""
    W = np.asarray(solution.W)
    q, qcum = completion_odds()
    best = max if solution.sign > 0 else min
    for move, after, shape_or_have, points_or_face in throw_moves(free, goods, throw, solution.mode == "normal"):
        if move.kind == "reroll":
            value = float(W[free, goods - 1])
        elif COMBINATIONS[move.combination].is_collect:
            value = best(collect_values(solution, after, points_or_face, shape_or_have, goods).values())
        else:
            value = pick_value(W, after, shape_or_have, goods, float(points_or_face), q, qcum, theta=solution.theta)
        yield move, value
