"""Despirala played to win, and matches between two strategies, in numba.

A competitive player weighs each option of its turn by the expected number of opponents its final score
beats (a tie counts half): ``beat[y]`` for every final score y, from the opponents' exact final-score
distributions (``FutureTable.F``), and its own final score's distribution after the option, assuming the
expected-score strategy from the end of this turn on (the seed's model; after a Reroll, from the new
throw on). Inside the turn it collects to win too: Continue / Stop are weighed the same way. Options
whose values tie (within ``TIE``) go to the expected-score choice.

Within one turn the beat curve, the points and the free combinations are fixed, so the values of turn
ends (``ends[c, slot, g]``: picking c for slot's points, leaving g goods) and of collecting
(``collects[f, have, g]``) are computed when first needed and kept for the turn's later decisions, and
a pick's value (``picks[c, shape, slot]``) for the decisions at the same goods (NaN: not yet known).

Playing the throws after a Reroll to win as well (one throw deep, the rest by the expected-score model)
was measured on 10,000 games with the same dice: 54.62% / 54.91% first / second against 54.87% / 54.66%,
no gain, at a quarter of the speed; it was left out.
"""

import numpy as np

from ...core.jit import borrowed, njit
from .expected import _collect_table, _mix, throw_code
from .future import collect_goes_on, expected_choice, pick_parts
from .lend import lend_futures, lend_targets, lend_throws
from .target import target_choice, target_goes_on, turn_collects

GOODS_PER_TURN = 5
N_COMBOS = 14
TIE = 1e-12
REROLL = -1
BEAT_CELLS = 1024  # final scores 0..1023 (the most Despirala can give is 604)


@njit(cache=True, nogil=True, inline="always")
def beat_at(beat, y):
    return beat[min(y, beat.shape[0] - 1)]


@njit(cache=True, nogil=True)
def start_beaten(futures, mask, h, points, beat):
    """Expected opponents beaten from the start of a turn (mask, h) with ``points`` already scored."""
    if mask == 0:
        return beat_at(beat, points + h)
    L = futures.length[mask]
    src = futures.offset[mask] + min(h, futures.rows[mask]) * L
    total = 0.0
    for x in range(L):
        total += futures.F[src + x] * beat_at(beat, points + x)
    return total


@njit(cache=True, nogil=True)
def end_value(futures, mask, c, slot, g, points, slot_points, beat, ends):
    """ends[c, slot, g]: picking c for slot's points ends the turn with g goods."""
    H = ends.shape[2]
    v = ends[c, slot, g]
    if v == v:
        return v
    after = mask & ~(1 << c)
    total = points + slot_points[c, slot]
    if after == 0:
        v = beat_at(beat, total + g)
    else:
        v = start_beaten(futures, after, min(g + GOODS_PER_TURN, H - 1), total, beat)
    ends[c, slot, g] = v
    return v


@njit(cache=True, nogil=True)
def fill_collects(futures, mask, f, have_lo, h, points, throws, beat, ends, collects):
    """collects[f, have, g] for have >= have_lo and g <= h: collecting face f + 1 holding ``have`` with g
    goods, Continue and Stop chosen to win."""
    binom = throws.binom
    for g in range(h + 1):
        for have in range(6, have_lo - 1, -1):
            if collects[f, have, g] == collects[f, have, g]:
                continue
            v = end_value(futures, mask, f, have, g, points, throws.slot_points, beat, ends)
            if g > 0 and have < 6:
                n = 6 - have
                go = 0.0
                for j in range(n + 1):
                    go += binom[n, j] * collects[f, have + j, g - 1]
                if go > v:
                    v = go
            collects[f, have, g] = v


@njit(cache=True, nogil=True)
def pick_beaten(futures, mask, c, s, slot, h, points, throws, beat, ends, picks):
    """Picking c with missing shape s for slot's points at h goods: picks[c, s, slot] keeps it for this h."""
    v = picks[c, s, slot]
    if v == v:
        return v
    q, qcum, slot_points = throws.q, throws.qcum, throws.slot_points
    zero = np.int64(0)  # not the literal 0: one compiled end_value for every caller
    v = (1.0 - qcum[s, h]) * end_value(futures, mask, c, zero, zero, points, slot_points, beat, ends)
    for t in range(h + 1):
        if q[s, t] != 0.0:
            v += q[s, t] * end_value(futures, mask, c, slot, h - t, points, slot_points, beat, ends)
    picks[c, s, slot] = v
    return v


