"""Despirala played for a score: the best chance of a final score above a need (below it in misere play).

``V`` is float32, one block per set of free combinations ``mask``: row ``h`` (goods at the start of a
turn, this turn's 5 included; ``rows[mask]`` is the most a turn of that set can hold) of ``N + 1`` cells
from ``offset[mask] + h * (N + 1)``. Cell ``n`` holds the best chance that the points still to come plus
the final goods, X, are more than n (fewer than n in misere play), X = n counting ``row[0]``: 1 for a target,
1/2 for a score to beat. Needs only fall as points are scored, so needs 0..N answer every need up to N; a
need below 0 is met (normal) or missed (misere) already. More generally a finished game still needing m >= 0
points is worth ``row[m]`` (a goal's utility of the final score, ``core.aims.FinalScoreGoal``: a target's row
is (1, 0, 0, ...), a blind field's the chance of coming first), and the best expected worth is the table's.
From ``reach`` on the row is one value, ``beyond``: a need more than ``reach - 1`` points past what a player
can still score is worth ``beyond`` whatever the dice, and is not computed from them.

A turn's chance is the mean over its 462 throws of the best option for each need, as in the expected-score
solve (``kernels.expected``) with chances for values; but a combination's points now move the need, so
nothing separates points from what follows: every option is a whole row over the needs.

* Collect f holding c at g goods: Stop ends the turn needing n - f c; Continue (a good) rethrows the others
  and keeps the need; ``col[f, c, g, n]`` is the better, built upwards in g.
* A picked combination with missing shape s and p points: completed on the t-th rethrow with probability
  q[s, t], ending with h - t goods needing n - p; else out of goods, no points, no goods.
* Reroll (normal play, a good): the same turn with h - 1 goods, the row below in the same block.
"""

import numpy as np

from ...core.jit import borrowed, njit, prange
from .expected import _throw, collect_hits, complete_by_draws
from .lend import lend_targets, lend_throws

GOODS_PER_TURN = 5
N_COMBOS = 14


@njit(cache=True, nogil=True, inline="always")
def met_already(normal):
    """The chance of a need below 0: met whatever happens (normal), or missed already (misere)."""
    return 1.0 if normal else 0.0


@njit(cache=True, nogil=True)
def end_chance(targets, after, g, n, normal):
    """The chance when a turn ends leaving ``after`` free and ``g`` goods, needing ``n`` (at most N)."""
    if n < 0:
        return met_already(normal)
    if after == 0:  # the game is over: the goods are all that is still to come
        if g > n:
            return met_already(normal)
        return targets.goal[n - g]
    return np.float64(targets.V[targets.offset[after] + min(g + GOODS_PER_TURN, targets.rows[after]) * (targets.N + 1)
                                + n])


@njit(cache=True, nogil=True, inline="always")
def turn_chance(targets, mask, h, n, normal):
    """The chance at the start of a turn (or after a Reroll) of a set with something free."""
    if n < 0:
        return met_already(normal)
    return np.float64(targets.V[targets.offset[mask] + min(h, targets.rows[mask]) * (targets.N + 1) + n])


@njit(cache=True, nogil=True)
def fill_ends(targets, mask, hmax, normal, ends):
    """ends[c, g, n]: end_chance leaving mask - c, for every free c, g <= hmax and n <= N."""
    for c in range(N_COMBOS):
        if mask & (1 << c):
            after = mask & ~(1 << c)
            for g in range(hmax + 1):
                for n in range(targets.N + 1):
                    ends[c, g, n] = end_chance(targets, after, g, n, normal)


@njit(cache=True, nogil=True)
def fill_collects(mask, hmax, N, normal, binom, ends, col):
    """col[f, c, g, n]: the best chance collecting face f + 1 holding c of it at g goods, needing n."""
    below = met_already(normal)
    for f in range(6):
        if not mask & (1 << f):
            continue
        face = f + 1
        for g in range(hmax + 1):
            for c in range(7):
                out = col[f, c, g]
                shift = face * c
                for n in range(min(shift, N + 1)):
                    out[n] = below
                for n in range(shift, N + 1):
                    out[n] = ends[f, g, n - shift]
                if g > 0 and c < 6:
                    k = 6 - c
                    for n in range(N + 1):
                        go = 0.0
                        for j in range(k + 1):
                            go += binom[k, j] * col[f, c + j, g - 1, n]
                        out[n] = max(out[n], go)


