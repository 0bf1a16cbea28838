"""Numba kernels for Despirala's expected-score solve.

Tables (``H = MAX_GOODS + 5 + 1`` goods values):
* ``W[mask, h]``: expected points still to come plus the final goods, at the start of a turn with the free
  combinations ``mask`` and ``h`` goods (the 5 of this turn already gained), before the free throw.
  It is also the value of a whole-roll Reroll with ``h + 1`` goods.
* ``T(mask, g)``: the value when a turn ends leaving ``mask`` free and ``g`` goods: ``g`` when nothing is
  free, else ``W[mask, g + 5]``.
* ``D[mask, s, h]``: the completion part of picking a combination that leaves ``mask`` free, with the
  missing-dice shape ``s`` and ``h`` goods: sum over t <= h of q[s, t] T(mask, h - t), plus the chance of
  running out times T(mask, 0). Picking is worth ``points * Q[s, h] + D``.

Levels of equal free-combination count are solved upwards from none free; ``D`` is kept for the level
below only. ``sign`` is +1 (normal: maximise) or -1 (misere: minimise, no Reroll).
"""

import numpy as np
from numba import njit, prange

GOODS_PER_TURN = 5


@njit(cache=True, nogil=True, inline="always")
def _end_value(W, mask, g):
    if mask == 0:
        return float(g)
    return W[mask, g + GOODS_PER_TURN]


@njit(cache=True, nogil=True)
def _completion(W, mask, hmax, q, qcum, out):
    """out[s, h] = D for the successor ``mask``, every shape, goods up to ``hmax``."""
    n_shapes, H = out.shape
    end = np.empty(H)
    for g in range(H):
        end[g] = _end_value(W, mask, min(g, H - 1 - GOODS_PER_TURN))
    for s in range(n_shapes):
        for h in range(hmax + 1):
            acc = 0.0
            for t in range(h + 1):
                acc += q[s, t] * end[h - t]
            out[s, h] = acc + (1.0 - qcum[s, h]) * end[0]


@njit(cache=True, nogil=True)
def _collect_table(W, mask_after, face, binom, sign, out):
    """out[c, h]: best value of Collect ``face`` holding ``c`` of it with ``h`` goods."""
    H = out.shape[1]
    for h in range(H):
        for c in range(6, -1, -1):
            stop = face * c + _end_value(W, mask_after, min(h, H - 1 - GOODS_PER_TURN))
            best = stop
            if h > 0 and c < 6:
                go = 0.0
                n = 6 - c
                for j in range(n + 1):
                    go += binom[n, j] * out[c + j, h - 1]
                if sign * go > sign * best:
                    best = go
            out[c, h] = best


@njit(cache=True, nogil=True)
def _turn_values(W, mask, hmax, sign, reroll_allowed, roll_probs, roll_counts, opt_start, opt_combo, opt_shape,
                 opt_points, qcum, D_prev, level_index, binom, col, picks):
    """Fill W[mask, :hmax + 1] from the level below. ``picks[r, h]`` (scratch) gets each throw's best
    pick, contiguous in h; the Reroll, the same for every throw, is mixed in afterwards."""
    H = hmax + 1
    n_rolls = roll_probs.shape[0]
    for f in range(6):
        if mask & (1 << f):
            _collect_table(W, mask & ~(1 << f), f + 1, binom, sign, col[f])
    for r in range(n_rolls):
        row = picks[r]
        for h in range(H):
            row[h] = -sign * 1e300
        for f in range(6):
            if mask & (1 << f):
                src = col[f, roll_counts[r, f]]
                for h in range(H):
                    if sign * src[h] > sign * row[h]:
                        row[h] = src[h]
        for o in range(opt_start[r], opt_start[r + 1]):
            c = opt_combo[o]
            if mask & (1 << c):
                s = opt_shape[o]
                d = D_prev[level_index[mask & ~(1 << c)], s]
                q = qcum[s]
                pts = opt_points[o]
                for h in range(H):
                    v = pts * q[h] + d[h]
                    if sign * v > sign * row[h]:
                        row[h] = v
    for h in range(H):
        total = 0.0
        if reroll_allowed and h > 0:
            reroll = W[mask, h - 1]
            for r in range(n_rolls):
                v = picks[r, h]
                total += roll_probs[r] * (v if v > reroll else reroll)
        else:
            for r in range(n_rolls):
                total += roll_probs[r] * picks[r, h]
        W[mask, h] = total
    for h in range(H, W.shape[1]):
        W[mask, h] = W[mask, hmax]  # goods this level never holds; kept finite


@njit(cache=True, parallel=True)
def solve_level(W, masks, hmax, sign, reroll_allowed, roll_probs, roll_counts, opt_start, opt_combo, opt_shape,
                opt_points, q, qcum, D_prev, D_next, next_hmax, level_index, binom):
    """W for every mask of one level (in parallel; goods up to ``hmax``, the most a turn of this level
    can hold), then that level's D for the level above (goods up to ``next_hmax``)."""
    n = masks.shape[0]
    H = W.shape[1]
    for i in prange(n):
        col = np.empty((6, 7, H))
        picks = np.empty((roll_probs.shape[0], H))
        _turn_values(W, masks[i], hmax, sign, reroll_allowed, roll_probs, roll_counts, opt_start, opt_combo,
                     opt_shape, opt_points, qcum, D_prev, level_index, binom, col, picks)
    for i in prange(n):
        _completion(W, masks[i], next_hmax, q, qcum, D_next[i])


@njit(cache=True)
def base_completion(q, qcum, out):
    """D for the level with nothing free (the game ends: the goods left are the value)."""
    W = np.zeros((1, out.shape[1]))
    _completion(W, 0, out.shape[1] - 1, q, qcum, out)