@njit(cache=True, nogil=True)
def option_values(futures, mask, h, points, r, reroll, throws, beat, memo, out):
    """out[0]: Reroll (``reroll``, NaN when not allowed), out[1 + f]: Collect f + 1, out[7 + o - opt_start[r]]:
    option o of throw r; NaN for what is not allowed. ``memo`` = (ends, collects, picks): the values known in
    this turn (picks: pick_beaten's at this h)."""
    ends, collects, picks = memo
    roll_counts, opt_start, opt_combo, opt_shape, opt_slot = throws.counts, throws.opt_start, throws.opt_combo, \
        throws.opt_shape, throws.opt_slot
    out[:] = np.nan
    out[0] = reroll
    for f in range(6):
        if mask & (1 << f):
            have = roll_counts[r, f]
            fill_collects(futures, mask, f, have, h, points, throws, beat, ends, collects)
            out[1 + f] = collects[f, have, h]
    for o in range(opt_start[r], opt_start[r + 1]):
        c = opt_combo[o]
        if mask & (1 << c):
            out[7 + o - opt_start[r]] = pick_beaten(futures, mask, c, opt_shape[o], opt_slot[o], h, points, throws,
                                                    beat, ends, picks)


@njit(cache=True, nogil=True, inline="always")
def value_slot(choice):
    """Where option_values puts a choice's value."""
    if choice < 0:
        return 0
    if choice < 6:
        return 1 + choice
    return -1  # an option: 7 + o - opt_start[r]


@njit(cache=True, nogil=True)
def winning_choice(ev_choice, values, first_option):
    """The choice with the most opponents beaten; the expected-score choice unless another beats it by
    more than TIE."""
    at = value_slot(ev_choice)
    if at < 0:
        at = 7 + ev_choice - 6 - first_option
    best = values[at]
    choice = ev_choice
    for i in range(values.shape[0]):
        v = values[i]
        if v == v and v > best + TIE:
            best = v
            if i == 0:
                choice = REROLL
            elif i < 7:
                choice = i - 1
            else:
                choice = 6 + first_option + i - 7
    return choice


@njit(cache=True, nogil=True)
def collect_goes_on_to_win(futures, W, col_f, mask, f, have, g, points, throws, beat, memo, sign):
    """Continue collecting (face f + 1, holding ``have``, g goods) when that beats more opponents; on a tie
    (within TIE), what the expected-score strategy does. ``memo``: option_values'."""
    if g == 0 or have == 6:
        return False
    ends, collects, binom = memo[0], memo[1], throws.binom
    fill_collects(futures, mask, f, have, g, points, throws, beat, ends, collects)
    stop = end_value(futures, mask, f, have, g, points, throws.slot_points, beat, ends)
    n = 6 - have
    go = 0.0
    for j in range(n + 1):
        go += binom[n, j] * collects[f, have + j, g - 1]
    if abs(go - stop) <= TIE:
        return collect_goes_on(W, col_f, mask & ~(1 << f), f + 1, have, g, binom, sign)
    return go > stop


@njit(cache=True, nogil=True)
def add_opponent(futures, mask, goods, points, sign, H, beat):
    """Add to beat[y] the chance that a final score y beats an opponent between turns (ties half; in
    misere play the lower score wins)."""
    futures = lend_futures(futures)
    F = futures.F
    if mask == 0:
        lo, L, src = points + goods, 1, -1
    else:
        L = futures.length[mask]
        lo = points
        src = futures.offset[mask] + min(min(goods + GOODS_PER_TURN, H - 1), futures.rows[mask]) * L
    below = 0.0  # P(opponent < y)
    for y in range(beat.shape[0]):
        x = y - lo
        p = 0.0
        if 0 <= x < L:
            p = 1.0 if src < 0 else F[src + x]
        if sign > 0:
            beat[y] += below + 0.5 * p
        else:
            beat[y] += (1.0 - below - p) + 0.5 * p
        below += p


@njit(cache=True, nogil=True)
def decide(futures, W, mask, h, points, r, beat, sign, throws, values):
    """One decision after throw r, played to win (the choice code of ``expected_choice``); ``values``
    receives every option's expected opponents beaten (see option_values)."""
    futures, throws = lend_futures(futures), lend_throws(throws)
    H = W.shape[1]
    q, n_slots = throws.q, throws.slot_points.shape[1]
    col = np.empty((6, 7, H))
    for f in range(6):
        if mask & (1 << f):
            _collect_table(W, mask & ~(1 << f), f + 1, throws.binom, sign, col[f])
    acc = np.zeros((N_COMBOS, q.shape[0]))
    fail = np.zeros((N_COMBOS, q.shape[0]))
    pick_parts(W, mask, h, q, throws.qcum, acc, fail)
    ev = expected_choice(W, mask, h, r, sign, 0.0, throws, acc, fail, col)
    memo = (np.full((N_COMBOS, n_slots, H), np.nan), np.full((6, 7, H), np.nan),
            np.full((N_COMBOS, q.shape[0], n_slots), np.nan))
    reroll = start_beaten(futures, mask, h - 1, points, beat) if throws.normal and h > 0 else np.nan
    option_values(futures, mask, h, points, r, reroll, throws, beat, memo, values)
    return winning_choice(ev, values, throws.opt_start[r])


