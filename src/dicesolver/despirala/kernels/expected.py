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

With a risk appetite ``theta`` != 0 (normal play) every value is E[exp(theta * what is still to come)]
instead of its mean: points now and a future worth U are worth exp(theta * points) * U (``then``), a
finished game's goods g are exp(theta * g), the averages are unchanged, and ``sign`` is the sign of theta
(theta < 0 minimises). ``D`` then holds the completion's success part alone (the picked points multiply
it), the running out of goods being added where it is used. Despirala's final scores stay below 620 and
|theta| <= 1, so these values lie between e^-620 and e^620: doubles hold them without logarithms.
"""

import math

import numpy as np

from ...core.jit import njit, prange
from .lend import lend_throws

GOODS_PER_TURN = 5


@njit(cache=True, nogil=True, inline="always")
def then(theta, points, value):
    """``points`` scored now, then a future worth ``value``: their sum (the mean), or with a risk appetite
    exp(theta * points) * value."""
    if theta == 0.0:
        return points + value
    return math.exp(theta * points) * value


@njit(cache=True, nogil=True, inline="always")
def _end_value(W, mask, g, theta=0.0):
    if mask == 0:
        return then(theta, float(g), 0.0 if theta == 0.0 else 1.0)
    return W[mask, min(g + GOODS_PER_TURN, W.shape[1] - 1)]


@njit(cache=True, nogil=True)
def _completion(W, mask, hmax, q, qcum, out, theta=0.0):
    """out[s, h] = D for the successor ``mask``, every shape, goods up to ``hmax`` (with a risk appetite,
    the success part alone)."""
    n_shapes, H = out.shape
    end = np.empty(H)
    for g in range(H):
        end[g] = _end_value(W, mask, g, theta)
    for s in range(n_shapes):
        for h in range(hmax + 1):
            acc = 0.0
            for t in range(h + 1):
                acc += q[s, t] * end[h - t]
            out[s, h] = acc + (1.0 - qcum[s, h]) * end[0] if theta == 0.0 else acc


@njit(cache=True, nogil=True)
def _collect_table(W, mask_after, face, binom, sign, out, theta=0.0):
    """out[c, h]: best value of Collect ``face`` holding ``c`` of it with ``h`` goods."""
    H = out.shape[1]
    for h in range(H):
        for c in range(6, -1, -1):
            stop = then(theta, float(face * c), _end_value(W, mask_after, h, theta))
            best = stop
            if h > 0 and c < 6:
                go = 0.0
                n = 6 - c
                for j in range(n + 1):
                    go += binom[n, j] * out[c + j, h - 1]
                if sign * go > sign * best:
                    best = go
            out[c, h] = best


@njit(cache=True, nogil=True, inline="always")
def _mix(x):
    """splitmix64: a counter-based random number, so sampled models do not depend on thread order."""
    x = (x + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    x = ((x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    x = ((x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    return x ^ (x >> np.uint64(31))


@njit(cache=True, nogil=True)
def _sample_weights(mask, h, samples, seed, cum, weights):
    """weights[r] = share of ``samples`` throws drawn for state (mask, h) that came out as throw r."""
    weights[:] = 0.0
    base = _mix(np.uint64(seed) * np.uint64(1000003) + np.uint64(mask) * np.uint64(97) + np.uint64(h))
    for i in range(samples):
        u = (_mix(base + np.uint64(i)) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
        r = np.searchsorted(cum, u, side="right")
        if r >= weights.shape[0]:
            r = weights.shape[0] - 1
        weights[r] += 1.0 / samples


@njit(cache=True, nogil=True)
def _turn_values(W, mask, hmax, sign, theta, throws, D_prev, level_index, scratch, samples, seed, cum):
    """Fill W[mask, :hmax + 1] from the level below. ``scratch`` = (col, picks, weights): ``picks[r, h]``
    gets each throw's best pick, contiguous in h; the Reroll, the same for every throw, is mixed in
    afterwards. With ``samples`` > 0 the mean over all throws is replaced by the mean over that many sampled
    throws (a Monte Carlo model)."""
    col, picks, weights = scratch
    roll_probs, roll_counts, binom, qcum = throws.probs, throws.counts, throws.binom, throws.qcum
    opt_start, opt_combo, opt_shape, opt_points = throws.opt_start, throws.opt_combo, throws.opt_shape, \
        throws.opt_points
    H = hmax + 1
    n_rolls = roll_probs.shape[0]
    for f in range(6):
        if mask & (1 << f):
            _collect_table(W, mask & ~(1 << f), f + 1, binom, sign, col[f], theta)
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
                if theta == 0.0:
                    for h in range(H):
                        v = pts * q[h] + d[h]
                        if sign * v > sign * row[h]:
                            row[h] = v
                else:  # the points multiply the success part; running out of goods leaves them out
                    gain = math.exp(theta * pts)
                    out_of_goods = _end_value(W, mask & ~(1 << c), 0, theta)
                    for h in range(H):
                        v = gain * d[h] + (1.0 - q[h]) * out_of_goods
                        if sign * v > sign * row[h]:
                            row[h] = v
    for h in range(H):
        if samples > 0:
            _sample_weights(mask, h, samples, seed, cum, weights)
        else:
            # element by element: assigning an array to a slice compiles numba's shape-mismatch message (core.jit)
            for copy_at in range(roll_probs.shape[0]):
                weights[copy_at] = roll_probs[copy_at]
        total = 0.0
        if throws.normal and h > 0:
            reroll = W[mask, h - 1]
            for r in range(n_rolls):
                if weights[r] != 0.0:
                    v = picks[r, h]
                    total += weights[r] * (v if sign * v > sign * reroll else reroll)
        else:
            for r in range(n_rolls):
                total += weights[r] * picks[r, h]
        W[mask, h] = total
    for h in range(H, W.shape[1]):
        W[mask, h] = W[mask, hmax]  # goods this level never holds; kept finite


@njit(cache=True, parallel=True)
def solve_level(W, masks, hmax, sign, theta, throws, D_prev, D_next, next_hmax, level_index, samples, seed):
    """W for every mask of one level (in parallel; goods up to ``hmax``, the most a turn of this level
    can hold), then that level's D for the level above (goods up to ``next_hmax``). ``sign``: +1 where
    values are maximised; ``theta``: the risk appetite (the module docstring)."""
    n = masks.shape[0]
    H = W.shape[1]
    n_rolls = throws.probs.shape[0]
    cum = np.cumsum(throws.probs)
    for i in prange(n):
        lent = lend_throws(throws)  # in the loop's body: each thread lends itself the throws
        scratch = (np.empty((6, 7, H)), np.empty((n_rolls, H)), np.empty(n_rolls))
        _turn_values(W, masks[i], hmax, sign, theta, lent, D_prev, level_index, scratch, samples, seed, cum)
    for i in prange(n):
        _completion(W, masks[i], next_hmax, throws.q, throws.qcum, D_next[i], theta)


@njit(cache=True)
def base_completion(q, qcum, out, theta):
    """D for the level with nothing free (the game ends: the goods left are the value)."""
    W = np.zeros((1, out.shape[1]))
    _completion(W, np.int64(0), out.shape[1] - 1, q, qcum, out, theta)


@njit(cache=True, nogil=True)
def _pick_value(W, after, s, h, pts, q, qcum, theta=0.0):
    """Picking a combination with missing shape ``s`` and ``pts`` points at ``h`` goods, leaving ``after``."""
    acc = 0.0
    for t in range(h + 1):
        acc += q[s, t] * _end_value(W, after, h - t, theta)
    out_of_goods = (1.0 - qcum[s, h]) * _end_value(W, after, 0, theta)
    if theta == 0.0:
        return pts * qcum[s, h] + acc + out_of_goods
    return math.exp(theta * pts) * acc + out_of_goods


@njit(cache=True, nogil=True)
def _throw(n, counts):
    counts[:] = 0
    for _ in range(n):
        counts[np.random.randint(0, 6)] += 1


@njit(cache=True, nogil=True, inline="always")
def throw_code(counts):
    """A throw's dice counted by face, as its base-7 number (``code_index``'s key), with no array made."""
    code = 0
    place = 1
    for f in range(6):
        code += counts[f] * place
        place *= 7
    return code


@njit(cache=True, nogil=True, inline="always")
def collect_hits(n, f):
    """How many of ``n`` rethrown dice show face f + 1, on np.random's stream."""
    hits = 0
    for _ in range(n):
        if np.random.randint(0, 6) == f:
            hits += 1
    return hits


