"""Kernels of the analysis layer."""

import numpy as np

from ..core.jit import njit


@njit(cache=True, nogil=True)
def unpad(floats, ints, width):
    """A batch of answers' options without their padding (``core.answers.Answers``' buffers): the offsets of
    each situation's options (n + 1, int32), then every option's code, value and cost, situation after
    situation. One pass without the GIL, for ``label``'s writer thread: numpy's mask and three masked copies
    held the GIL for most of 0.3 s per million rows."""
    n = ints.shape[0]
    offsets = np.empty(n + 1, dtype=np.int32)
    offsets[0] = 0
    for i in range(n):
        offsets[i + 1] = offsets[i] + max(ints[i, width], 0)
    codes = np.empty(offsets[n], dtype=np.int16)
    values = np.empty(offsets[n])
    costs = np.empty(offsets[n])
    for i in range(n):
        o = offsets[i]
        for k in range(offsets[i + 1] - o):
            codes[o + k] = ints[i, k]
            values[o + k] = floats[i, k]
            costs[o + k] = floats[i, width + k]
    return offsets, codes, values, costs