@njit(cache=True, nogil=True)
def fill_completions(mask, h, N, most, used, q, ends, done):
    """done[c, s, m]: the chance of completing c (missing shape s) within h rethrows and then meeting
    need m, for the shapes ``used`` by c's options (the points are taken off the need by the caller), for
    the needs up to ``most`` (turn_row reads no more; ``most``: what the player can still score, plus
    ``reach`` - 1)."""
    W = min(N, most) + 1
    for c in range(N_COMBOS):
        if not mask & (1 << c) or c < 6:
            continue
        for s in range(q.shape[0]):
            if not used[c, s]:
                continue
            out = done[c, s]
            for m in range(W):
                out[m] = 0.0
            for t in range(h + 1):
                w = q[s, t]
                if w == 0.0:
                    continue
                src = ends[c, h - t]
                for m in range(W):
                    out[m] += w * src[m]


@njit(cache=True, nogil=True)
def turn_row(targets, mask, h, most, beyond, throws, scratch):
    """acc[n] = the chance of a turn started at (mask, h), for every need (the completions at h ready in
    ``scratch`` = (ends, col, done, row, acc)). ``most``: the most the turn's player can still score, goods
    included, plus ``reach`` - 1; needs above it are worth ``beyond`` whatever the dice (a target's: missed in
    normal play, met in misere), and are not computed from them."""
    ends, col, done, row, acc = scratch
    V, offset, N = targets.V, targets.offset, targets.N
    roll_probs, roll_counts, qcum = throws.probs, throws.counts, throws.qcum
    opt_start, opt_combo, opt_shape, opt_points = throws.opt_start, throws.opt_combo, throws.opt_shape, \
        throws.opt_points
    below = met_already(throws.normal)
    W = min(N, most) + 1
    for n in range(W, N + 1):
        acc[n] = beyond
    for n in range(W):
        acc[n] = 0.0
    reroll = throws.normal and h > 0
    before = offset[mask] + (h - 1) * (N + 1)
    for r in range(roll_probs.shape[0]):
        if reroll:
            for n in range(W):
                row[n] = V[before + n]
        else:
            for n in range(W):
                row[n] = 0.0
        for f in range(6):
            if mask & (1 << f):
                src = col[f, roll_counts[r, f], h]
                for n in range(W):
                    row[n] = max(row[n], src[n])
        for o in range(opt_start[r], opt_start[r + 1]):
            c = opt_combo[o]
            if not mask & (1 << c):
                continue
            s = opt_shape[o]
            p = int(opt_points[o])
            ok = qcum[s, h]
            lost = 1.0 - ok
            fail = ends[c, 0]
            src = done[c, s]
            for n in range(min(p, W)):
                row[n] = max(row[n], ok * below + lost * fail[n])
            for n in range(p, W):
                row[n] = max(row[n], src[n - p] + lost * fail[n])
        p_r = roll_probs[r]
        for n in range(W):
            acc[n] += p_r * row[n]


@njit(cache=True, nogil=True)
def target_level(stripe, stripes, targets, masks, hmax, reach, beyond, throws):
    """Every row h <= hmax of masks stripe, stripe + stripes, ... of one level, from the level below (already
    in ``targets``' V), on the calling thread without the GIL (Python's threads run one stripe each); a
    finished game is worth the targets' goal row (the module docstring)."""
    # the caller owns every array for the call: borrowed views cost no reference counts in the loops
    targets, throws, masks = lend_targets(targets), lend_throws(throws), borrowed(masks)
    V, offset, N, normal = targets.V, targets.offset, targets.N, throws.normal
    W = N + 1
    n_shapes = throws.q.shape[0]
    # the thread's scratch, for all its masks: ends, col, done, row, acc
    scratch = (np.zeros((N_COMBOS, hmax + 1, W)), np.zeros((6, 7, hmax + 1, W)), np.zeros((N_COMBOS, n_shapes, W)),
               np.empty(W), np.empty(W))
    ends, col, done, acc = scratch[0], scratch[1], scratch[2], scratch[4]
    for i in range(stripe, masks.shape[0], stripes):
        mask = masks[i]
        fill_ends(targets, mask, hmax, normal, ends)
        fill_collects(mask, hmax, N, normal, throws.binom, ends, col)
        base = offset[mask]
        points = 0
        turns = 0
        for c in range(N_COMBOS):
            if mask & (1 << c):
                points += throws.top[c]
                turns += 1
        for h in range(hmax + 1):
            # every good kept, every combination at its best; past it by reach or more, the row's tail
            most = points + h + GOODS_PER_TURN * (turns - 1) + reach - 1
            fill_completions(mask, h, N, most, throws.used, throws.q, ends, done)
            turn_row(targets, mask, h, most, beyond, throws, scratch)
            for n in range(W):
                V[base + h * W + n] = acc[n]


@njit(cache=True, nogil=True)
def pick_chance(targets, after, s, h, p, n, normal, q, qcum):
    """Picking a combination that misses shape ``s`` and scores ``p`` at ``h`` goods, needing ``n``
    (``TargetTable.pick_chance``'s sum, in its order)."""
    ok = qcum[s, h]
    lost = (1.0 - ok) * end_chance(targets, after, np.int64(0), n, normal)
    if n - p < 0:
        return ok * met_already(normal) + lost
    acc = 0.0
    for t in range(h + 1):
        if q[s, t] != 0.0:
            acc += q[s, t] * end_chance(targets, after, h - t, n - p, normal)
    return acc + lost


