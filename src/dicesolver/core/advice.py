"""Advice at any position of any game: every legal option with its value and its cost against the best,
from the solution's batch answer engine (a batch of one)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .results import Advice, Option

if TYPE_CHECKING:
    from .answers import Answers
    from .protocol import State
    from .solved import SolvedGame


def ranked(solution: SolvedGame, state: State, answers: Answers, row: int = 0) -> list[Option]:
    """A decision's options from row ``row`` of its answers, best first (equal values keep the order of
    ``legal_actions``, which each game chooses so that ties read well)."""
    actions = state.legal_actions()
    n = int(answers.counts[row])
    assert n == len(actions), f"{n} answers for {len(actions)} legal actions at {state}"
    digits = max(0, round(-math.log10(solution.tie)))
    values = answers.values[row, :n]
    keys = (-solution.sign * np.round(values, digits)).tolist()
    order = sorted(range(n), key=keys.__getitem__)  # stable: equal values keep their order
    values, costs = values.tolist(), answers.costs[row, :n].tolist()
    make = Option.of_engine
    return [make(str(a), a.label, a.kind, values[k], costs[k], getattr(a, "points", None))
            for k in order for a in (actions[k],)]


def advise(solution: SolvedGame, state: State) -> Advice:
    """The advice at a state: its value for the player on turn and, at a decision, every option ranked."""
    answers = solution.answers([state])
    options = ranked(solution, state, answers) if state.to_move() is not None else []
    return Advice(game=solution.game.canonical, position=str(state), player=state.player, unit=solution.unit,
                  higher_is_better=solution.higher_is_better, judge=solution.judge, value=float(answers.value[0]),
                  options=options, notes=solution.notes(state), details=solution.details(state))
