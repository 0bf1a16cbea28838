"""Review of a recorded solitaire game: every decision's loss and every throw's luck.

All values are expected final scores under optimal play from the moment in question (GNU Backgammon's
convention, in points):

* a decision's *loss* = value(best option) - value(chosen option) >= 0 (its *skill* is -loss);
* a throw's *luck* = value after the throw (with best play) - value before it (the mean over all
  throws), so luck averages to 0 over the outcomes of any throw.

They telescope: final score = baseline + total luck - total loss, where the baseline is the expected
score at the start. A choice to score while throws remain competes with every keep (the best of which
is worth at least as much), so standing early is judged too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..core.dice import format_dice
from ..core.errors import InputError
from .position import Position, format_position
from .records import GameRecord, replay
from .solitaire import SolitaireSolution, TurnState

TIE = 1e-9
# (upper bound of the loss, label): the Despirala engine's thresholds, in points
LABELS: tuple[tuple[float, str], ...] = ((1.0, "inaccuracy"), (4.0, "mistake"), (10.0, "blunder"),
                                         (float("inf"), "massive blunder"))


def label(loss: float, labels: tuple[tuple[float, str], ...] = LABELS, tie: float = TIE) -> str:
    """A decision's label from its loss: "best" within ``tie``, else the first bound it is below."""
    if loss <= tie:
        return "best"
    return next(name for bound, name in labels if loss < bound)


@dataclass(frozen=True)
class DecisionReview:
    turn: int
    position: str
    kind: str  # "keep" or "category"
    chosen: str
    chosen_value: float
    best: str
    best_value: float
    loss: float  # >= 0
    skill: float  # = -loss <= 0
    label: str
    options: int  # number of legal options (1: no real choice)


@dataclass(frozen=True)
class RollReview:
    turn: int
    throw: int  # 1 = the opening throw of the turn
    dice: str
    value_before: float
    value_after: float
    luck: float


@dataclass(frozen=True)
class ReviewSummary:
    game: str
    player: str
    complete: bool
    baseline: float
    luck: float
    loss: float
    decisions: int
    decisions_with_choice: int
    mean_loss: float  # per decision that had a choice
    final_score: float  # the final score, or the expected final score of an unfinished game
    labels: dict[str, int] = field(default_factory=dict)


@dataclass
class Review:
    summary: ReviewSummary
    decisions: list[DecisionReview]
    rolls: list[RollReview]
    timeline: list[tuple[int, float, float]]  # (event index, cumulative luck, cumulative loss)


class Evaluator:
    """Values of positions and options from a solved table."""

    def __init__(self, solution: SolitaireSolution):
        self.solution = solution
        self.game = solution.game
        self.model = solution.model

    def _state(self, pos: Position) -> TurnState:
        return TurnState(pos.used, pos.upper_total(self.game), pos.yacht_flag(self.game))

    def keep_values(self, pos: Position) -> dict:
        buf = self.model.keep_buffer(self.solution.values, pos.used, pos.rolls_left - 1)
        lane = self.model.lane(self._state(pos))
        dice = self.game.dice
        now = pos.total(self.game)
        return {k: now + float(buf[dice.keep_index(k), lane]) for k in dice.sub_keeps(pos.dice)}

    def category_values(self, pos: Position) -> dict[int, float]:
        values, _ = self.model.category_values(self.solution.values, self._state(pos), self.game.dice.roll_index(pos.dice))
        now = pos.total(self.game)
        return {c: now + float(v) for c, v in enumerate(values) if v > -1e299}

    def value(self, pos: Position) -> float:
        """Expected final score with best play from here."""
        if pos.is_over():
            return float(pos.total(self.game))
        if pos.dice is None:
            return pos.total(self.game) + self.solution.value(self._state(pos))
        if pos.rolls_left == 0:
            return max(self.category_values(pos).values())
        return max(self.keep_values(pos).values())


def review(solution: SolitaireSolution, record: GameRecord, player: int = 0) -> Review:
    """Annotate one player's decisions and throws in a record (solitaire values)."""
    game = solution.game
    if record.game.fingerprint != game.fingerprint:
        raise InputError("the record is for another game than the solved table")
    if not 0 <= player < len(record.players):
        raise InputError(f"no player {player} in this record")
    ev = Evaluator(solution)
    positions, before = replay(record)
    decisions: list[DecisionReview] = []
    rolls: list[RollReview] = []
    timeline = []
    luck = loss = 0.0
    pending = None  # value of the held keep, awaiting the re-throw
    throw_no = 0
    start = None
    for i, (event, pos) in enumerate(zip(record.events, before)):
        if event.player != player:
            continue
        if start is None:
            start = pos
        if event.type == "roll":
            value_before = pending if pending is not None else ev.value(pos)
            throw_no = 1 if pending is None else throw_no + 1
            after = Position(pos.boxes, event.dice, pos.rolls_left - 1, pos.extra_bonus)
            value_after = ev.value(after)
            rolls.append(RollReview(event.turn, throw_no, format_dice(event.dice, game.faces), value_before,
                                    value_after, value_after - value_before))
            luck += value_after - value_before
            pending = None
        else:
            options: dict[str, float] = {}
            if pos.rolls_left > 0:
                options.update({format_dice(k, game.faces): v for k, v in ev.keep_values(pos).items()})
            cats = ev.category_values(pos)
            options.update({game.categories[c].name: v for c, v in cats.items()})
            if event.type == "keep":
                chosen = format_dice(event.keep, game.faces)
                kind = "keep"
                pending = options[chosen]
            else:
                chosen = game.categories[event.category].name
                kind = "category"
            best = max(options, key=lambda k: (options[k], k == chosen))
            d_loss = max(0.0, options[best] - options[chosen])
            d_loss = 0.0 if d_loss <= TIE else d_loss
            distinct = len({round(v, 9) for v in options.values()}) if len(options) > 1 else 1
            decisions.append(DecisionReview(event.turn, format_position(game, pos), kind, chosen, options[chosen], best,
                                            options[best], d_loss, -d_loss, label(d_loss), len(options) if distinct > 1 else 1))
            loss += d_loss
        timeline.append((i, luck, loss))
    final = positions[player]
    complete = final.is_over()
    baseline = ev.value(start) if start is not None else ev.value(final)
    with_choice = [d for d in decisions if d.options > 1]
    counts: dict[str, int] = {}
    for d in decisions:
        counts[d.label] = counts.get(d.label, 0) + 1
    summary = ReviewSummary(
        game=game.canonical,
        player=record.players[player],
        complete=complete,
        baseline=baseline,
        luck=luck,
        loss=loss,
        decisions=len(decisions),
        decisions_with_choice=len(with_choice),
        mean_loss=loss / len(with_choice) if with_choice else 0.0,
        final_score=float(final.total(game)) if complete else ev.value(final),
        labels=counts,
    )
    return Review(summary, decisions, rolls, timeline)


def luck_of_throw(solution: SolitaireSolution, pos: Position, keep: tuple) -> np.ndarray:
    """Luck of every possible outcome of re-throwing from ``pos`` while holding ``keep`` (a test aid:
    weighted by the outcomes' probabilities it sums to 0)."""
    ev = Evaluator(solution)
    before = ev.keep_values(pos)[tuple(sorted(keep))]
    outcomes = solution.game.dice.outcomes(tuple(sorted(keep)))
    return np.array([(p, ev.value(Position(pos.boxes, roll, pos.rolls_left - 1, pos.extra_bonus)) - before)
                     for roll, p in outcomes])
