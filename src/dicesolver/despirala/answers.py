"""The batch answer engine of Despirala (``kernels.answers``): situations (the arrays of
``DespiralaEncoding.situations``) in, every legal move's value out, from the expected-score table or a
target table. The one path behind both solutions' values, advice and reviews; a few situations valued by
the expected-score table are answered by its Python form (``answers_numpy``, the same to the bit) until the
process has loaded the kernel."""

from __future__ import annotations

from functools import cached_property, lru_cache

import numpy as np

from ..core.answers import Answers, NumpyFirst, Situations, as_situations
from ..core.arrays import frozen
from ..core.dice import dice_space
from ..core.errors import InputError
from ..core.protocol import Unit
from . import answers_numpy
from .arrays import Picks, Targets
from .encoding import PICKS
from .rules import ALL_FREE, COMBINATIONS
from .solver import H, binomial_table, completion_odds, pick_shape

KEYS = ("free", "goods", "points", "dice", "phase", "combination", "have", "picked")
REASONS = {
    1: "a sheet is not free combinations of 0 and 1, goods 0..75 and points of 0 or more",
    2: "the six dice are not all showing, each 1 to 6",
    3: "the moment does not fit the sheet (a throw, a move, a completion or a collect with a combination free; "
       "the end with none), or more than six dice are held",
    4: "the combination completed or collected is not free, or not of that kind, or not the pick being completed",
    5: "the points still needed are beyond the target table's",
    6: "the target table is an endgame's and does not hold these combinations",
}


@lru_cache(maxsize=None)
def pick_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every pick of the encoding (a combination with its arguments): its combination, its points (a
    Collect's: its face), and for each of the 462 throws its missing shape (a Collect's: the dice showing
    its face)."""
    throws = dice_space(6, 6).rolls
    combo = np.array([m.combination for m in PICKS], dtype=np.int64)
    points = np.array([COMBINATIONS[m.combination].collect_face() if COMBINATIONS[m.combination].is_collect
                       else COMBINATIONS[m.combination].target(tuple(m.args))[1] for m in PICKS], dtype=np.int64)
    shape = np.array([[t.count(COMBINATIONS[m.combination].collect_face()) if COMBINATIONS[m.combination].is_collect
                       else pick_shape(m.combination, tuple(m.args), t) for t in throws] for m in PICKS],
                     dtype=np.int64)
    return combo, points, shape


class DespiralaEngine:
    """Answers Despirala situations from the expected-score table ``W`` (with a risk appetite ``theta``, its
    certainty equivalents), or with ``target`` = (T, the table's largest need N, a tie's worth, the sets it
    holds) from the target table ``V``, a finished game still needing m worth ``row[m]``."""

    _width = 1 + len(PICKS)

    def __init__(self, mode: str, tie: float, W: np.ndarray | None = None, V: np.ndarray | None = None,
                 offset: np.ndarray | None = None, rows: np.ndarray | None = None,
                 target: tuple[int, int, float, int] | None = None, theta: float = 0.0,
                 row: np.ndarray | None = None):
        self._normal = mode == "normal"
        self.tie = tie
        self._theta = float(theta)
        self.judge = "target" if target else "risk" if theta else "points"
        self.unit: Unit = "p_target" if target else "ce" if theta else "points"
        self.higher_is_better = bool(target) or self._normal
        self._W = frozen(W if W is not None else np.zeros((1, H)))
        self._aim = frozen(np.array(target if target else (-1, 0, 0.0, ALL_FREE), dtype=np.float64))
        self._targets = Targets(frozen(V if V is not None else np.zeros(1, dtype=np.float32)),
                                frozen(offset if offset is not None else np.zeros(1, dtype=np.int64)),
                                frozen(rows if rows is not None else np.zeros(1, dtype=np.int64)),
                                int(self._aim[1]),
                                frozen(np.ascontiguousarray(row if row is not None else np.ones(1), dtype=np.float64)))
        self._numpy_first = NumpyFirst(lambda: self._kernel, "despirala" if self._normal else "despirala(misere)")

    @cached_property
    def _picks(self) -> Picks:
        combo, points, shape = pick_tables()
        dice = dice_space(6, 6)
        q, qcum = completion_odds()
        return Picks(combo, points, shape, frozen(dice.keep_add.astype(np.int64)), dice.roll_offset, frozen(q),
                     frozen(qcum), frozen(binomial_table()))

    def answer(self, situations: Situations, parallel: bool | None = None) -> Answers:
        free, goods, points, dice, phase, combination, have, picked = as_situations(situations, KEYS)
        if (free.ndim != 3 or free.shape[2] != len(COMBINATIONS) or free.shape[1] < 1 or goods.ndim != 2
                or points.ndim != 2 or goods.shape[1] < 1 or points.shape[1] < 1 or dice.shape[1:] != (6,)
                or any(a.ndim != 2 or a.shape[1] != 1 for a in (phase, combination, have, picked))):
            raise InputError("situations of Despirala are free (n, players, 14), goods and points (n, players), dice "
                             "(n, 6), phase, combination, have and picked (n, 1)")
        out = Answers.empty(free.shape[0], self._width, self.judge, self.unit, self.higher_is_better)
        f, i = out.buffers
        if self.judge == "points" and self._numpy_first.takes(free.shape[0]):
            refused = answers_numpy.answer_despirala(free, goods, points, dice, phase, combination, have, picked,
                                                     self._W, self._normal, self._picks, self.tie, f, i)
        else:
            refused = self._kernel(free, goods, points, dice, phase, combination, have, picked, self._W,
                                   self._targets, self._aim, self._normal, self._theta, self._picks, self.tie, f, i)
        return out.check(REASONS) if refused else out

    @cached_property
    def _kernel(self):
        from .kernels.answers import answer_despirala

        return answer_despirala
