"""Multi-player matches: many games between built-in strategies in one parallel kernel.
"""

from typing import NamedTuple

import numpy as np

from ...core.jit import njit
from ...core.kernels import lend_graph
from ..mindful.kernels.mindful import Futures, mindful_roll_values, result_curve
from ..game.kernels.scoring import bonus_step, lane_of, lend, next_group, score_choice
from ..bots.kernels import MEAN, OPTIMAL, STATIC, best_category, choose_keep_index, policy_stages, throw
from ..target.kernels import target_box, target_keep, target_stages
from ..turn.kernels.widget import NEG, best_keeps, expect_keeps

#
# Player kinds: the solitaire modes above (0-4), MATCH_TABLE (decisions by used set only, Joe:
# keep_table[a, throws left - 1, roll], cat_table[a, roll]), MATCH_MINDFUL (Mindful Maximus) and
# MATCH_MALINA (the two-player equity table, played against the most dangerous opponent: the one
# against whom her two-player equity is lowest), MATCH_TARGET (plays its own card for at least aims[p]
# points, from the target table V of row width W) and MATCH_POLICY (the optimal player, its decisions
# read from the policy table of ``policy_table``: policy[policy_rows[state], roll], keep_bits bits a keep).

MATCH_TABLE, MATCH_MINDFUL, MATCH_MALINA, MATCH_TARGET, MATCH_POLICY = 5, 6, 7, 8, 9


class MatchPlayers(NamedTuple):
    """What the players of a match decide by, one argument for the kernels (``match.play.MatchSetup``): each
    player's kind, and the tables of the kinds that read one (stand-ins of the same types where no player
    does, so that the kernel is compiled once)."""

    kinds: np.ndarray  # int64 [player]: a solitaire mode (``bots.kernels``) or a MATCH_ kind
    H: np.ndarray  # float64 [player, roll, box]: a static strategy's hand values
    values: np.ndarray  # the solitaire table (the optimal player where no policy table is at hand)
    futures: Futures  # Mindful Maximus's opponents' futures
    dvalues: np.ndarray  # float32: the two-player equity table (Malina) ...
    pair_offset: np.ndarray  # ... each pair of used sets' row ...
    maxsum: np.ndarray  # ... and the largest total of each used set
    keep_table: np.ndarray  # int64 [used set, throws left - 1, roll]: Joe's keeps ...
    cat_table: np.ndarray  # ... and boxes [used set, roll]
    V: np.ndarray  # float32: the target table, rows of width W
    W: int
    aims: np.ndarray  # int64 [player]: a target player's aim
    policy: np.ndarray  # the policy table's decisions ...
    policy_rows: np.ndarray  # ... their rows by state ...
    keep_bits: int  # ... and the bits of a keep in a decision


@njit(cache=True, inline="always")
def duel_option(a, b, c, pts, d, dvalues, pair_offset, maxsum, full):
    """The mover's two-player equity after scoring pts in c at difference d (mover minus other)."""
    na = a | (1 << c)
    if na == full and b == full:
        e = d + pts
        return 1.0 if e > 0 else (-1.0 if e < 0 else 0.0)
    return -float(dvalues[pair_offset[b * (full + 1) + na] + maxsum[na] - (d + pts)])


@njit(cache=True)
def game_results(totals, out):
    """n-player results of one game: win n - 1, k tied leaders (n - k) / k each, the others -1."""
    n = totals.shape[0]
    top = totals.max()
    k = 0
    for p in range(n):
        if totals[p] == top:
            k += 1
    for p in range(n):
        out[p] = (n - k) / k if totals[p] == top else -1.0


