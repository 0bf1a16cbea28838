"""Despirala's breakdown table (``despirala/breakdown.py``): at every turn start (free combinations ``mask``,
``h`` goods), the expected points each combination will still score and the expected final goods under the
expected-score strategy, and the variance of the points still to come plus the final goods.

A turn's ends are those ``future.turn_end_weights`` gathers for the distribution table (a pick of ``c``
scoring a slot's points and leaving ``g`` goods, or a Reroll to ``h - 1``); each end's aspects are its points
plus the aspects of the turn it leads to, and the variance is the law of total variance over the ends.
"""

from ...core.jit import borrowed, njit
from .future import GOODS_PER_TURN, turn_end_weights, turn_ends, turn_scratch
from .lend import lend_throws


@njit(cache=True, nogil=True)
def breakdown_level(stripe, stripes, T, V, masks, hmax, W, throws):
    """T[mask, h] (N_COMBOS combinations, then the final goods) and V[mask, h] for every h <= hmax of every
    mask of one level, from the level below (already in T and V); rows above hmax (goods the level never
    holds) repeat row hmax, as the expected-score table W does. Masks stripe, stripe + stripes, ... on the
    calling thread, without the GIL (Python's threads run one stripe each)."""
    # the caller owns every array for the call: borrowed views cost no reference counts in the loops
    throws, W, masks, T, V = lend_throws(throws), borrowed(W), borrowed(masks), borrowed(T), borrowed(V)
    sign = 1.0 if throws.normal else -1.0
    H = W.shape[1]
    goods = T.shape[2] - 1
    for i in range(stripe, masks.shape[0], stripes):
        mask = masks[i]
        scratch = turn_scratch(W, mask, sign, 0.0, throws)
        end_combo, end_points, end_goods, end_weight = scratch[5], scratch[6], scratch[7], scratch[8]
        for h in range(hmax + 1):
            reroll = turn_end_weights(W, mask, h, sign, 0.0, throws, scratch)
            n_ends = turn_ends(scratch, mask, h, throws)
            mean = 0.0  # the ends' own mixture (W[mask, h] to rounding), so that the spread is about it
            if reroll > 0.0:
                mean += reroll * W[mask, h - 1]
            for e in range(n_ends):
                after = mask & ~(1 << end_combo[e])
                g = end_goods[e]
                end = g if after == 0 else W[after, min(g + GOODS_PER_TURN, H - 1)]
                mean += end_weight[e] * (end_points[e] + end)
            out = T[mask, h]
            out[:] = 0.0
            spread = 0.0
            if reroll > 0.0:
                before = T[mask, h - 1]
                for a in range(goods + 1):
                    out[a] += reroll * before[a]
                d = W[mask, h - 1] - mean
                spread += reroll * (V[mask, h - 1] + d * d)
            for e in range(n_ends):
                c, pts, g, w = end_combo[e], end_points[e], end_goods[e], end_weight[e]
                after = mask & ~(1 << c)
                out[c] += w * pts
                if after == 0:
                    out[goods] += w * g
                    d = pts + g - mean
                    spread += w * d * d
                else:
                    row = min(g + GOODS_PER_TURN, H - 1)
                    nxt = T[after, row]
                    for a in range(goods + 1):
                        out[a] += w * nxt[a]
                    d = pts + W[after, row] - mean
                    spread += w * (V[after, row] + d * d)
            V[mask, h] = spread
        for h in range(hmax + 1, H):
            # element by element: assigning an array to a slice compiles numba's shape-mismatch message (core.jit)
            for copy_at in range(T.shape[2]):
                T[mask, h, copy_at] = T[mask, hmax, copy_at]
            V[mask, h] = V[mask, hmax]