@njit(cache=True, nogil=True, inline="always")
def complete_by_draws(s, h, shape_cum, done):
    """Rethrow a picked combination's missing dice (shape s) while goods last, one good a rethrow, on
    np.random's stream: (completed, goods left)."""
    while s != done and h > 0:
        h -= 1
        u = np.random.random()
        s = np.searchsorted(shape_cum[s], u, side="right")
        if s >= shape_cum.shape[1]:
            s = shape_cum.shape[1] - 1
    return s == done, h


@njit(cache=True, parallel=True)
def simulate_games(W, sign, theta, throws, start, seed, scores):
    """Play ``len(scores)`` games (from the turn start ``start`` = (free combinations, goods, points)) with the
    decisions of table ``W``; game g uses its own seeded random stream, whatever thread plays it."""
    H = W.shape[1]
    start_mask, start_goods, start_points = start
    for g in prange(scores.shape[0]):
        lent = lend_throws(throws)
        reroll_allowed, roll_counts, code_index, binom = lent.normal, lent.counts, lent.code_index, lent.binom
        opt_start, opt_combo, opt_shape, opt_points = lent.opt_start, lent.opt_combo, lent.opt_shape, lent.opt_points
        q, qcum, shape_cum, done = lent.q, lent.qcum, lent.shape_cum, lent.done
        np.random.seed((seed * 1000003 + g * 7919 + 17) % 4294967296)
        col = np.empty((6, 7, H))
        counts = np.zeros(6, dtype=np.int64)
        mask = start_mask
        goods = start_goods
        points = start_points
        while mask != 0:
            h = min(goods + GOODS_PER_TURN, H - 1)
            for f in range(6):
                if mask & (1 << f):
                    _collect_table(W, mask & ~(1 << f), f + 1, binom, sign, col[f, :, : h + 1], theta)
            _throw(6, counts)
            while True:
                r = code_index[throw_code(counts)]
                best = -sign * 1e300
                choice = -1  # -1 reroll, 0..5 collect, 6+ option index + 6
                if reroll_allowed and h > 0:
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
                        v = _pick_value(W, mask & ~(1 << c), opt_shape[o], h, opt_points[o], q, qcum, theta)
                        if sign * v > sign * best:
                            best = v
                            choice = 6 + o
                if choice == -1:
                    h -= 1
                    _throw(6, counts)
                    continue
                if choice < 6:
                    f = choice
                    after = mask & ~(1 << f)
                    have = roll_counts[r, f]
                    while True:
                        stop = then(theta, float((f + 1) * have), _end_value(W, after, h, theta))
                        if h > 0 and have < 6:
                            go = 0.0
                            for j in range(6 - have + 1):
                                go += binom[6 - have, j] * col[f, have + j, h - 1]
                            if sign * go > sign * stop:
                                h -= 1
                                have += collect_hits(6 - have, f)
                                continue
                        break
                    points += (f + 1) * have
                    goods = h
                    mask = after
                    break
                o = choice - 6
                completed, h = complete_by_draws(opt_shape[o], h, shape_cum, done)
                points += int(opt_points[o]) if completed else 0
                goods = h if completed else 0  # out of goods: no points, and every good is lost
                mask = mask & ~(1 << opt_combo[o])
                break
        scores[g] = points + goods
