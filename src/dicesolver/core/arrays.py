"""Arrays handed to the kernels, prepared without loading numba (core/jit.py loads it)."""

from __future__ import annotations

import numpy as np


def frozen(array) -> np.ndarray:
    """A read-only plain ndarray view. Numba compiles a kernel once per combination of argument types,
    and read-only (memory-mapped tables) and writable arrays are different types: passing tables and
    their stand-ins in one form avoids a minute-long recompilation per combination."""
    view = np.asarray(array).view(np.ndarray)
    view.flags.writeable = False
    return view


def pack(scalars: list[int], arrays: list[np.ndarray]) -> np.ndarray:
    """Integer scalars and arrays in one int64 array, read back in a kernel by position: the scalars, then
    where each array starts (and where the last ends), then the arrays flattened. A kernel that takes its
    model as one argument is called faster than one that takes twenty: numba's dispatch checks the type
    of every argument, about 0.1 µs each."""
    head = len(scalars) + len(arrays) + 1
    sizes = [int(np.asarray(a).size) for a in arrays]
    starts = head + np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64) if arrays else np.array([head])
    parts = [np.asarray(scalars, dtype=np.int64), starts.astype(np.int64)]
    parts += [np.asarray(a, dtype=np.int64).ravel() for a in arrays]
    return frozen(np.concatenate(parts))
