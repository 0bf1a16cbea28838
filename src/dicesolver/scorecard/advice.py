"""Advice on a solitaire position: every legal option with its expected final score and its cost."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.dice import format_dice
from .position import Position, format_position
from .rules import ScorecardGame
from .solitaire import SolitaireSolution, TurnState

COST_EPSILON = 1e-9  # costs below this are ties (floating-point noise), shown as 0


@dataclass(frozen=True)
class Option:
    """One choice: a keep (``kind="keep"``, ``option`` = the dice kept, "-" for none) or a category."""

    kind: str
    option: str
    value: float  # expected final score after this choice, played optimally from then on
    cost: float  # best value minus this value (>= 0)
    points: int | None = None  # for a category: points scored now (bonuses included)


@dataclass(frozen=True)
class Advice:
    game: str
    position: str
    score_so_far: int
    rolls_left: int
    value: float  # expected final score with best play from here
    options: list[Option] = field(default_factory=list)

    @property
    def best(self) -> Option | None:
        return self.options[0] if self.options else None


def turn_state(game: ScorecardGame, position: Position) -> TurnState:
    return TurnState(position.used, position.upper_total(game), position.yacht_flag(game))


def _ranked(kind: str, items: list[tuple[str, float, int | None]]) -> list[Option]:
    items.sort(key=lambda x: (-x[1], x[0]))
    best = items[0][1]
    options = []
    for name, value, points in items:
        cost = best - value
        options.append(Option(kind, name, value, 0.0 if cost < COST_EPSILON else cost, points))
    return options


def options(solution: SolitaireSolution, position: Position) -> list[Option]:
    """Every distinct legal option at a position with dice showing, best first."""
    game = solution.game
    model = solution.model
    state = turn_state(game, position)
    now = position.total(game)
    roll = model.game.dice.roll_index(position.dice)
    if position.rolls_left == 0:
        values, points = model.category_values(solution.values, state, roll)
        items = [
            (game.categories[c].name, now + float(values[c]), int(points[c]))
            for c in range(game.n_categories)
            if values[c] > -1e299
        ]
        return _ranked("category", items)
    buf = model.keep_buffer(solution.values, state.used, position.rolls_left - 1)
    lane = model.lane(state)
    dice = game.dice
    items = [
        (format_dice(keep, game.faces), now + float(buf[dice.keep_index(keep), lane]), None)
        for keep in dice.sub_keeps(position.dice)
    ]
    return _ranked("keep", items)


def advise(solution: SolitaireSolution, position: Position) -> Advice:
    game = solution.game
    now = position.total(game)
    text = format_position(game, position)
    if position.is_over():
        return Advice(game.canonical, text, now, 0, float(now), [])
    if position.dice is None:
        value = now + solution.value(turn_state(game, position))
        return Advice(game.canonical, text, now, position.rolls_left, value, [])
    ranked = options(solution, position)
    return Advice(game.canonical, text, now, position.rolls_left, ranked[0].value, ranked)
