"""What the batch answer kernels (``answers``: one card; ``duel_answers``: two players) share: situations
grouped by turn state, so that a turn state's keep stages are computed once for every situation of it in
the batch; a table's entry, whether the table is float64 or float32; the keep index of a row of dice; the
keep stages of one turn state; and a situation's row of answers finished (best, costs, padding)."""

import numpy as np

from ....core.jit import njit
from .widget import NEG, best_one, expect_one


@njit(cache=True)
def group_runs(fields, lo, hi, key, kind, left, decision, rethrow):
    """(order, starts, tops, runs): situations lo..hi-1 grouped by ``fields[:, key]`` (their turn state; -1:
    refused, or none), the runs in order of first appearance and each run in batch order; the first
    position in ``order`` of each of the ``runs`` runs (and one past the last), and the most throws left of
    a decision or a re-throw in each run (the stages it needs; 0: none).

    Grouped through a hash table of the distinct keys, which stays small and in cache, then placed by a
    counting sort: sorting the batch by key instead cost about 0.45 µs a situation (the keys read out of
    order, far apart), a fifth of answering it."""
    n = hi - lo
    group = np.empty(n, dtype=np.int64)
    counts = np.zeros(n + 1, dtype=np.int64)
    tops = np.zeros(n, dtype=np.int64)
    bits = 6
    slot_key = np.full(1 << bits, EMPTY_KEY, dtype=np.int64)
    slot_run = np.empty(1 << bits, dtype=np.int64)
    runs = 0
    for p in range(n):
        i = lo + p
        k = fields[i, key]
        s = slot_of(k, bits)
        mask = (1 << bits) - 1
        while slot_key[s] != EMPTY_KEY and slot_key[s] != k:
            s = (s + 1) & mask
        if slot_key[s] == EMPTY_KEY:
            slot_key[s] = k
            slot_run[s] = runs
            runs += 1
            if 2 * runs > (1 << bits):  # at most half full: short probes
                bits += 1
                slot_key, slot_run = grown(slot_key, slot_run, bits)
            g = runs - 1
        else:
            g = slot_run[s]
        group[p] = g
        counts[g + 1] += 1
        m = fields[i, kind]
        if (m == decision or m == rethrow) and fields[i, left] > tops[g]:
            tops[g] = fields[i, left]
    starts = np.empty(n + 1, dtype=np.int64)
    starts[0] = 0
    for g in range(runs):
        starts[g + 1] = starts[g] + counts[g + 1]
    at = counts  # reused: where each run's next situation goes
    for g in range(runs):
        at[g] = starts[g]
    order = np.empty(n, dtype=np.int64)
    for p in range(n):
        g = group[p]
        order[at[g]] = lo + p
        at[g] += 1
    starts[runs] = n
    return order, starts, tops, runs


EMPTY_KEY = -2  # no key (keys are turn-state indices, or -1)


@njit(cache=True, inline="always")
def slot_of(k, bits):
    """Key k's home slot in a table of 2^bits (Fibonacci hashing: the high bits of k times 2^64/phi)."""
    return np.int64((np.uint64(k) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - bits))


@njit(cache=True)
def grown(slot_key, slot_run, bits):
    """The hash table's keys and runs in a table of 2^bits slots."""
    keys = np.full(1 << bits, EMPTY_KEY, dtype=np.int64)
    runs = np.empty(1 << bits, dtype=np.int64)
    mask = (1 << bits) - 1
    for s in range(slot_key.shape[0]):
        k = slot_key[s]
        if k == EMPTY_KEY:
            continue
        t = slot_of(k, bits)
        while keys[t] != EMPTY_KEY:
            t = (t + 1) & mask
        keys[t] = k
        runs[t] = slot_run[s]
    return keys, runs


@njit(cache=True, inline="always")
def entry(values, narrow, k):
    """Entry k of a table given as the pair (``values``: float64, ``narrow``: float32), one of them empty
    (``turn.engine.table_pair``): both kinds of table reach a kernel as the same two argument types,
    so that it is compiled once (a float32 table and a float64 one would each compile it, a minute apiece)."""
    return values[k] if values.shape[0] else np.float64(narrow[k])


@njit(cache=True, inline="always")
def keep_of(row, i, keep_add):
    """The keep index of the dice in row[i, :] (zeros skipped); -1 when a die is out of range, -2 when
    there are none."""
    faces = keep_add.shape[1]
    k = 0
    seen = 0
    for d in range(row.shape[1]):
        f = row[i, d]
        if f == 0:
            continue
        if f < 0 or f > faces:
            return -1
        k = keep_add[k, f - 1]
        seen += 1
    return k if seen else -2


@njit(cache=True)
def keep_stages(stages, top, keep_add, sub_pad, roll_offset):
    """stages[1..top] from the final-roll values in stages[0]'s roll rows: stages[m]'s non-roll rows hold
    every keep thrown with m throws allowed from then on, its roll rows every roll with m - 1 throws left
    (``turn.widget.run_stages``), one turn state in one lane."""
    for m in range(1, top + 1):
        # element by element: assigning an array to a slice compiles numba's shape-mismatch message (core.jit)
        for copy_at in range(stages.shape[1]):
            stages[m, copy_at] = stages[m - 1, copy_at]
        if m >= 2:
            best_one(stages[m], sub_pad)
        expect_one(stages[m], keep_add, roll_offset)


@njit(cache=True)
def empty_row(i, out_f, out_i):
    """Situation i before its options are written: none (a throw is due, or the game is over), all padding."""
    width = out_i.shape[1] - 1
    for k in range(width):
        out_i[i, k] = -1
        out_f[i, k] = np.nan
        out_f[i, width + k] = np.nan
    out_i[i, width] = 0


@njit(cache=True)
def finish_row(i, n, tie, out_f, out_i):
    """Situation i's n options are written: its value (the best option's), every option's cost against
    it (0 within ``tie``), the padding (-1 codes, NaN values) and its count."""
    width = out_i.shape[1] - 1
    best = NEG
    for k in range(n):
        if out_f[i, k] > best:
            best = out_f[i, k]
    for k in range(n):
        cost = best - out_f[i, k]
        out_f[i, width + k] = cost if cost > tie else 0.0
    for k in range(n, width):
        out_i[i, k] = -1
        out_f[i, k] = np.nan
        out_f[i, width + k] = np.nan
    out_f[i, 2 * width] = best
    out_i[i, width] = n