@njit(cache=True)
def play_game(i, max_points, max_len, keep_mask, perms, throws, rand, rules, graph, players, out_total, out_result):
    """Game i of simulate_match (a function of its own, which numba compiles once for every kernel that plays
    a match's games)."""
    rules, graph = lend(rules), lend_graph(graph)
    keep_add, sub_ptr, sub_idx, roll_offset = graph.keep_add, graph.sub_ptr, graph.sub_idx, graph.roll_offset
    roll_sub_ptr, roll_sub_idx = graph.roll_sub_ptr, graph.roll_sub_idx
    kinds, H, values, futures, aims = players.kinds, players.H, players.values, players.futures, players.aims
    dvalues, pair_offset, maxsum = players.dvalues, players.pair_offset, players.maxsum
    keep_table, cat_table, V, W = players.keep_table, players.cat_table, players.V, players.W
    policy, policy_rows, keep_bits = players.policy, players.policy_rows, players.keep_bits
    offset, n_bonus_lanes, n_groups, scores = rules.offset, rules.n_bonus_lanes, rules.n_groups, rules.scores
    n_seats, n_turns, rolls, n_dice = throws.shape[1:]
    n_rot = perms.shape[0]
    n_keeps = keep_add.shape[0]
    n_rolls, n_cats = scores.shape
    full = (1 << n_cats) - 1
    deal = i // n_rot
    rot = i % n_rot
    buf = np.empty((n_keeps, 1))
    stages = np.empty((max(rolls - 1, 1), n_keeps))
    memo = np.empty(2 * n_cats * (max_points + 1))
    choice = np.empty(n_rolls, dtype=np.int64)
    opp_lo = np.empty(n_seats - 1, dtype=np.int64)
    opp_len = np.empty(n_seats - 1, dtype=np.int64)
    opp_off = np.empty(n_seats - 1, dtype=np.int64)
    opp_p = np.empty((n_seats - 1) * max(max_len, 1))
    u = np.zeros(n_seats, dtype=np.int64)
    g = np.zeros(n_seats, dtype=np.int64)
    t = np.zeros(n_seats, dtype=np.int64)
    total = np.zeros(n_seats, dtype=np.int64)
    for turn in range(n_turns):
        for seat in range(n_seats):
            p = perms[rot, seat]
            kind = kinds[p]
            a = u[seat]
            dsel = -1
            prow = 0
            if kind == MATCH_POLICY:
                lu = n_bonus_lanes[a]
                prow = policy_rows[offset[a] + g[seat] * lu + lane_of(a, t[seat], rules)]
            elif kind == MATCH_TARGET:
                target_stages(a, g[seat], t[seat], aims[p] - total[seat], V, W, rules, graph, buf, stages[:rolls - 1])
            elif kind == OPTIMAL or kind == STATIC:
                policy_stages(kind, a, g[seat], t[seat], H[p], values, rules, graph, buf, stages[:rolls - 1], MEAN)
            elif kind == MATCH_MINDFUL or kind == MATCH_MALINA:
                if kind == MATCH_MINDFUL:
                    # the opponents' final totals -> the expected-result curve
                    q = 0
                    used = 0
                    top = -(1 << 40)
                    lo_max = -(1 << 40)
                    for s2 in range(n_seats):
                        if s2 == seat:
                            continue
                        opp_off[q] = used
                        b = u[s2]
                        if b == full:
                            opp_lo[q] = total[s2]
                            opp_len[q] = 1
                            opp_p[used] = 1.0
                        else:
                            ln = n_bonus_lanes[b]
                            s = offset[b] + g[s2] * ln + lane_of(b, t[s2], rules)
                            opp_lo[q] = total[s2] + futures.start[s]
                            opp_len[q] = futures.length[s]
                            for x in range(futures.length[s]):
                                opp_p[used + x] = futures.data[futures.offset[s] + x]
                        used += opp_len[q]
                        if opp_lo[q] > lo_max:
                            lo_max = opp_lo[q]
                        if opp_lo[q] + opp_len[q] - 1 > top:
                            top = opp_lo[q] + opp_len[q] - 1
                        q += 1
                    curve = np.empty(top - lo_max + 1)
                    glo = result_curve(n_seats, opp_lo, opp_len, opp_off, opp_p, curve)
                    mindful_roll_values(a, g[seat], t[seat], total[seat], glo, curve, n_seats, futures, rules, memo, buf,
                                        choice, roll_offset)
                else:
                    # the most dangerous opponent, then the two-player policy against her
                    worst = 2.0
                    n_sets = full + 1
                    for s2 in range(n_seats):
                        if s2 == seat:
                            continue
                        b = u[s2]
                        e = float(dvalues[pair_offset[a * n_sets + b] + total[seat] - total[s2] + maxsum[b]])
                        if e < worst:
                            worst = e
                            dsel = s2
                    b = u[dsel]
                    d = total[seat] - total[dsel]
                    for r in range(n_rolls):
                        best = NEG
                        best_c = -1
                        for c in range(n_cats):
                            if (a >> c) & 1:
                                continue
                            v = duel_option(a, b, c, scores[r, c], d, dvalues, pair_offset, maxsum, full)
                            if v > best:
                                best = v
                                best_c = c
                        buf[roll_offset + r, 0] = best
                        choice[r] = best_c
                for m in range(rolls - 1):
                    if m > 0:
                        best_keeps(buf, sub_ptr, sub_idx, 1)
                    expect_keeps(buf, keep_add, roll_offset, 1)
                    for k in range(n_keeps):
                        stages[m, k] = buf[k, 0]
            r = throw(0, throws[deal, seat, turn, 0], n_dice, graph)
            for s in range(1, rolls):
                if kind == MATCH_TARGET:
                    k = target_keep(r, rolls - s, stages, graph)
                elif kind == MATCH_TABLE:
                    k = keep_table[a, rolls - s - 1, r]
                elif kind == MATCH_POLICY:
                    q = (np.int64(policy[prow, r]) >> ((rolls - s - 1) * keep_bits)) & keep_mask
                    k = roll_sub_idx[roll_sub_ptr[r] + q]
                elif kind == MATCH_MINDFUL or kind == MATCH_MALINA:
                    k = choose_keep_index(OPTIMAL, r, rolls - s, stages, 0, graph)
                else:
                    k = choose_keep_index(kind, r, rolls - s, stages, rand[deal, seat, turn, s - 1], graph)
                kept = graph.keep_size[k]
                if kept == n_dice:
                    break
                r = throw(k, throws[deal, seat, turn, s], n_dice - kept, graph)
            if kind == MATCH_TARGET:
                c = target_box(a, g[seat], t[seat], r, aims[p] - total[seat], V, W, rules)[0]
            elif kind == MATCH_TABLE:
                c = cat_table[a, r]
            elif kind == MATCH_POLICY:
                c = np.int64(policy[prow, r]) >> ((rolls - 1) * keep_bits)
            elif kind == MATCH_MINDFUL or kind == MATCH_MALINA:
                c = choice[r]
            else:
                c, v = best_category(kind, a, g[seat], t[seat], r, H[p], values, rules,
                                     rand[deal, seat, turn, rolls - 1])
            allowed, pts, extra = score_choice(a, g[seat], r, c, rules)
            t2, gain = bonus_step(t[seat], pts, c, rules)
            total[seat] += pts + gain + extra
            g[seat] = next_group(a, g[seat], c, pts, extra, rules, n_groups[a | (1 << c)])
            t[seat] = t2
            u[seat] = a | (1 << c)
    res = np.empty(n_seats)
    game_results(total, res)
    for seat in range(n_seats):
        out_total[i, perms[rot, seat]] = total[seat]
        out_result[i, perms[rot, seat]] = res[seat]


@njit(cache=True, nogil=True)
def simulate_match(stripe, stripes, perms, throws, rand, rules, graph, players, out_total, out_result):
    """Games i = deal * n_rotations + rotation: seat s of game i is player perms[rotation, s], and seat s
    throws the deal's dice throws[deal, s, turn, throw, die] (common random numbers across rotations).
    out_total[i, player], out_result[i, player]. Games stripe, stripe + stripes, ... on the calling thread,
    without the GIL (Python's threads run one stripe each)."""
    rules = lend(rules)
    scores, upper_points, xbonus = rules.scores, rules.upper_points, rules.xbonus
    max_points = scores.max() + xbonus + upper_points
    max_len = players.futures.length.max()
    keep_mask = (1 << players.keep_bits) - 1
    for i in range(stripe, throws.shape[0] * perms.shape[0], stripes):
        game = np.int64(i)  # one compiled play_game for every caller
        play_game(game, max_points, max_len, keep_mask, perms, throws, rand, rules, graph, players, out_total,
                  out_result)
