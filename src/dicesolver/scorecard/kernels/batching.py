"""What the batch answer kernels (``answers``: one card; ``duel_answers``: two players) share: situations
grouped by turn state, so that a turn state's keep stages are computed once for every situation of it in
the batch; a table's entry, whether the table is float64 or float32; the keep index of a row of dice; the
keep stages of one turn state; and a situation's row of answers finished (best, costs, padding)."""

import numpy as np

from ...core.jit import njit
from .widget import NEG, best_one, expect_one


@njit(cache=True)
def group_runs(fields, lo, hi, key, kind, left, decision, rethrow):
    """(order, starts, tops, runs): situations lo..hi-1 ordered by ``fields[:, key]`` (their turn state; -1:
    refused, or none), the first position in ``order`` of each of the ``runs`` runs of one key (and one
    past the last), and the most throws left of a decision or a re-throw in each run (the stages it needs;
    0: none)."""
    n = hi - lo
    order = lo + np.argsort(fields[lo:hi, key], kind="mergesort")
    starts = np.empty(n + 1, dtype=np.int64)
    tops = np.zeros(n, dtype=np.int64)
    runs = 0
    for p in range(n):
        i = order[p]
        if p == 0 or fields[i, key] != fields[order[p - 1], key]:
            starts[runs] = p
            runs += 1
        k = fields[i, kind]
        if (k == decision or k == rethrow) and fields[i, left] > tops[runs - 1]:
            tops[runs - 1] = fields[i, left]
    starts[runs] = n
    return order, starts, tops, runs


@njit(cache=True, inline="always")
def entry(values, narrow, k):
    """Entry k of a table given as the pair (``values``: float64, ``narrow``: float32), one of them empty
    (``scorecard.answers.table_pair``): both kinds of table reach a kernel as the same two argument types,
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
    (``turn.run_stages``), one turn state in one lane."""
    for m in range(1, top + 1):
        stages[m, :] = stages[m - 1, :]
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
