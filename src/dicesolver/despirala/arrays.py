"""Despirala's rules and tables as its kernels read them: one named tuple each, built once where its arrays are
made, and lent borrowed (``kernels.lend``) by the kernel that receives it, like the scorecard's rules
(``scorecard.game.kernels.scoring.lend``) and the dice graph (``core.arrays.DiceGraph``). numpy only: the
advice that builds them never loads numba.

* ``Throws``: the dice and the combinations (``solver.kernel_throws``, one per mode): every throw of six
  dice, the options it offers, the odds of completing a pick and of collecting a face.
* ``Futures``: the distribution table of the expected-score strategy (``future.FutureTable.arrays``).
* ``Targets``: a target table (``target.TargetTable.arrays``): a best chance for every need.
* ``Picks``: what the answer engine prices a position's options with (``answers.DespiralaEngine``).
"""

from typing import NamedTuple

import numpy as np


class Throws(NamedTuple):
    """The rules of one mode, for every throw r of the 462 throws of six dice and every option o it offers."""

    normal: bool  # normal play (the most points; a whole-roll Reroll for a good) or misere (the fewest, no Reroll)
    probs: np.ndarray  # float64 [r]: its probability
    counts: np.ndarray  # int64 [r, face - 1]: its dice of each face
    code_index: np.ndarray  # int64 [base-7 number of the counts]: the throw r (``expected.throw_code``)
    opt_start: np.ndarray  # int64 CSR: throw r's non-collect options are opt_start[r]:opt_start[r + 1] ...
    opt_combo: np.ndarray  # ... each one's combination,
    opt_shape: np.ndarray  # ... the shape of its missing dice,
    opt_points: np.ndarray  # ... its points (float64),
    opt_slot: np.ndarray  # ... and the slot of those points in slot_points[combination]
    slot_points: np.ndarray  # int64 [combination, slot]: the points it can score (slot 0: nothing; a Collect: dice held)
    n_slots: np.ndarray  # int64 [combination]: how many slots it has
    top: np.ndarray  # int64 [combination]: the most it scores
    used: np.ndarray  # bool [combination, shape]: whether some throw offers it with that missing shape
    q: np.ndarray  # float64 [shape, t]: P(a pick missing that shape completes on exactly the t-th rethrow)
    qcum: np.ndarray  # float64 [shape, h]: P(it completes within h rethrows)
    shape_cum: np.ndarray  # float64 [shape, shape]: one rethrow's transitions, cumulated along rows
    done: int  # the shape of a completed pick
    binom: np.ndarray  # float64 [n, j]: P(j of n rethrown dice show the collected face)
    most_options: int  # the most options a throw offers


class Futures(NamedTuple):
    """The future-score distributions (``kernels.future``' docstring): mask's row h holds length[mask] cells
    from offset[mask] + h * length[mask]; rows[mask] is the most goods a turn of that set holds."""

    F: np.ndarray  # float32 [cells]
    offset: np.ndarray  # int64 [mask]
    length: np.ndarray  # int64 [mask]
    rows: np.ndarray  # int64 [mask]


class Targets(NamedTuple):
    """A target table (``kernels.target``' docstring): mask's row h holds needs 0..N from
    offset[mask] + h * (N + 1); a finished game still needing m is worth goal[m]."""

    V: np.ndarray  # float32 [cells]
    offset: np.ndarray  # int64 [mask]
    rows: np.ndarray  # int64 [mask]: the most goods a turn of that set holds
    N: int  # the largest need held
    goal: np.ndarray  # float64 [need]


class Picks(NamedTuple):
    """Every pick p of the encoding (a combination with its arguments, ``encoding.PICKS``), for the answers."""

    combo: np.ndarray  # int64 [p]: its combination
    points: np.ndarray  # int64 [p]: its points (a Collect's: its face)
    shape: np.ndarray  # int64 [p, throw]: its missing shape after that throw (a Collect's: the dice showing its face)
    keep_add: np.ndarray  # int64 [keep, face - 1]: six dice's keeps (``core.dice``), to find a throw's index
    roll_offset: int  # the first throw's keep index
    q: np.ndarray  # as Throws.q
    qcum: np.ndarray  # as Throws.qcum
    binom: np.ndarray  # as Throws.binom
