"""Farkle's strategy chart: the chance of winning at each turn start and when to bank (``chart_rows``, the
command line's ``chart``), and a figure of it beside the banking of the most points per turn and of the
fewest turns to the goal (``chart_figure``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..core.errors import InputError
from ..core.extras import need
from ..core.palette import CHANCE_MAP, GREEN, ORANGE, VERMILION
from .rules import DICE, UNIT, FarkleGame
from .solitaire import expected_turn, fewest_turns
from .solver import FarkleTable


if TYPE_CHECKING:
    from matplotlib.figure import Figure


def chart_figure(game: FarkleGame, solution: FarkleTable) -> Figure:
    need("plot", "matplotlib")  # the chart's rows (chart_rows) need nothing more than numpy
    from matplotlib.figure import Figure

    fig = Figure(figsize=(15, 5), layout="constrained")
    ax1, ax2, ax3 = fig.subplots(1, 3)
    scores = game.floor + UNIT * np.arange(solution.starts.shape[0])
    extent = (scores[0], scores[-1], scores[0], scores[-1])
    im = ax1.imshow(solution.starts[:, :, 0, 0], origin="lower", cmap=CHANCE_MAP, vmin=0, vmax=1, extent=extent)
    ax1.set(title=f"{game.title}:\nP(win) at the start of my turn (no Farkles in a row)",
            xlabel="opponent's score", ylabel="my score")
    fig.colorbar(im, ax=ax1, shrink=0.8)

    most = expected_turn(game)
    counts = len(most.farkle_costs)
    width = 0.8 / counts
    for f in range(counts):  # one strategy for each number of Farkles in a row: the more, the sooner it banks
        bank = most.bank_from(f)
        x = np.arange(DICE) + (f - (counts - 1) / 2) * width
        heights = [bank[n] or np.nan for n in range(1, DICE + 1)]
        label = f"{f} Farkle{'' if f == 1 else 's'} in a row" if counts > 1 else None
        ax2.bar(x, heights, width, label=label, color=(GREEN, ORANGE, VERMILION)[f % 3])
        for n in range(1, DICE + 1):
            if f == 0 and bank[n] is None:  # Zilch's six dice: a throw that cannot be a Farkle
                ax2.annotate("never:\nno Farkle", (n - 1, 0.5), xycoords=("data", "axes fraction"), ha="center")
            elif f == 0:
                ax2.annotate(f"{bank[n]:,}", (x[n - 1], bank[n]), ha="center", va="bottom")
    ax2.set_yscale("log")
    ax2.set_xticks(range(DICE), [str(n) for n in range(1, DICE + 1)])
    if counts > 1:
        ax2.legend()
    ax2.set(title=f"most points per turn ({most.per_turn:.1f} on average):\nbank once the turn total reaches",
            xlabel="dice left to throw", ylabel="turn total")

    race = fewest_turns(game)
    banked = np.arange(0, game.goal, 10 * UNIT)
    for n in range(1, DICE):
        thresholds = [race.bank_from(int(b))[n] or np.nan for b in banked]
        ax3.plot(banked, thresholds, label=f"{n} di{'e' if n == 1 else 'ce'} left")
    ax3.set(title=f"fewest turns to {game.goal:,} ({race.expected(0):.2f} from 0):\nbank once the turn total reaches",
            xlabel="my banked score", ylabel="turn total")
    ax3.legend()
    return fig


ROW_STEP = 500  # the whole chart's scores: every 500 points (any score with --me / --them)


@dataclass(frozen=True)
class BankRow:
    mine: int
    theirs: int
    win: float  # at the start of my turn, no Farkles in a row on either side
    dice: int
    thresholds: list[int]  # turn totals where the best action switches: bank from the first, throw from the second...


def chart_rows(game: FarkleGame, solution: FarkleTable, mine: int | None = None,
               theirs: int | None = None) -> list[BankRow]:
    """For each pair of banked scores (every ROW_STEP points, or the ones asked for) and each number of dice
    left: where banking the turn total at risk beats throwing them, in the turn that starts there."""
    from .kernels import banks_where, farkle_value, turn

    def scores(asked: int | None) -> list[int]:
        if asked is None:
            return [s for s in range(0, game.goal, ROW_STEP)]
        if not game.floor <= asked < game.goal or asked % UNIT:
            raise InputError(f"a score is a multiple of {UNIT} from {game.floor:,} to {game.goal - UNIT:,}")
        return [asked]

    rules, throws = game.kernel_rules, game.classes.arrays()
    pre = np.empty((rules.goal - rules.floor + 1, DICE + 1))
    banks = np.empty((DICE, rules.goal - rules.floor + 1), dtype=np.bool_)
    rows = []
    for me in scores(mine):
        for them in scores(theirs):
            i, j = (me - game.floor) // UNIT, (them - game.floor) // UNIT
            farkle = farkle_value(i, j, 0, 0, solution.starts, rules)
            turn(i, j, 0, farkle, solution.starts, rules, pre, throws, 0)
            banks_where(i, j, 0, farkle, solution.starts, rules, pre, throws, banks)
            at_risk = game.wins_from(me) // UNIT  # turn totals short of a win
            for n in range(1, DICE + 1):
                row = banks[n - 1, :at_risk]
                switches = np.nonzero(row[1:] != row[:-1])[0] + 1
                rows.append(BankRow(me, them, float(solution.starts[i, j, 0, 0]), n,
                                    [int(t) * UNIT for t in switches]))
    return rows