@njit(cache=True, nogil=True)
def collect_chances(targets, after, face, h, n, normal, binom, out):
    """out[c, g] (g <= h): the best chance collecting ``face`` holding c at g goods, needing n."""
    for g in range(h + 1):
        for c in range(7):
            best = end_chance(targets, after, g, n - face * c, normal)
            if g > 0 and c < 6:
                go = 0.0
                for j in range(6 - c + 1):
                    go += binom[6 - c, j] * out[c + j, g - 1]
                best = max(best, go)
            out[c, g] = best


@njit(cache=True, nogil=True)
def turn_collects(targets, mask, h, n, normal, binom, col):
    """col[f] = collect_chances for every free collect face at the start of a turn (h goods, need n)."""
    for f in range(6):
        if mask & (1 << f):
            collect_chances(targets, mask & ~(1 << f), f + 1, h, n, normal, binom, col[f])


@njit(cache=True, nogil=True)
def target_choice(targets, mask, h, n, r, throws, col):
    """The target player's move after throw r (``col`` from turn_collects): -1 Reroll, f < 6 Collect f + 1,
    6 + o option o; the first best of Reroll, the collects, then the options in their order."""
    normal, roll_counts = throws.normal, throws.counts
    opt_start, opt_combo, opt_shape, opt_points = throws.opt_start, throws.opt_combo, throws.opt_shape, \
        throws.opt_points
    best = -1.0
    choice = -1
    if normal and h > 0:
        best = turn_chance(targets, mask, h - 1, n, normal)
    for f in range(6):
        if mask & (1 << f):
            v = col[f, roll_counts[r, f], h]
            if v > best:
                best = v
                choice = f
    for o in range(opt_start[r], opt_start[r + 1]):
        c = opt_combo[o]
        if mask & (1 << c):
            v = pick_chance(targets, mask & ~(1 << c), opt_shape[o], h, int(opt_points[o]), n, normal, throws.q,
                            throws.qcum)
            if v > best:
                best = v
                choice = 6 + o
    return choice


@njit(cache=True, nogil=True)
def target_goes_on(targets, col_f, after, face, have, h, n, normal, binom):
    """Whether the target player rethrows when collecting ``face`` holding ``have`` at h goods (a tie
    stops)."""
    if h == 0 or have == 6:
        return False
    go = 0.0
    for j in range(6 - have + 1):
        go += binom[6 - have, j] * col_f[have + j, h - 1]
    return go > end_chance(targets, after, h, n - face * have, normal)


@njit(cache=True, parallel=True)
def target_games(targets, aim, throws, start, seed, scores):
    """Play ``len(scores)`` games for the best chance of ``aim`` from a turn start ``start`` = (free
    combinations, goods, points), each game its own seeded random stream, whatever thread plays it, deciding as
    ``TargetPlayer`` does (``target_choice``)."""
    H = targets.rows.max() + GOODS_PER_TURN + 1
    powers = np.array([1, 7, 49, 343, 2401, 16807])
    start_mask, start_goods, start_points = start
    for game in prange(scores.shape[0]):
        lent, chances = lend_throws(throws), lend_targets(targets)
        normal, roll_counts, code_index, binom = lent.normal, lent.counts, lent.code_index, lent.binom
        np.random.seed((seed * 1000003 + game * 7919 + 17) % 4294967296)
        col = np.empty((6, 7, H))
        counts = np.zeros(6, dtype=np.int64)
        mask = start_mask
        goods = start_goods
        points = start_points
        while mask != 0:
            h = goods + GOODS_PER_TURN
            n = aim - points
            turn_collects(chances, mask, h, n, normal, binom, col)
            _throw(6, counts)
            while True:
                r = code_index[np.sum(counts * powers)]
                choice = target_choice(chances, mask, h, n, r, lent, col)
                if choice == -1:
                    h -= 1
                    _throw(6, counts)
                    continue
                if choice < 6:
                    f = choice
                    after = mask & ~(1 << f)
                    have = roll_counts[r, f]
                    while target_goes_on(chances, col[f], after, f + 1, have, h, n, normal, binom):
                        h -= 1
                        have += collect_hits(6 - have, f)
                    points += (f + 1) * have
                    goods = h
                    mask = after
                    break
                o = choice - 6
                completed, h = complete_by_draws(lent.opt_shape[o], h, lent.shape_cum, lent.done)
                points += int(lent.opt_points[o]) if completed else 0
                goods = h if completed else 0  # out of goods: no points, and every good is lost
                mask = mask & ~(1 << lent.opt_combo[o])
                break
        scores[game] = points + goods
