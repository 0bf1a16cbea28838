"""The turn widget: the value of every keep and the best keep inside every roll, over contiguous lanes.

Buffers are (keeps x lanes) float64 arrays; keeps are ordered by size so the last ``n_rolls`` rows are the
rolls (see ``core/dice.py``). One call works on every lane of a buffer at once, so every inner loop runs
over contiguous lanes.
"""

import numpy as np

from ....core.jit import njit

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


@njit(cache=True, fastmath=True)
def expect_keeps_wide(buf, keep_add, roll_offset, lanes):
    """expect_keeps for wide buffers: the faces summed in one pass over the lanes (six at once for d6,
    else three), so each keep's row is stored once instead of once per face. The sum runs in the same
    order, so the results are the same to the bit."""
    faces = keep_add.shape[1]
    inv = 1.0 / faces
    for k in range(roll_offset - 1, -1, -1):
        dst = buf[k]
        add = keep_add[k]
        if faces == 6:
            s0, s1, s2, s3, s4, s5 = buf[add[0]], buf[add[1]], buf[add[2]], buf[add[3]], buf[add[4]], buf[add[5]]
            for j in range(lanes):
                dst[j] = (s0[j] + s1[j] + s2[j] + s3[j] + s4[j] + s5[j]) * inv
            continue
        s0 = buf[add[0]]
        for j in range(lanes):
            dst[j] = s0[j]
        f = 1
        while f + 3 <= faces:
            s1, s2, s3 = buf[add[f]], buf[add[f + 1]], buf[add[f + 2]]
            for j in range(lanes):
                dst[j] = dst[j] + s1[j] + s2[j] + s3[j]
            f += 3
        while f < faces:
            s1 = buf[add[f]]
            for j in range(lanes):
                dst[j] += s1[j]
            f += 1
        for j in range(lanes):
            dst[j] *= inv


@njit(cache=True, fastmath=True)
def best_keeps_wide(buf, sub_ptr, sub_idx, lanes):
    """best_keeps for wide buffers: up to three smaller keeps compared in one pass over the lanes."""
    n = buf.shape[0]
    for k in range(1, n):
        dst = buf[k]
        p = sub_ptr[k]
        end = sub_ptr[k + 1]
        while p + 3 <= end:
            s1, s2, s3 = buf[sub_idx[p]], buf[sub_idx[p + 1]], buf[sub_idx[p + 2]]
            for j in range(lanes):
                dst[j] = max(max(dst[j], s1[j]), max(s2[j], s3[j]))
            p += 3
        if p + 2 == end:
            s1, s2 = buf[sub_idx[p]], buf[sub_idx[p + 1]]
            for j in range(lanes):
                dst[j] = max(dst[j], max(s1[j], s2[j]))
        elif p + 1 == end:
            s1 = buf[sub_idx[p]]
            for j in range(lanes):
                dst[j] = max(dst[j], s1[j])


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
        expect_keeps_wide(buf, keep_add, roll_offset, lanes)
        best_keeps_wide(buf, sub_ptr, sub_idx, lanes)
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


@njit(cache=True, fastmath=True)
def best_keeps_along(buf, along, sub_ptr, sub_idx, lanes):
    """best_keeps on ``buf`` (the values a player decides by), carrying ``along`` (other values of the same
    keeps) with each choice: afterwards a roll's row of ``along`` holds that value of the keep chosen from
    it. Ties as best_keeps_arg: the larger keep, then the first one-die-smaller keep in the list."""
    n = buf.shape[0]
    for k in range(1, n):
        dst = buf[k]
        carried = along[k]
        for p in range(sub_ptr[k], sub_ptr[k + 1]):
            src = buf[sub_idx[p]]
            src_along = along[sub_idx[p]]
            for j in range(lanes):
                if src[j] > dst[j]:
                    dst[j] = src[j]
                    carried[j] = src_along[j]


@njit(cache=True, fastmath=True, inline="always")
def expect_one(buf, keep_add, roll_offset):
    """``widget.expect_keeps`` for one lane (a 1-D buffer); six faces summed as a tree, not a chain."""
    faces = keep_add.shape[1]
    if faces == 6:
        for k in range(roll_offset - 1, -1, -1):
            buf[k] = (((buf[keep_add[k, 0]] + buf[keep_add[k, 1]]) + (buf[keep_add[k, 2]] + buf[keep_add[k, 3]]))
                      + (buf[keep_add[k, 4]] + buf[keep_add[k, 5]])) * (1.0 / 6.0)
        return
    inv = 1.0 / faces
    for k in range(roll_offset - 1, -1, -1):
        total = 0.0
        for f in range(faces):
            total += buf[keep_add[k, f]]
        buf[k] = total * inv


@njit(cache=True, fastmath=True, inline="always")
def best_one(buf, sub_pad):
    """``widget.best_keeps`` for one lane (a 1-D buffer), over each keep's one-die-smaller keeps padded
    with the keep itself to one width: a fixed number of branch-free steps (unrolled for five)."""
    if sub_pad.shape[1] == 5:
        for k in range(1, buf.shape[0]):
            best = buf[k]
            for w in range(5):
                best = max(best, buf[sub_pad[k, w]])
            buf[k] = best
        return
    width = sub_pad.shape[1]
    for k in range(1, buf.shape[0]):
        best = buf[k]
        for w in range(width):
            best = max(best, buf[sub_pad[k, w]])
        buf[k] = best
