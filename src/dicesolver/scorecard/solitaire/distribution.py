"""The exact final-score distribution of the optimal (max expected score) strategy, by forward
propagation: each turn-start state carries the distribution of the score made so far; one turn of
optimal play moves it, shifted by the points of each outcome and weighted by its probability, to the
next states. Also the probability of the upper bonus and of each box scoring, and (separately) the
largest possible probability of a perfect game.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ...core.arrays import frozen
from ...core.jit import Stripes
from .kernels.distribution import (Columns, TurnOutcomes, group_by_target, outcome_stats, place_targets,
                                   pull_histograms, support_bounds, turn_outcomes)
from ..turn.kernels.widget import run_widget
from .score_stats import ScoreDistribution
from .table import SolitaireTable, goal_of

CHUNK_STATES = 20_000  # states per outcome batch (bounds memory: outcome rows are n_rolls wide)
COLUMNS_PER_BLOCK = 128  # states whose turns run side by side in one kernel task (its buffers stay in cache)


class OutcomeBuffers:
    """The outcome arrays of turn_outcome_batch, kept from one batch to the next: fresh ones of a few hundred
    MB each time cost as much in page faults as the kernel that fills them."""

    def __init__(self) -> None:
        self._arrays: tuple[np.ndarray, ...] = ()

    def get(self, n_states: int, cap: int) -> tuple[np.ndarray, ...]:
        if not self._arrays or self._arrays[0].shape[0] < n_states or self._arrays[0].shape[1] != cap:
            self._arrays = (np.empty((n_states, cap), dtype=np.int64), np.empty((n_states, cap), dtype=np.int64),
                            np.empty((n_states, cap)), np.empty((n_states, cap), dtype=np.int64),
                            np.empty((n_states, cap), dtype=np.int64))
        return tuple(a[:n_states] for a in self._arrays)


def turn_outcome_batch(model, values: np.ndarray, chunk: np.ndarray, slots: np.ndarray, n_states: int,
                       stripes: Stripes, reached: np.ndarray | None = None,
                       buffers: OutcomeBuffers | None = None, theta: float = 0.0) -> TurnOutcomes:
    """The distinct outcomes of one optimally played turn for every reached lane of the sets in ``chunk``
    (state rows from ``slots``; ``reached[row]`` whether play gets there, all by default), worked out on the
    threads of ``stripes`` (``TurnOutcomes``). A state has at most one
    distinct outcome per final roll; one never reached has none (in Yatzy 70% of the states are never
    reached: an upper total that the boxes filled cannot make, say). ``theta``: ``values`` are that risk
    appetite's certainty equivalents, and its strategy plays."""
    game = model.game
    dice = game.dice
    cap = dice.n_rolls
    target, points, prob, cat, flag = (buffers or OutcomeBuffers()).get(n_states, cap)
    outcomes = TurnOutcomes(target, points, prob, cat, flag, np.zeros(n_states, dtype=np.int64))
    rows = np.arange(n_states) if reached is None else np.nonzero(reached)[0]
    if len(rows):
        which = np.searchsorted(slots, rows, side="right") - 1  # the set of each row
        cols_u = chunk[which].astype(np.int64)
        cols_lane = (rows - slots[which]).astype(np.int64)
        block_start = np.append(np.arange(0, len(rows), COLUMNS_PER_BLOCK), len(rows)).astype(np.int64)
        stripes.each(turn_outcomes, Columns(cols_u, cols_lane, rows.astype(np.int64), block_start), frozen(values),
                     model.rules, dice.graph, game.rolls, int(game.max_scores.max()), goal_of(theta), outcomes)
    return outcomes


