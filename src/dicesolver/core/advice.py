"""Advice at any position of any game: every legal option with its value and its cost against the best."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .results import Advice, Option

if TYPE_CHECKING:
    from .protocol import State
    from .solved import SolvedGame


def ranked(solution: SolvedGame, state: State) -> list[Option]:
    """Every legal action at a decision, best first (equal values keep the order of ``legal_actions``, which
    each game chooses so that ties read well); costs below the table's precision are 0."""
    sign = solution.sign
    pairs = solution.action_values(state)
    digits = max(0, round(-math.log10(solution.tie)))
    pairs.sort(key=lambda av: -sign * round(av[1], digits))
    best = pairs[0][1] if pairs else 0.0
    options = []
    for action, value in pairs:
        cost = sign * (best - value)
        options.append(Option(action=str(action), option=action.label, kind=action.kind, value=value,
                              cost=cost if cost > solution.tie else 0.0, points=getattr(action, "points", None)))
    return options


def advise(solution: SolvedGame, state: State) -> Advice:
    """The advice at a state: its value for the player on turn and, at a decision, every option ranked."""
    options = ranked(solution, state) if state.to_move() is not None else []
    value = options[0].value if options else solution.value(state)
    return Advice(game=solution.game.canonical, position=str(state), player=state.player, unit=solution.unit,
                  higher_is_better=solution.higher_is_better, value=value, options=options,
                  notes=solution.notes(state), details=solution.details(state))
