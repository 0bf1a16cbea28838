"""Kernels of the analysis layer."""

import numpy as np

from ..core.jit import njit


@njit(cache=True, nogil=True)
def unpad(floats, ints, width, rows):
    """Some situations' options (``rows``: their indices in a batch of answers, ``core.answers.Answers``'
    buffers) without their padding: the offsets of each one's options (n + 1, int32), then every option's
    code, value and cost, situation after situation. One pass without the GIL, for ``label``'s writer
    thread: numpy's mask and three masked copies held the GIL for most of 0.3 s per million rows, and the
    rows picked here spare the sampling a copy of the whole step's answers."""
    n = rows.shape[0]
    offsets = np.empty(n + 1, dtype=np.int32)
    offsets[0] = 0
    for j in range(n):
        offsets[j + 1] = offsets[j] + max(ints[rows[j], width], 0)
    codes = np.empty(offsets[n], dtype=np.int16)
    values = np.empty(offsets[n])
    costs = np.empty(offsets[n])
    for j in range(n):
        i = rows[j]
        o = offsets[j]
        for k in range(offsets[j + 1] - o):
            codes[o + k] = ints[i, k]
            values[o + k] = floats[i, k]
            costs[o + k] = floats[i, width + k]
    return offsets, codes, values, costs