@njit(cache=True, nogil=True)
def collect_decision(futures, W, mask, f, have, g, points, beat, sign, throws):
    """Whether to Continue collecting face f + 1 (``mask``: the free combinations, f among them), played
    to win."""
    futures, throws = lend_futures(futures), lend_throws(throws)
    H = W.shape[1]
    col_f = np.empty((7, H))
    _collect_table(W, mask & ~(1 << f), f + 1, throws.binom, sign, col_f)
    memo = (np.full((N_COMBOS, throws.slot_points.shape[1], H), np.nan), np.full((6, 7, H), np.nan))
    return collect_goes_on_to_win(futures, W, col_f, mask, f, have, g, points, throws, beat, memo, sign)


@njit(cache=True, nogil=True, inline="always")
def uniform(key, counter):
    """The counter-th number of stream ``key``, uniform in [0, 1)."""
    return (_mix(key + np.uint64(counter)) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True)
def match_games(stripe, stripes, W2, kinds, aims, futures, targets, throws, start, seed, first_deal, finals):
    """Two-player games between strategy 0 and strategy 1 (kinds[k]: 0 plays the expected-score decisions
    of table W2[k], 1 plays to win with W2[k] and the ``futures``, 2 plays for at least aims[k] points with
    the ``targets``). Deal i is played twice: game 2i with strategy 0 first, game 2i + 1 with strategy 1
    first; in both, seat s throws the dice of stream (seed, first_deal + i, s). Every game starts from the
    same position, ``start`` = (start_mask, start_goods, start_points, first_seat): seat s with start_mask[s]
    free, start_goods[s] goods before its next turn's 5 and start_points[s], seat first_seat to throw.
    finals[game, seat] receives the final scores. Deals stripe, stripe + stripes, ... are played on the calling
    thread, without the GIL (Python's threads run one stripe each)."""
    # the caller owns every array for the call: borrowed views cost no reference counts in the loops
    W2, kinds, aims, finals = borrowed(W2), borrowed(kinds), borrowed(aims), borrowed(finals)
    futures, targets, throws = lend_futures(futures), lend_targets(targets), lend_throws(throws)
    start_mask, start_goods, start_points, first_seat = borrowed(start[0]), borrowed(start[1]), borrowed(start[2]), \
        start[3]
    roll_counts, code_index, opt_start, opt_combo = throws.counts, throws.code_index, throws.opt_start, \
        throws.opt_combo
    opt_shape, opt_points, shape_cum, done, binom = throws.opt_shape, throws.opt_points, throws.shape_cum, \
        throws.done, throws.binom
    q, qcum, normal = throws.q, throws.qcum, throws.normal
    sign = 1.0 if normal else -1.0
    H = W2.shape[2]
    n_shapes = q.shape[0]
    n_slots = throws.slot_points.shape[1]
    # a thread's scratch, made once for all its deals
    col = np.empty((6, 7, H))
    acc = np.empty((N_COMBOS, n_shapes))
    fail = np.empty((N_COMBOS, n_shapes))
    ends = np.empty((N_COMBOS, n_slots, H))
    collects = np.empty((6, 7, H))
    picks = np.empty((N_COMBOS, n_shapes, n_slots))
    memo = (ends, collects, picks)
    beat = np.empty(BEAT_CELLS)
    values = np.empty(7 + throws.most_options)
    counts = np.empty(6, dtype=np.int64)
    used = np.empty(2, dtype=np.int64)
    mask, goods, points = np.empty(2, dtype=np.int64), np.empty(2, dtype=np.int64), np.empty(2, dtype=np.int64)
    keys = np.empty(2, dtype=np.uint64)
    for i in range(stripe, finals.shape[0] // 2, stripes):
        acc[:] = 0.0
        fail[:] = 0.0
        counts[:] = 0
        for k in range(2):
            for s in range(2):
                mask[s], goods[s], points[s] = start_mask[s], start_goods[s], start_points[s]
            used[:] = 0
            for s in range(2):
                deal = np.uint64(first_deal + i)
                keys[s] = _mix(np.uint64(seed) * np.uint64(0x100000001B3) + deal * np.uint64(8) + np.uint64(s))
            s = first_seat
            while mask[0] != 0 or mask[1] != 0:
                if mask[s] != 0:
                    strategy = (s + k) % 2
                    W = W2[strategy]
                    to_win = kinds[strategy] == 1
                    to_reach = kinds[strategy] == 2
                    m = mask[s]
                    h = min(goods[s] + GOODS_PER_TURN, H - 1)
                    pts = points[s]
                    need = aims[strategy] - pts
                    if to_reach:
                        turn_collects(targets, m, h, need, normal, binom, col)
                    else:
                        for f in range(6):
                            if m & (1 << f):
                                _collect_table(W, m & ~(1 << f), f + 1, binom, sign, col[f])
                    if to_win:
                        beat[:] = 0.0
                        o = 1 - s
                        add_opponent(futures, mask[o], goods[o], points[o], sign, H, beat)
                        ends[:] = np.nan
                        collects[:] = np.nan
                    counts[:] = 0
                    for _ in range(6):
                        counts[int(uniform(keys[s], used[s]) * 6.0)] += 1
                        used[s] += 1
                    while True:
                        r = code_index[throw_code(counts)]
                        if to_reach:
                            choice = target_choice(targets, m, h, need, r, throws, col)
                        else:
                            pick_parts(W, m, h, q, qcum, acc, fail)
                            choice = expected_choice(W, m, h, r, sign, 0.0, throws, acc, fail, col)
                        if to_win:
                            reroll = np.nan
                            if normal and h > 0:
                                reroll = start_beaten(futures, m, h - 1, pts, beat)
                            picks[:] = np.nan
                            option_values(futures, m, h, pts, r, reroll, throws, beat, memo, values)
                            choice = winning_choice(choice, values, opt_start[r])
                        if choice == REROLL:
                            h -= 1
                            counts[:] = 0
                            for _ in range(6):
                                counts[int(uniform(keys[s], used[s]) * 6.0)] += 1
                                used[s] += 1
                            continue
                        if choice < 6:
                            f = choice
                            have = roll_counts[r, f]
                            while True:
                                if to_reach:
                                    go = target_goes_on(targets, col[f], m & ~(1 << f), f + 1, have, h, need, normal,
                                                        binom)
                                elif to_win:
                                    go = collect_goes_on_to_win(futures, W, col[f], m, f, have, h, pts, throws, beat,
                                                                memo, sign)
                                else:
                                    go = collect_goes_on(W, col[f], m & ~(1 << f), f + 1, have, h, binom, sign)
                                if not go:
                                    break
                                h -= 1
                                hits = 0
                                for _ in range(6 - have):
                                    if int(uniform(keys[s], used[s]) * 6.0) == f:
                                        hits += 1
                                    used[s] += 1
                                have += hits
                            pts += (f + 1) * have
                            m &= ~(1 << f)
                            break
                        o = choice - 6
                        shape = opt_shape[o]
                        while shape != done and h > 0:
                            h -= 1
                            u = uniform(keys[s], used[s])
                            used[s] += 1
                            shape = np.searchsorted(shape_cum[shape], u, side="right")
                            if shape >= shape_cum.shape[1]:
                                shape = shape_cum.shape[1] - 1
                        if shape == done:
                            pts += int(opt_points[o])
                        else:
                            h = 0  # out of goods: no points, and every good is lost
                        m &= ~(1 << opt_combo[o])
                        break
                    mask[s] = m
                    goods[s] = h
                    points[s] = pts
                s = 1 - s
            for s in range(2):
                finals[2 * i + k, s] = points[s] + goods[s]


@njit(cache=True, nogil=True)
def collect_beaten(futures, mask, f, have, g, points, beat, throws, H):
    """(Stop, Continue) while collecting face f + 1: each one's expected opponents beaten, Continue NaN when
    it is not allowed."""
    futures, throws = lend_futures(futures), lend_throws(throws)
    ends = np.full((N_COMBOS, throws.slot_points.shape[1], H), np.nan)
    collects = np.full((6, 7, H), np.nan)
    stop = end_value(futures, mask, f, have, g, points, throws.slot_points, beat, ends)
    if g == 0 or have == 6:
        return stop, np.nan
    fill_collects(futures, mask, f, have, g - 1, points, throws, beat, ends, collects)
    n = 6 - have
    go = 0.0
    binom = throws.binom
    for j in range(n + 1):
        go += binom[n, j] * collects[f, have + j, g - 1]
    return stop, go
