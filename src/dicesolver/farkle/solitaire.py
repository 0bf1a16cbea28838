"""Farkle alone: the turn strategy that banks the most points on average, the strategy that reaches the
goal in the fewest turns on average, when each banks, the odds of one throw, and a chart of it all.

* ``expected_turn``: the most points a turn banks on average over a long game (Busche's 620.855 for
  Zilch), and the strategy that makes it: one for each number of Farkles in a row, as a Farkle costs more
  the nearer it brings the penalty. ``E[f, t, n]`` is the worth of the rest of a turn from ``t`` at risk
  with ``n`` dice (Busche's E(S, N) tables); bank where banking is worth more than throwing.
* ``fewest_turns``: ``T[b, f]``, the expected number of turns still needed from banked score ``b`` with
  ``f`` Farkles in a row, when every turn banks or throws to make it fewest (value iteration from the
  goal down; only the Farkle penalty reads last sweep's values).
* ``throw_odds``: for each number of dice, the chance of a Farkle, of hot dice, and the points of the
  best set-aside of one throw.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .rules import DICE, UNIT, FarkleGame

CAP = 1_000  # units (50,000 points): no turn strategy throws there (checked: it banks far below)
TOLERANCE = 1e-10
MAX_SWEEPS = 500


@dataclass(frozen=True)
class ExpectedTurn:
    game: FarkleGame
    tables: np.ndarray  # E[f, t, n] in points, with f Farkles in a row before the turn
    per_turn: float  # the points a turn banks on average over a long game, the penalty's losses taken off
    farkle_costs: tuple[float, ...]  # by Farkles in a row: what they cost in the points of later turns

    def bank_from(self, farkles: int = 0) -> dict[int, int | None]:
        """For each number of dice left, the least turn total from which banking is best (and stays best),
        with ``farkles`` Farkles in a row; None where it never is (a throw that cannot be a Farkle)."""
        table = self.tables[farkles]
        totals = np.arange(1, CAP) * UNIT
        least = max(UNIT, self.game.min_bank)
        out: dict[int, int | None] = {}
        for n in range(1, DICE + 1):
            throws = np.nonzero(table[1:CAP, n] > totals + 1e-9)[0]
            if len(throws) and throws[-1] == len(totals) - 1:  # it throws up to the cap: never banks
                out[n] = None
            else:
                out[n] = max(least, UNIT * (int(throws[-1]) + 2)) if len(throws) else least
        return out


@lru_cache(maxsize=16)
def expected_turn(game: FarkleGame) -> ExpectedTurn:
    """Relative value iteration over the Farkles in a row at a turn's start: each sweep solves the turn for
    each count, its Farkle worth what the next count is worth against none (at the limit: the penalty)."""
    from .kernels import expected_turn as kernel

    limit, penalty, min_bank = game.farkle_limit, game.penalty // UNIT, game.min_bank // UNIT
    tail = _riskless_tail(game)
    arrays = game.classes.arrays()
    worth = np.zeros(limit)  # a turn start with f Farkles in a row against one with none, in units

    def farkle(f: int) -> float:
        return float(worth[f + 1]) if f + 1 < limit else float(worth[0] - penalty)

    for _ in range(MAX_SWEEPS):
        tables = np.stack([kernel(CAP, min_bank, farkle(f), tail, arrays) for f in range(limit)])
        starts = tables[:, 0, DICE]
        change = np.abs((starts - starts[0]) - worth).max()
        worth = starts - starts[0]
        if change <= TOLERANCE:
            break
    else:
        raise RuntimeError(f"{game.canonical}: the most-points strategy did not converge")
    if not np.allclose(tables[:, CAP - 1, 1:], CAP - 1 + tail[1:]):  # a scoring that pays so much it throws there
        raise RuntimeError(f"{game.canonical}: the most-points strategy still throws at {CAP * UNIT:,} points")
    return ExpectedTurn(game, tables * UNIT, float(starts[0]) * UNIT, tuple(0.0 - float(w) * UNIT for w in worth))


def _riskless_tail(game: FarkleGame) -> np.ndarray:
    """By dice to throw, what a throw adds at a turn total so large that one banks but for a throw that cannot be
    a Farkle (Zilch's six dice): its best set-aside, then the same again after hot dice (units; 0 for the rest)."""
    c = game.classes
    tail = np.zeros(DICE + 1)
    riskless = [n for n in range(1, DICE + 1) if c.p_farkle[n] == 0]
    for _ in range(MAX_SWEEPS):
        new = tail.copy()
        for n in riskless:
            new[n] = sum(c.class_prob[k] * max(c.option_units[o] + tail[c.option_left[o]]
                                               for o in range(c.option_start[k], c.option_start[k + 1]))
                         for k in range(c.class_start[n], c.class_start[n + 1]))
        if np.abs(new - tail).max() <= TOLERANCE:
            return new
        tail = new
    raise RuntimeError(f"{game.canonical}: hot dice without risk never end")


@dataclass(frozen=True)
class FewestTurns:
    game: FarkleGame
    turns: np.ndarray  # T[b - floor in units, f]
    sweeps: int

    def expected(self, banked: int = 0, farkles: int = 0) -> float:
        """Expected turns still needed from a banked score (a turn start)."""
        return float(self.turns[(banked - self.game.floor) // UNIT, farkles])

    def bank_from(self, banked: int, farkles: int = 0) -> dict[int, int | None]:
        """For each number of dice left, the least turn total from which banking is best in this turn (None:
        never, the goal comes first)."""
        from .kernels import turns_turn

        g = self.game
        b = (banked - g.floor) // UNIT
        pre = np.empty((self.turns.shape[0] + 1, 7))
        turns_turn(b, farkles, self.turns, g.kernel_rules, pre, g.classes.arrays())
        out: dict[int, int | None] = {}
        to_goal = (g.goal - banked) // UNIT
        for n in range(1, DICE + 1):  # banking is best where the turn's value is the bank's (ties bank)
            banks = [t for t in range(max(1, g.min_bank // UNIT), to_goal) if pre[t, n] == self.turns[b + t, 0]]
            out[n] = UNIT * banks[0] if banks else None
        return out


@lru_cache(maxsize=16)
def fewest_turns(game: FarkleGame) -> FewestTurns:
    from .kernels import turns_sweep

    size = (game.goal - game.floor) // UNIT
    turns = np.full((size, game.farkle_limit), 20.0)
    for sweep in range(1, 500):
        change = turns_sweep(turns, game.kernel_rules, game.classes.arrays())
        if change <= TOLERANCE:
            return FewestTurns(game, turns, sweep)
    raise RuntimeError(f"{game.canonical}: the fewest-turns strategy did not converge")


@dataclass(frozen=True)
class ThrowOdds:
    dice: int
    p_farkle: float
    p_hot_dice: float  # every die can be set aside
    best_points: float  # the expected points of the throw's best set-aside (0 for a Farkle)
    most: int  # the most one throw can score
    p_most: float  # the chance of scoring the most


def throw_odds(game: FarkleGame) -> list[ThrowOdds]:
    c = game.classes
    rows = []
    for n in range(1, DICE + 1):
        classes = range(c.class_start[n], c.class_start[n + 1])
        best_units = [int(c.option_units[c.option_start[k]:c.option_start[k + 1]].max()) for k in classes]
        most = max(best_units)
        best = hot = p_most = 0.0
        for k, units in zip(classes, best_units):
            p = float(c.class_prob[k])
            best += p * units * UNIT
            hot += p * bool((c.option_left[c.option_start[k]:c.option_start[k + 1]] == DICE).any())
            p_most += p if units == most else 0.0
        rows.append(ThrowOdds(n, float(c.p_farkle[n]), hot, best, most * UNIT, p_most))
    return rows
