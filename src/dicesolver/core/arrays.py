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
