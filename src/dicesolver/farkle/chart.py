"""Farkle's strategy chart: the chance of winning at each turn start, and when to bank, playing for the most
points per turn and for the fewest turns to the goal."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .rules import DICE, UNIT, FarkleGame
from .solitaire import expected_turn, fewest_turns
from .solver import FarkleSolution


def chart_figure(game: FarkleGame, solution: FarkleSolution) -> Figure:
    fig = Figure(figsize=(15, 5), layout="constrained")
    ax1, ax2, ax3 = fig.subplots(1, 3)
    scores = game.floor + UNIT * np.arange(solution.starts.shape[0])
    extent = (scores[0], scores[-1], scores[0], scores[-1])
    im = ax1.imshow(solution.starts[:, :, 0, 0], origin="lower", cmap="RdYlGn", vmin=0, vmax=1, extent=extent)
    ax1.set(title=f"{game.title}:\nP(win) at the start of my turn (no Farkles in a row)",
            xlabel="opponent's score", ylabel="my score")
    fig.colorbar(im, ax=ax1, shrink=0.8)

    most = expected_turn(game)
    bank = most.bank_from()
    ax2.bar([str(n) for n in range(1, DICE + 1)], [bank[n] for n in range(1, DICE + 1)], color="#5cb85c")
    ax2.set_yscale("log")
    for n in range(1, DICE + 1):
        ax2.annotate(f"{bank[n]:,}", (n - 1, bank[n]), ha="center", va="bottom")
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
