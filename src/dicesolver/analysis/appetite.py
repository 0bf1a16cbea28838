"""The risk appetite a player's choices reveal (``dicesolver appetite``): the theta whose strategy best explains
the decisions in their records.

Every decision is valued under the strategy of each theta of a grid (each option's certainty equivalent, in
points: ``Family.risk_solution``). A player of appetite theta is taken to choose option o with probability
exp(beta v_theta(o)) / sum over options of exp(beta v_theta(o')) (a logit choice: beta, per point, says how
closely they follow their values; beta -> infinity is a perfect player). For each theta, beta is fitted by
maximum likelihood; the estimate is the theta with the highest likelihood, and the 95% interval holds every
theta whose log-likelihood is within 1.92 of it (twice the difference below the chi-square's 3.84, one
degree of freedom). Only the decisions where strategies of different theta disagree can tell them apart:
they are counted as informative.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from ..core import registry
from ..core.errors import InputError
from ..core.playthrough import Playthrough
from ..core.results import Appetite, AppetitePoint

GRID = (-0.1, -0.07, -0.05, -0.03, -0.02, -0.01, -0.005, 0.0, 0.005, 0.01, 0.02, 0.03, 0.05, 0.07, 0.1)
MAX_RATIONALITY = 20.0  # beta, per point: beyond it a choice's chance is 1 once an option is 0.5 points better
HALF_CHI2_95 = 1.92  # half the chi-square's 95% point, one degree of freedom


def decisions(playthroughs: Sequence[Playthrough], player: int) -> list[tuple]:
    """(state, chosen step) of each of the player's decisions, in every record."""
    out = []
    for record in playthroughs:
        me = record.seat(player)
        states = record.states
        for state, step in zip(states, record.steps):
            if not state.is_chance() and state.player == me:
                out.append((state, step))
    return out


def fit_rationality(values: list[np.ndarray], chosen: list[int]) -> tuple[float, float]:
    """(beta, log-likelihood) of the logit choices ``chosen`` among ``values`` (one array a decision), beta in
    [0, MAX_RATIONALITY] by Newton's method on the concave log-likelihood."""
    def loglik(beta: float) -> tuple[float, float, float]:
        total = grad = hess = 0.0
        for v, c in zip(values, chosen):
            z = beta * (v - v.max())
            w = np.exp(z)
            s = w.sum()
            p = w / s
            mean = float(p @ v)
            total += float(z[c] - np.log(s))
            grad += float(v[c] - mean)
            hess -= float(p @ (v - mean) ** 2)
        return total, grad, hess

    beta = 1.0
    for _ in range(60):
        _, grad, hess = loglik(beta)
        if abs(grad) < 1e-9:
            break
        step = -grad / hess if hess < -1e-12 else (MAX_RATIONALITY if grad > 0 else -beta)
        beta = min(max(beta + step, 0.0), MAX_RATIONALITY)
        if beta in (0.0, MAX_RATIONALITY) and (grad < 0) == (beta == 0.0):
            break
    return beta, loglik(beta)[0]


def words(theta: float, low: float, high: float) -> str:
    """The estimate said plainly."""
    if low <= 0.0 <= high:
        return "your choices are those of a player who plays for the mean (the most points on average)"
    side = "safer" if theta < 0 else "bolder"
    degree = "a little " if abs(theta) <= 0.01 else ("much " if abs(theta) >= 0.05 else "")
    return f"you play {degree}{side} than the player who plays for the most points on average"


def appetite(playthroughs: Sequence[Playthrough], player: int = 0, thetas: Sequence[float] = GRID,
             progress: Callable[[int, int], None] | None = None) -> Appetite:
    if not playthroughs:
        raise InputError("give at least one record")
    game = playthroughs[0].game
    if any(p.game.canonical != game.canonical for p in playthroughs):
        raise InputError("the records are of different games: estimate one game's appetite at a time")
    family = registry.family_of(game)
    if not family.can("risk"):
        raise family.lacking("risk", game)
    grid = sorted({float(t) for t in thetas} | {0.0})
    picks = decisions(playthroughs, player)
    if not picks:
        raise InputError("the records hold no decision of that player")
    states = [state for state, _ in picks]
    values: dict[float, list[np.ndarray]] = {}
    chosen: dict[float, list[int]] = {}
    best: dict[float, list[object]] = {}
    for theta in grid:
        solution = family.risk_solution(game, theta, progress)
        answers = solution.answers(states)
        values[theta], chosen[theta], best[theta] = [], [], []
        for i, (state, step) in enumerate(picks):
            actions, option_values = zip(*solution.pairs(state, answers, i))
            if step not in actions:
                raise InputError(f"{step} is not a legal choice at {state}")
            values[theta].append(np.array(option_values))
            chosen[theta].append(actions.index(step))
            best[theta].append(actions[int(np.argmax(option_values))])
    # a decision informs where the best option is not the same for every theta
    informative = [i for i in range(len(picks)) if len({best[t][i] for t in grid}) > 1]
    points = []
    for theta in grid:
        if informative:
            beta, loglik = fit_rationality([values[theta][i] for i in informative],
                                           [chosen[theta][i] for i in informative])
        else:
            beta, loglik = MAX_RATIONALITY, 0.0
        points.append(AppetitePoint(theta=theta, log_likelihood=loglik, rationality=beta))
    top = max(points, key=lambda p: (p.log_likelihood, -abs(p.theta)))
    inside = [p.theta for p in points if p.log_likelihood >= top.log_likelihood - HALF_CHI2_95]
    low, high = min(inside), max(inside)
    return Appetite(game=game.canonical, player=playthroughs[0].players[player], records=len(playthroughs),
                    decisions=len(picks), informative=len(informative), theta=top.theta, low=low, high=high,
                    words=words(top.theta, low, high), profile=points)
