"""Exact future-score distributions of Despirala's expected-score strategy.

``F`` is ragged, float32, one block per set of free combinations ``mask``: row ``h`` (goods at the start
of a turn, this turn's 5 included) of ``length[mask]`` cells from ``offset[mask] + h * length[mask]`` holds
P(points still to come + final goods = x). A turn's distribution is the mixture, over its outcomes under
the strategy's decisions, of the distributions where the turn ends, shifted by the turn's points:

* a Reroll leads to row ``h - 1`` of the same mask (so rows are filled in increasing ``h``);
* a pick of combination ``c`` ends leaving ``mask - c`` and some goods ``g``, with some points, whose
  weights are gathered first in ``weight[c, slot, g]`` (``slot`` numbers the points ``c`` can score);
* a turn end leaving ``after`` and ``g`` goods reads row ``g + 5`` of ``after`` (or is ``g`` itself when
  nothing is left).

The decisions are those of ``expected.simulate_games``: the same values compared in the same order (with a
risk appetite ``theta``, those of its table: ``expected``'s module docstring).
"""

import math

import numpy as np

from ...core.jit import borrowed, njit
from .expected import _collect_table, _end_value, then
from .lend import lend_futures, lend_throws

GOODS_PER_TURN = 5
N_COMBOS = 14


@njit(cache=True, nogil=True)
def pick_parts(W, mask, h, q, qcum, acc, fail, theta=0.0):
    """For every free combination c and shape s, the two goods-dependent terms of picking it at ``h``
    goods (``_pick_value`` is ``points * qcum[s, h] + acc[c, s] + fail[c, s]``, summed in that order; with
    a risk appetite ``exp(theta * points) * acc[c, s] + fail[c, s]``)."""
    n_shapes = q.shape[0]
    for c in range(N_COMBOS):
        if not mask & (1 << c):
            continue
        after = mask & ~(1 << c)
        at_zero = _end_value(W, after, 0, theta)
        for s in range(n_shapes):
            a = 0.0
            for t in range(h + 1):
                a += q[s, t] * _end_value(W, after, h - t, theta)
            acc[c, s] = a
            fail[c, s] = (1.0 - qcum[s, h]) * at_zero


@njit(cache=True, nogil=True)
def expected_choice(W, mask, h, r, sign, theta, throws, acc, fail, col):
    """The expected-score decision after throw ``r``: -1 Reroll, f < 6 Collect f + 1, 6 + o option o (``acc``
    and ``fail`` from pick_parts, ``col`` the Collect tables)."""
    roll_counts, qcum = throws.counts, throws.qcum
    opt_start, opt_combo, opt_shape, opt_points = throws.opt_start, throws.opt_combo, throws.opt_shape, \
        throws.opt_points
    best = -sign * 1e300
    choice = -1
    if throws.normal and h > 0:
        best = W[mask, h - 1]
    for f in range(6):
        if mask & (1 << f):
            v = col[f, roll_counts[r, f], h]
            if sign * v > sign * best:
                best = v
                choice = f
    for o in range(opt_start[r], opt_start[r + 1]):
        c = opt_combo[o]
        if mask & (1 << c):
            s = opt_shape[o]
            if theta == 0.0:
                v = opt_points[o] * qcum[s, h] + acc[c, s] + fail[c, s]
            else:
                v = math.exp(theta * opt_points[o]) * acc[c, s] + fail[c, s]
            if sign * v > sign * best:
                best = v
                choice = 6 + o
    return choice


@njit(cache=True, nogil=True, inline="always")
def collect_goes_on(W, col_f, after, face, have, g, binom, sign, theta=0.0):
    """Whether the expected-score strategy rethrows when collecting ``face`` holding ``have`` at ``g`` goods
    (the comparison ``_collect_table`` makes)."""
    if g == 0 or have == 6:
        return False
    go = 0.0
    n = 6 - have
    for j in range(n + 1):
        go += binom[n, j] * col_f[have + j, g - 1]
    return sign * go > sign * then(theta, float(face * have), _end_value(W, after, g, theta))


@njit(cache=True, nogil=True)
def collect_ends(W, col_f, after, face, h, entry, binom, sign, out, theta=0.0):
    """Push ``entry[have]`` (collecting ``face`` at ``h`` goods) through the strategy's Continue / Stop
    decisions: out[have, g] += the probability of stopping holding ``have`` with ``g`` goods."""
    mass = entry.copy()
    nxt = np.zeros(7)
    for g in range(h, -1, -1):
        nxt[:] = 0.0
        for have in range(7):
            m = mass[have]
            if m == 0.0:
                continue
            if collect_goes_on(W, col_f, after, face, have, g, binom, sign, theta):
                n = 6 - have
                for j in range(n + 1):
                    nxt[have + j] += m * binom[n, j]
            else:
                out[have, g] += m
        # element by element: assigning an array to a slice compiles numba's shape-mismatch message (core.jit)
        for copy_at in range(nxt.shape[0]):
            mass[copy_at] = nxt[copy_at]


