"""Review of a recorded push-your-luck game in probability of winning, from one player's side.

Every value is a probability of winning under optimal play by both from then on. A decision (throw or
hold, with something at risk) loses best minus chosen (>= 0, in the mover's probability); a throw's
luck is the value after it minus the value of throwing before it (mean 0 over the dice). Seen from
the reviewed player, the opponent's losses count for them and the opponent's luck against them, so

    result = baseline + luck - loss - opponent's luck + opponent's loss

where the result is 1 (won) or 0 (lost), or the probability now for an unfinished game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.errors import InputError
from ..scorecard.review import label
from .records import PushRecord, PushState, after_throw, replay_push
from .rules import ADD, BUST, format_throw
from .solver import PushSolution

TIE = 1e-12
# (upper bound of the loss in probability of winning, label)
PUSH_LABELS: tuple[tuple[float, str], ...] = ((0.01, "inaccuracy"), (0.025, "mistake"), (0.05, "blunder"),
                                              (float("inf"), "massive blunder"))


def push_label(loss: float) -> str:
    return label(loss, PUSH_LABELS, TIE)


@dataclass(frozen=True)
class PushDecision:
    turn: int
    seat: int
    player: str
    mine: int
    theirs: int
    turn_total: int
    chosen: str  # "throw" or "hold"
    best: str
    throw_value: float
    hold_value: float
    loss: float
    label: str


@dataclass(frozen=True)
class PushThrow:
    turn: int
    seat: int
    player: str
    dice: str
    effect: str  # "+7", "bust", "reset", "wins"
    before: float  # the mover's value of throwing
    after: float  # the mover's value after the throw
    luck: float


@dataclass(frozen=True)
class PushReviewSummary:
    game: str
    seat: int
    player: str
    opponent: str
    complete: bool
    baseline: float
    luck: float
    loss: float
    opponent_luck: float
    opponent_loss: float
    result: float
    decisions_with_choice: int
    mean_loss: float
    labels: dict[str, int] = field(default_factory=dict)


@dataclass
class PushReview:
    summary: PushReviewSummary
    decisions: list[PushDecision]
    throws: list[PushThrow]
    timeline: list[tuple[int, float]]  # (event number, reviewed player's probability of winning)


def value_for(solution: PushSolution, state: PushState, seat: int) -> float:
    """``seat``'s probability of winning in ``state`` (1 or 0 once the game is won)."""
    if state.winner is not None:
        return 1.0 if state.winner == seat else 0.0
    v = solution.win(state.mine, state.theirs, state.turn_total)
    return v if state.mover == seat else 1.0 - v


def push_review(solution: PushSolution, record: PushRecord, player: int = 0) -> PushReview:
    game = solution.game
    if record.game.canonical != game.canonical:
        raise InputError(f"the record is a game of {record.game.canonical}, not {game.canonical}")
    if player not in (0, 1):
        raise InputError(f"--player must be 0 or 1 for a two-player game, not {player}")
    states = replay_push(record)
    decisions: list[PushDecision] = []
    throws: list[PushThrow] = []
    totals = {"luck": 0.0, "loss": 0.0, "opponent_luck": 0.0, "opponent_loss": 0.0}
    timeline = [(0, value_for(solution, states[0], player))]
    for k, event in enumerate(record.events):
        state = states[k]
        mine_side = state.mover == player
        name = record.players[state.mover]
        throw = solution.roll_value(state.mine, state.theirs, state.turn_total)
        if state.turn_total > 0:
            hold = solution.hold_value(state.mine, state.theirs, state.turn_total)
            chosen = "throw" if event.type == "roll" else "hold"
            best = "throw" if throw > hold else "hold"
            loss = max(throw, hold) - (throw if chosen == "throw" else hold)
            loss = 0.0 if loss <= TIE else loss
            decisions.append(PushDecision(state.turn, state.mover, name, state.mine, state.theirs, state.turn_total, chosen, best,
                                          throw, hold, loss, push_label(loss)))
            totals["loss" if mine_side else "opponent_loss"] += loss
        if event.type == "roll":
            after_state = after_throw(game, state, event.dice)
            after = value_for(solution, after_state, state.mover)
            kind, points = game.effect(event.dice)
            effect = ("wins" if after_state.winner is not None else f"+{points}") if kind == ADD else \
                ("bust" if kind == BUST else "reset")
            luck = after - throw
            throws.append(PushThrow(state.turn, state.mover, name, format_throw(event.dice), effect, throw, after, luck))
            totals["luck" if mine_side else "opponent_luck"] += luck
        timeline.append((k + 1, value_for(solution, states[k + 1], player)))
    final = states[-1]
    mine_decisions = [d for d in decisions if d.seat == player]
    labels: dict[str, int] = {}
    for d in mine_decisions:
        if d.loss > 0:
            labels[d.label] = labels.get(d.label, 0) + 1
    summary = PushReviewSummary(
        game.canonical, player, record.players[player], record.players[1 - player], final.winner is not None,
        timeline[0][1], totals["luck"], totals["loss"], totals["opponent_luck"], totals["opponent_loss"],
        timeline[-1][1], len(mine_decisions),
        totals["loss"] / len(mine_decisions) if mine_decisions else 0.0, labels)
    return PushReview(summary, decisions, throws, timeline)
