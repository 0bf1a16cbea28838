"""Advice at any position of any game: every legal option with its value and its cost against the best,
from the solution's batch answer engine (a batch of one)."""

from __future__ import annotations

import heapq
import math
from typing import TYPE_CHECKING

import numpy as np

from .results import Advice, Option

if TYPE_CHECKING:
    from .answers import Answers
    from .protocol import State
    from .solved import SolvedGame


def ranked(solution: SolvedGame, state: State, answers: Answers, row: int = 0, first: int | None = None
           ) -> list[Option]:
    """A decision's options from row ``row`` of its answers, best first (equal values keep the order of
    ``legal_actions``, which each game chooses so that ties read well); the ``first`` few alone if given.
    The best alone (``first=1``, what ``Advice.best`` reads) is made without the other actions where the
    state can make one alone (``action_at``)."""
    if first == 1 and hasattr(state, "action_at"):
        return [_best(solution, state, answers, row)]
    actions = state.legal_actions()
    n = int(answers.counts[row])
    assert n == len(actions), f"{n} answers for {len(actions)} legal actions at {state}"
    scale = 10.0 ** max(0, round(-math.log10(solution.tie)))
    values = answers.values[row, :n]
    keys = np.rint(values * (-solution.sign * scale)).tolist()  # rounded as np.round does, unscaled
    if first is None:
        order = sorted(range(n), key=keys.__getitem__)  # stable: equal values keep their order
    else:
        order = heapq.nsmallest(first, range(n), key=keys.__getitem__)  # stable as well
    values, costs = values.tolist(), answers.costs[row, :n].tolist()
    make = Option.of_engine
    return [make(str(a), a.label, a.kind, values[k], costs[k], getattr(a, "points", None))
            for k in order for a in (actions[k],)]


def _best(solution: SolvedGame, state: State, answers: Answers, row: int) -> Option:
    """The first best option of row ``row``: the first of the largest values once rounded as ``ranked``
    rounds them (argmin keeps the first of equals, as the stable sort does)."""
    floats = answers.values[row]
    n = int(answers.counts[row])
    scale = 10.0 ** max(0, round(-math.log10(solution.tie)))
    k = int(np.argmin(np.rint(floats[:n] * (-solution.sign * scale))))
    a = state.action_at(k)  # type: ignore[attr-defined]
    return Option.of_engine(str(a), a.label, a.kind, float(floats[k]), float(answers.costs[row, k]),
                            getattr(a, "points", None))


def advise(solution: SolvedGame, state: State) -> Advice:
    """The advice at a state: its value for the player on turn and, at a decision, every option ranked (made
    when first read; the best alone when only it is read)."""
    answers = solution.answers([state])
    decision = state.to_move() is not None
    return Advice.of_engine(lambda first=None: ranked(solution, state, answers, first=first) if decision else [],
                            game=solution.game.canonical, position=str(state), player=state.player,
                            unit=solution.unit, higher_is_better=solution.higher_is_better, judge=solution.judge,
                            value=float(answers.value[0]), notes=solution.notes(state), details=solution.details(state),
                            explains=solution.explains)
