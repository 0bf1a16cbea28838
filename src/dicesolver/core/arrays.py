"""Arrays handed to the kernels, prepared without loading numba (core/jit.py loads it)."""

from __future__ import annotations

from typing import NamedTuple

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


class DiceGraph(NamedTuple):
    """A dice space (``core.dice.DiceSpace``) as the kernels read it, handed to them as one argument
    (``DiceSpace.graph``; a kernel lends itself a borrowed copy with ``core.kernels.lend_graph``). Keeps are
    numbered by size, the rolls being the last ``n_rolls`` keeps (keep ``roll_offset + r`` is roll r)."""

    keep_add: np.ndarray  # int32 [keep, face - 1]: the keep with one more die showing that face, -1 for a roll
    sub_ptr: np.ndarray  # int32 CSR: for each keep, the keeps one die smaller (one per distinct face) ...
    sub_idx: np.ndarray  # ... in sub_idx[sub_ptr[k]:sub_ptr[k + 1]]
    roll_offset: int  # the first roll's keep index
    roll_prob: np.ndarray  # float64 [roll]: its probability when every die is thrown
    roll_sub_ptr: np.ndarray  # int64 CSR: for each roll, its distinct keeps, in increasing keep index ...
    roll_sub_idx: np.ndarray  # ... in roll_sub_idx[roll_sub_ptr[r]:roll_sub_ptr[r + 1]]
    roll_faces: np.ndarray  # int64 [roll, die]: its faces, sorted
    keep_size: np.ndarray  # int64 [keep]: how many dice it holds
