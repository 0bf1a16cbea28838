"""The Skunk analysis's strategy chart for push-your-luck games, as text and as a picture."""

from __future__ import annotations

from dataclasses import dataclass

from typing import TYPE_CHECKING

import numpy as np

from ..core.errors import InputError
from ..core.extras import need
from ..core.palette import BLUE, CHANCE_MAP, ORANGE
from .solver import PushTable


@dataclass(frozen=True)
class ChartRow:
    mine: int
    theirs: int
    win: float  # at the start of the mover's turn
    thresholds: list[int]  # alternating STOP/GO turn totals, starting with a STOP

    def line(self) -> str:
        return f"({self.mine},{self.theirs}) {self.win:.7f} - {' '.join(map(str, self.thresholds))}"


def chart_rows(solution: PushTable, mine: int | None = None, theirs: int | None = None) -> list[ChartRow]:
    """Every (my score, opponent's score) of the chart, or the rows with the given scores."""
    goal = solution.game.goal
    for value, who in ((mine, "--me"), (theirs, "--them")):
        if value is not None and not 0 <= value < goal:
            raise InputError(f"{who} must be a score from 0 to {goal - 1}")
    ms = range(goal) if mine is None else [mine]
    os_ = range(goal) if theirs is None else [theirs]
    return [ChartRow(m, o, solution.win(m, o), solution.thresholds(m, o)) for m in ms for o in os_]


def first_stop(solution: PushTable) -> np.ndarray:
    """For each (m, o): the turn total at which the mover first holds when starting from 0 and throwing
    as the solution says (the goal minus m when they go for the win)."""
    goal = solution.game.goal
    out = np.zeros((goal, goal), dtype=np.int64)
    policy = solution.policy
    for m in range(goal):
        holds = policy[m, :, : goal - m] == 0
        holds[:, 0] = False
        stops = np.where(holds.any(axis=1), holds.argmax(axis=1), goal - m)
        out[m] = stops
    return out


if TYPE_CHECKING:
    from matplotlib.figure import Figure


def chart_figure(solution: PushTable) -> Figure:
    """Three panels: the win probability at the start of a turn, the turn total to hold at (cells where
    the first stop is the goal itself: go for the win), and the throw/hold regions with my score 0 over
    (opponent's score, turn total), where the Skunk analysis's 'catastrophe' near 87 shows."""
    need("plot", "matplotlib")  # the chart's rows (chart_rows) need nothing more than numpy
    from matplotlib.colors import ListedColormap
    from matplotlib.figure import Figure

    game = solution.game
    goal = game.goal
    fig = Figure(figsize=(15, 5), layout="constrained")
    ax1, ax2, ax3 = fig.subplots(1, 3)
    win = solution.table[:, :, 0]
    im = ax1.imshow(win, origin="lower", cmap=CHANCE_MAP, vmin=0, vmax=1, aspect="equal")
    ax1.set(title=f"{game.title}: P(win) at the start of my turn", xlabel="opponent's score", ylabel="my score")
    fig.colorbar(im, ax=ax1, shrink=0.8)
    stops = first_stop(solution).astype(float)
    go_for_it = stops + np.arange(goal)[:, None] >= goal
    shown = np.where(go_for_it, np.nan, stops)
    im2 = ax2.imshow(shown, origin="lower", cmap="viridis", aspect="equal")
    ax2.imshow(np.where(go_for_it, 1.0, np.nan), origin="lower", cmap=ListedColormap(["black"]), aspect="equal")
    ax2.set(title="hold at this turn total (black: go for the goal)", xlabel="opponent's score", ylabel="my score")
    fig.colorbar(im2, ax=ax2, shrink=0.8)
    region = solution.policy[0].astype(float).T  # [t, o]
    region[0, :] = 1.0
    ax3.imshow(region, origin="lower", cmap=ListedColormap([ORANGE, BLUE]), aspect="auto", vmin=0, vmax=1)
    ax3.set(title="my score 0: throw (blue) or hold (orange)", xlabel="opponent's score", ylabel="turn total")
    return fig