def _hist_lengths(model, us: np.ndarray, level: int) -> tuple[np.ndarray, np.ndarray]:
    """For each state of the sets ``us`` (lanes in table order): its table index and histogram length (the
    most its boxes and bonuses can hold, plus one)."""
    game = model.game
    maxs = game.max_scores.astype(np.int64)
    bits = (us[:, None] >> np.arange(game.n_categories)) & 1
    base = bits @ maxs + int(model.rules.bonus_points.sum())  # every set bonus
    lu = model.n_bonus_lanes[us].astype(np.int64)
    gu = model.n_groups[us].astype(np.int64)
    extra_bonus = model.rules.xbonus * max(level - 1, 0)
    rows = np.repeat(np.arange(len(us)), lu * gu)  # the set of each state
    within = np.arange(len(rows)) - np.repeat(np.cumsum(lu * gu) - lu * gu, lu * gu)  # g * lu + t
    index = model.offset[us].astype(np.int64)[rows] + within
    length = base[rows] + 1 + np.where(within // lu[rows] >= 1, extra_bonus, 0)  # groups past 0: the yacht box holds points
    return index, length


def score_distribution(solution: SolitaireTable,
                       progress: Callable[[int, int], None] | None = None) -> ScoreDistribution:
    """The final-score distribution of the table's strategy: the mean's, or a risk appetite's (its ``theta``)."""
    model = solution.model
    game = solution.game
    values = np.ascontiguousarray(solution.values)
    levels = model.levels()
    n = game.n_categories
    dst_index_full = np.full(model.size, -1, dtype=np.int64)
    buffers = OutcomeBuffers()
    shapes = [_hist_lengths(model, level, k) for k, level in enumerate(levels)]
    # two buffers for the histograms of a level and the next (fresh arrays for every level would fault their
    # pages in inside the parallel kernel, one thread at a time); a histogram is placed when play first reaches
    # its state, after the last one placed (offset -1 until then): the 70% never reached take no memory
    largest = max(int(length.sum()) for _, length in shapes)
    from ...core.family import TableSize
    from ..game.size import check_table

    # two levels' histograms at most (Yatzy's 1.1 GB; Maxi Yatzy's would be 65 GB): refused in one line
    check_table(game, "the exact score distribution (each state's histogram of scores, two turns at a time)",
                TableSize(2 * largest * 8))
    spare, other = np.empty(largest), np.empty(largest)
    # level 0: the start state, score 0 with certainty
    idx, length = shapes[0]
    off = np.full(len(idx), -1, dtype=np.int64)
    off[0] = 0  # only lane 0 (upper total 0, no flag) is where a game starts
    hist = spare[:int(length.sum())]
    hist[:length[0]] = 0.0
    hist[0] = 1.0
    cat_prob = np.zeros(n)
    totals = np.zeros(2)  # P(upper bonus), E[extra-yacht bonuses]
    with Stripes() as stripes:  # one pool of threads for every level's kernels
        for k in range(n):
            us = levels[k]
            nidx, nlen = shapes[k + 1]
            noff = np.full(len(nidx), -1, dtype=np.int64)
            placed = np.int64(0)
            nhist = other[:int(nlen.sum())]
            dst_index_full[nidx] = np.arange(len(nidx))
            lanes = (model.n_bonus_lanes[us] * model.n_groups[us]).astype(np.int64)
            slots = np.concatenate([[0], np.cumsum(lanes)[:-1]]).astype(np.int64)
            start = 0
            while start < len(us):
                stop = start
                while stop < len(us) and slots[stop] - slots[start] + lanes[stop] <= CHUNK_STATES:
                    stop += 1
                stop = max(stop, start + 1)
                chunk = us[start:stop]
                cslots = slots[start:stop] - slots[start]
                n_states = int(cslots[-1] + lanes[stop - 1])
                s0 = int(slots[start])
                src_off = off[s0:s0 + n_states].astype(np.int64)
                src_len = length[s0:s0 + n_states].astype(np.int64)
                first, last = np.empty(n_states, dtype=np.int64), np.empty(n_states, dtype=np.int64)
                mass = np.empty(n_states)
                stripes.each(support_bounds, hist, src_off, src_len, first, last, mass)
                outcomes = turn_outcome_batch(model, values, chunk, cslots, n_states, stripes, mass > 0, buffers,
                                              solution.theta)
                by_target = group_by_target(n_states, outcomes.target, outcomes.n_outcomes, dst_index_full, len(nidx))
                fresh = placed
                placed = place_targets(by_target[0], noff, nlen, placed)
                stripes.each(pull_histograms, hist, src_off, first, last, by_target, outcomes, nhist, noff, nlen, fresh)
                outcome_stats(n_states, mass, outcomes.prob, outcomes.cat, outcomes.flag, outcomes.n_outcomes,
                              cat_prob, totals)
                start = stop
            hist, off, length = nhist, noff, nlen
            spare, other = other, spare
            if progress:
                progress(k + 1, n)
    final = np.zeros(int(length.max()))
    for o, ln in zip(off, length):
        if o >= 0:
            final[:ln] += hist[o:o + ln]
    return ScoreDistribution(
        probabilities=final,
        bonus_probability=float(totals[0]) if game.has_upper_bonus else None,
        category_probabilities=cat_prob,
        extra_bonus_mean=float(totals[1]) if game.tracks_yacht_flag else None,
    )


def perfect_game_probability(solution_or_model) -> float:
    """The largest probability of a perfect game (every box at its maximum), playing for exactly that: the
    sets of one level side by side, as the lanes of one turn."""
    model = getattr(solution_or_model, "model", solution_or_model)
    game = model.game
    dice = game.dice
    n = game.n_categories
    # the few rolls that fill each box at its maximum (one for an upper box: five of its face)
    maximal = [np.nonzero(game.score_table[:, c] == game.max_scores[c])[0] for c in range(n)]
    value = np.zeros(1 << n)
    value[(1 << n) - 1] = 1.0
    ptr, idx = dice.keep_sub
    for level in reversed(model.levels()[:-1]):
        best = np.zeros((dice.n_rolls, len(level)))
        for c in range(n):
            cols = np.nonzero(((level >> c) & 1) == 0)[0]
            if cols.size and maximal[c].size:
                cells = np.ix_(maximal[c], cols)
                best[cells] = np.maximum(best[cells], value[level[cols] | (1 << c)][None, :])
        buf = np.empty((dice.n_keeps, len(level)))
        buf[dice.roll_offset:] = best
        run_widget(buf, dice.keep_add, ptr, idx, model.roll_prob, dice.roll_offset, len(level), game.rolls - 1)
        value[level] = buf[0]
    return float(value[0])
