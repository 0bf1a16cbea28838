"""Despirala's named tuples (``despirala.arrays``) lent to a kernel: the same tuple with its arrays borrowed
(``core.jit.borrowed``), so that the helpers inlined in its loops read arrays that cost no reference counts.
Only for the length of the call that holds the tuple."""

from ...core.jit import borrowed, njit
from ..arrays import Futures, Targets, Throws


@njit(cache=True, inline="always")
def lend_throws(throws):
    """The throws with their arrays borrowed: for the length of the call that holds ``throws``."""
    return Throws(throws.normal, borrowed(throws.probs), borrowed(throws.counts), borrowed(throws.code_index),
                  borrowed(throws.opt_start), borrowed(throws.opt_combo), borrowed(throws.opt_shape),
                  borrowed(throws.opt_points), borrowed(throws.opt_slot), borrowed(throws.slot_points),
                  borrowed(throws.n_slots), borrowed(throws.top), borrowed(throws.used), borrowed(throws.q),
                  borrowed(throws.qcum), borrowed(throws.shape_cum), throws.done, borrowed(throws.binom),
                  throws.most_options)


@njit(cache=True, inline="always")
def lend_futures(futures):
    return Futures(borrowed(futures.F), borrowed(futures.offset), borrowed(futures.length), borrowed(futures.rows))


@njit(cache=True, inline="always")
def lend_targets(targets):
    return Targets(borrowed(targets.V), borrowed(targets.offset), borrowed(targets.rows), targets.N,
                   borrowed(targets.goal))
