"""Kernels of the core: what every family's kernels share (the dice graph lent, the answers' first best)."""

import numpy as np

from ..core.arrays import DiceGraph
from ..core.jit import borrowed, njit


@njit(cache=True, inline="always")
def lend_graph(graph):
    """The dice graph with its arrays borrowed (``core.jit.borrowed``), as ``scoring.lend`` lends the rules:
    a kernel lends itself its graph once, so that the helpers inlined in its loops read arrays that cost no
    reference counts. Only for the length of the call that holds ``graph``."""
    return DiceGraph(borrowed(graph.keep_add), borrowed(graph.sub_ptr), borrowed(graph.sub_idx), graph.roll_offset,
                     borrowed(graph.roll_prob), borrowed(graph.roll_sub_ptr), borrowed(graph.roll_sub_idx),
                     borrowed(graph.roll_faces), borrowed(graph.keep_size))


@njit(cache=True, nogil=True)
def first_best(floats, ints, width):
    """Each situation's first best option (``core.answers.Answers``' buffers): the code of its first option
    of cost exactly 0, or -1 where it has none. One pass: numpy's comparison of every cost and its arg-max
    along rows took 0.1 µs a situation, a twentieth of ``label``'s sampling."""
    n = ints.shape[0]
    out = np.empty(n, dtype=np.int16)
    for i in range(n):
        out[i] = -1
        for k in range(max(ints[i, width], 0)):
            if floats[i, width + k] == 0.0:
                out[i] = ints[i, k]
                break
    return out