@njit(cache=True, nogil=True)
def turn_end_weights(W, mask, h, sign, theta, throws, scratch):
    """weight[c, slot, g] (``turn_scratch``'s, zeroed up to g = h here): the probability that a turn started at
    (mask, h) ends by picking c with slot's points and g goods left; returns the probability of a Reroll."""
    col, acc, fail, weight, cw = scratch[0], scratch[1], scratch[2], scratch[3], scratch[4]
    roll_probs, roll_counts, opt_combo, opt_shape, opt_slot = throws.probs, throws.counts, throws.opt_combo, \
        throws.opt_shape, throws.opt_slot
    q, qcum, binom = throws.q, throws.qcum, throws.binom
    weight[:, :, : h + 1] = 0.0
    cw[:, :] = 0.0
    pick_parts(W, mask, h, q, qcum, acc, fail, theta)
    reroll = 0.0
    for r in range(roll_probs.shape[0]):
        p = roll_probs[r]
        choice = expected_choice(W, mask, h, r, sign, theta, throws, acc, fail, col)
        if choice < 0:
            reroll += p
        elif choice < 6:
            cw[choice, roll_counts[r, choice]] += p
        else:
            o = choice - 6
            c = opt_combo[o]
            s = opt_shape[o]
            slot = opt_slot[o]
            for t in range(h + 1):
                weight[c, slot, h - t] += p * q[s, t]
            weight[c, 0, 0] += p * (1.0 - qcum[s, h])  # out of goods: no points, no goods
    for f in range(6):
        if mask & (1 << f):
            collect_ends(W, col[f], mask & ~(1 << f), f + 1, h, cw[f], binom, sign, weight[f], theta)
    return reroll


@njit(cache=True, nogil=True)
def turn_scratch(W, mask, sign, theta, throws):
    """What ``turn_end_weights`` and ``turn_ends`` work in for the turns of one set of free combinations: its
    Collect tables made, the rest to be written: (col, acc, fail, weight, cw, end_combo, end_points,
    end_goods, end_weight)."""
    H = W.shape[1]
    n_shapes = throws.q.shape[0]
    col = np.empty((6, 7, H))
    for f in range(6):
        if mask & (1 << f):
            _collect_table(W, mask & ~(1 << f), f + 1, throws.binom, sign, col[f], theta)
    weight = np.zeros((N_COMBOS, throws.slot_points.shape[1], H))
    size = weight.size
    return (col, np.zeros((N_COMBOS, n_shapes)), np.zeros((N_COMBOS, n_shapes)), weight, np.zeros((6, 7)),
            np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64),
            np.empty(size))


@njit(cache=True, nogil=True)
def turn_ends(scratch, mask, h, throws):
    """The ends of ``turn_end_weights``' turn with a weight, one per (combination, slot, goods left) in that
    order, in ``turn_scratch``'s arrays: end_combo[e] picked for end_points[e], leaving end_goods[e], with
    probability end_weight[e]. Returns how many there are."""
    weight, end_combo, end_points, end_goods, end_weight = scratch[3], scratch[5], scratch[6], scratch[7], scratch[8]
    n_slots, slot_points = throws.n_slots, throws.slot_points
    n = 0
    for c in range(N_COMBOS):
        if not mask & (1 << c):
            continue
        for slot in range(n_slots[c]):
            for g in range(h + 1):
                w = weight[c, slot, g]
                if w != 0.0:
                    end_combo[n] = c
                    end_points[n] = slot_points[c, slot]
                    end_goods[n] = g
                    end_weight[n] = w
                    n += 1
    return n


@njit(cache=True, nogil=True)
def future_level(stripe, stripes, futures, masks, hmax, sign, theta, W, throws):
    """Every row h <= hmax of masks stripe, stripe + stripes, ... of one level, from the level below (already
    in ``futures``' F), on the calling thread without the GIL (Python's threads run one stripe each); the
    decisions of table W (``sign``: +1 where its values are maximised; ``theta``: its risk appetite)."""
    # the caller owns every array for the call: borrowed views cost no reference counts in the loops
    futures, throws, W, masks = lend_futures(futures), lend_throws(throws), borrowed(W), borrowed(masks)
    F, offset, length = futures.F, futures.offset, futures.length
    H = W.shape[1]
    for i in range(stripe, masks.shape[0], stripes):
        mask = masks[i]
        L = length[mask]
        base = offset[mask]
        scratch = turn_scratch(W, mask, sign, theta, throws)
        end_combo, end_points, end_goods, end_weight = scratch[5], scratch[6], scratch[7], scratch[8]
        row = np.empty(L)
        for h in range(hmax + 1):
            reroll = turn_end_weights(W, mask, h, sign, theta, throws, scratch)
            row[:] = 0.0
            if reroll > 0.0:
                before = base + (h - 1) * L
                for x in range(L):
                    row[x] += reroll * F[before + x]
            for e in range(turn_ends(scratch, mask, h, throws)):
                after = mask & ~(1 << end_combo[e])
                pts, g, w = end_points[e], end_goods[e], end_weight[e]
                if after == 0:
                    row[pts + g] += w
                    continue
                La = length[after]
                src = offset[after] + min(g + GOODS_PER_TURN, H - 1) * La
                for x in range(La):
                    row[pts + x] += w * F[src + x]
            for x in range(L):
                F[base + h * L + x] = row[x]
