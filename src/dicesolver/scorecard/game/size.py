"""How big a scorecard game's solve is, told before anything is built.

A custom game can be far beyond any machine: eight twenty-sided dice have 2.2 million rolls, and a
table over sixteen boxes with a high upper-bonus threshold runs to billions of states. Everything here is
computed from the rules alone (counting formulas, no dice structures or score tables), so that a game can
be refused in a moment, with the figures that explain why.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass


from ...core.errors import InputError
from ...core.family import TableSize
from ...core.numbers import duration_text, size_text
from .kernel_rules import turn_lanes
from .rules import ScorecardGame

# Seconds per unit of work on one core, fitted on the 2-core reference machine (benchmarks/bench_size.py
# measures the fit: within a factor of two for games of seconds to minutes).
WIDGET_SECONDS = 5e-9  # a keep or roll visited in one used-set's widget
LANE_SECONDS = 2e-9  # a roll scored in one more upper-total lane of a used set
DICE_SECONDS = 6e-7  # a keep linked to its neighbours while the dice are compiled (Python)
SCORE_SECONDS = 1.5e-6  # a roll scored in a category while the score table is compiled (Python)
EXACT_SECONDS = 1e-5  # a (keep, outcome) pair summed in exact fractions (oneturn.exact_turn_value)
LIMIT_SECONDS = 3600.0  # refuse a solve estimated to take longer than this, unless allowed
# a table derived from the solve and held in memory (each box's share for --explain, ...) is refused beyond this;
# the breakdown of --explain is then built in place on disk instead (Maxi Yatzy's: 11.3 GB in memory)
TABLE_LIMIT_BYTES = 4 * 2**30
ALLOW_ENV = "DICESOLVER_ALLOW_BIG"  # set to 1 to solve beyond the limits anyway


@dataclass(frozen=True)
class SolveCost:
    """The size of a game's solitaire solve: states, table and working memory, and an estimated time."""

    states: int
    table_bytes: int
    working_bytes: int
    compile_seconds: float
    solve_seconds: float

    @property
    def seconds(self) -> float:
        return self.compile_seconds + self.solve_seconds

    def describe(self) -> str:
        return (f"{self.states:,} states, a {size_text(self.table_bytes)} table, {size_text(self.working_bytes)} of "
                f"dice structures, about {duration_text(self.seconds)} on {_cores()} core{'s' if _cores() != 1 else ''}")


def solve_cost(game: ScorecardGame) -> SolveCost:
    n, faces, c = game.n_dice, game.faces, game.n_categories
    n_rolls = math.comb(n + faces - 1, n)
    n_keeps = sum(math.comb(k + faces - 1, k) for k in range(n + 1))
    states, widgets = _turn_states(game)
    per_widget = (game.rolls - 1) * n_keeps * (faces + min(n, faces)) + n_rolls * c
    solve = (widgets * per_widget * WIDGET_SECONDS + states * n_rolls * c * LANE_SECONDS) / _cores()
    compile_ = n_keeps * (faces + min(n, faces)) * DICE_SECONDS + n_rolls * c * SCORE_SECONDS
    working = n_keeps * (faces + min(n, faces)) * 4 + n_rolls * (c + n) * 8 * 2
    return SolveCost(states, states * 8, working, compile_, solve)


def check_solvable(game: ScorecardGame) -> SolveCost:
    """The cost of solving ``game``, or an InputError when it is beyond this machine and not allowed."""
    cost = solve_cost(game)
    _check(game, "an exact solve", cost.seconds, cost.table_bytes + cost.working_bytes, cost.describe())
    return cost


def check_odds(game: ScorecardGame, exact: bool) -> float:
    """The estimated seconds of the one-turn odds (scoring.odds), or an InputError as check_solvable."""
    cost = solve_cost(game)
    n, faces, c = game.n_dice, game.faces, game.n_categories
    n_keeps = sum(math.comb(k + faces - 1, k) for k in range(n + 1))
    widget = (game.rolls - 1) * n_keeps * (faces + min(n, faces)) * 2 * c * WIDGET_SECONDS / _cores()
    seconds = cost.compile_seconds + widget
    if exact:
        transitions = sum(math.comb(k + faces - 1, k) * math.comb(n - k + faces - 1, n - k) for k in range(n + 1))
        seconds += game.rolls * transitions * c * EXACT_SECONDS
    _check(game, "exact fractions" if exact else "the odds", seconds, cost.working_bytes,
           f"about {duration_text(seconds)}")
    return seconds


# a table of needs' seconds per need, against the expected-score solve's (measured: Yahtzee 0.26, Yatzy 0.35)
NEED_LANE_FACTOR = 0.3


def needs_cost(game: ScorecardGame, needs: int) -> TableSize:
    """A table of needs 0..``needs`` (a target's, a field's: ``scorecard.target``): float32 for every turn start
    and need, built like the expected-score table once per need (measured: ``bench_target``, ``bench_field``)."""
    states, _ = _turn_states(game)
    return TableSize(states * (needs + 1) * 4, solve_cost(game).seconds * (needs + 1) * NEED_LANE_FACTOR)


def check_table(game: ScorecardGame, what: str, size: TableSize) -> None:
    """An InputError, before anything is built, when a table derived from the solve (``what`` it is for) is
    over TABLE_LIMIT_BYTES or LIMIT_SECONDS, and not allowed."""
    if big_allowed():
        return
    if size.bytes > TABLE_LIMIT_BYTES or (size.seconds or 0.0) > LIMIT_SECONDS:
        raise InputError(f"{game.canonical}: {what} needs a table of {size.describe().removeprefix('about ')}, "
                         f"over this machine's limit for one table ({size_text(TABLE_LIMIT_BYTES)}"
                         f" and {duration_text(LIMIT_SECONDS)}); set {ALLOW_ENV}=1 to build it anyway")


def big_allowed() -> bool:
    """Whether the user lifted the limits (DICESOLVER_ALLOW_BIG=1)."""
    return os.environ.get(ALLOW_ENV, "").strip().lower() in ("1", "yes", "true", "on")


def _check(game: ScorecardGame, what: str, seconds: float, memory_needed: int, figures: str) -> None:
    if big_allowed():
        return
    memory = _memory_bytes()
    too_big = memory is not None and memory_needed > memory // 2
    if too_big or seconds > LIMIT_SECONDS:
        reason = "more than half this machine's memory" if too_big else f"over {duration_text(LIMIT_SECONDS)}"
        raise InputError(f"{game.canonical} is too big for {what} here ({reason}): {figures}; "
                         f"set {ALLOW_ENV}=1 to try anyway")


def _turn_states(game: ScorecardGame) -> tuple[int, int]:
    """The solitaire table's length (solitaire.SolitaireModel's layout, counted from the rules alone) and
    the number of (used set, yacht flag) widgets the solve runs."""
    lanes, groups, _ = turn_lanes(game)
    return int((lanes * groups).sum()), int(groups.sum())


def _cores() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def _memory_bytes() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


