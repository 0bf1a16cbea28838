"""The turn widget: the value of every keep and the best keep inside every roll, over contiguous lanes.

Buffers are (keeps x lanes) float64 arrays; keeps are ordered by size so the last ``n_rolls`` rows are the
rolls (see ``core/dice.py``). One call works on every lane of a buffer at once, so every inner loop runs
over contiguous lanes.
"""

import numpy as np

from ...core.jit import njit

NEG = -1.0e300


@njit(cache=True, fastmath=True, inline="always")
def expect_keeps(buf, keep_add, roll_offset, lanes):
    """K(k) = mean over faces of K(k + face), for every keep smaller than a roll (in place)."""
    faces = keep_add.shape[1]
    inv = 1.0 / faces
    for k in range(roll_offset - 1, -1, -1):
        dst = buf[k]
        src = buf[keep_add[k, 0]]
        for j in range(lanes):
            dst[j] = src[j]
        for f in range(1, faces):
            src = buf[keep_add[k, f]]
            for j in range(lanes):
                dst[j] += src[j]
        for j in range(lanes):
            dst[j] *= inv


@njit(cache=True, fastmath=True, inline="always")
def best_keeps(buf, sub_ptr, sub_idx, lanes):
    """B(k) = max(K(k), B(k - f) for each face f in k): afterwards a roll's row is its best keep."""
    n = buf.shape[0]
    for k in range(1, n):
        dst = buf[k]
        for p in range(sub_ptr[k], sub_ptr[k + 1]):
            src = buf[sub_idx[p]]
            for j in range(lanes):
                if src[j] > dst[j]:
                    dst[j] = src[j]


@njit(cache=True, fastmath=True, inline="always")
def opening_value(buf, roll_prob, roll_offset, lanes):
    """Row 0 = the probability-weighted mean of the roll rows: the value before the first throw.

    Cheaper than a full expectation pass when only the turn-start value is wanted.
    """
    dst = buf[0]
    for j in range(lanes):
        dst[j] = 0.0
    for r in range(roll_prob.shape[0]):
        p = roll_prob[r]
        src = buf[roll_offset + r]
        for j in range(lanes):
            dst[j] += p * src[j]


@njit(cache=True, inline="always")
def run_widget(buf, keep_add, sub_ptr, sub_idx, roll_prob, roll_offset, lanes, rerolls):
    """From final-roll values in the roll rows, run ``rerolls`` keep stages, then the opening roll.

    Afterwards row 0 (the empty keep) holds the turn-start value of every lane.
    """
    for _ in range(rerolls):
        expect_keeps(buf, keep_add, roll_offset, lanes)
        best_keeps(buf, sub_ptr, sub_idx, lanes)
    opening_value(buf, roll_prob, roll_offset, lanes)


@njit(cache=True, inline="always")
def spread_keeps(mass, keep_add, roll_offset, lanes):
    """Transpose of expect_keeps: mass on keeps flows to the rolls they can become (in place)."""
    faces = keep_add.shape[1]
    inv = 1.0 / faces
    for k in range(roll_offset):
        src = mass[k]
        for f in range(faces):
            dst = mass[keep_add[k, f]]
            for j in range(lanes):
                dst[j] += src[j] * inv
        for j in range(lanes):
            src[j] = 0.0


@njit(cache=True)
def chunk_bounds(n, chunks):
    """Split range(n) into ``chunks`` contiguous parts (start indices, length chunks + 1)."""
    k = max(1, min(n, chunks))
    bounds = np.empty(k + 1, dtype=np.int64)
    for c in range(k + 1):
        bounds[c] = c * n // k
    return bounds


@njit(cache=True, inline="always")
def best_keeps_arg(buf, arg, sub_ptr, sub_idx, lanes):
    """best_keeps that also records, for every keep and lane, which keep inside it is best (ties go to
    the larger keep, then to the first one-die-smaller keep in the list)."""
    n = buf.shape[0]
    for k in range(n):
        for j in range(lanes):
            arg[k, j] = k
    for k in range(1, n):
        dst = buf[k]
        dst_arg = arg[k]
        for p in range(sub_ptr[k], sub_ptr[k + 1]):
            src = buf[sub_idx[p]]
            src_arg = arg[sub_idx[p]]
            for j in range(lanes):
                if src[j] > dst[j]:
                    dst[j] = src[j]
                    dst_arg[j] = src_arg[j]
