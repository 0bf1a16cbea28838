"""Review of one player's Despirala game: every decision's mistake and every chance event's luck.

The expected final score (points so far + the exact table's value of the situation, expected-score play
from then on) is tracked through the game. A decision's *loss* is the best move's value minus the chosen
move's, in points (>= 0; labelled as the seed does: inaccuracy < 1, mistake < 4, blunder < 10, massive
blunder >= 10). A chance event's *luck* (a throw, a whole completion, a collect's hits) is the change it
made to the expected final score (mean 0 over its outcomes). In misere play lower scores are better, so
luck and loss are counted from the player's side (good luck lowers the score). They telescope:

    final score = baseline + luck - loss          (misere: baseline - luck + loss)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.errors import InputError
from ..scorecard.review import label
from .kernels import _pick_value
from .records import DespiralaRecord, replay_despirala
from .rules import COMBINATIONS, format_throw
from .solver import DespiralaSolution, collect_values, completion_odds, pick_shape, turn_options
from .state import COLLECT, COMPLETE, DECIDE, HITS, THROW, DespiralaState, Event

TIE = 1e-9


@dataclass(frozen=True)
class DespiralaDecision:
    event: int  # index of the event in the record
    round: int
    position: str  # USED;GOODS;DICE (as dicesolver advise reads it), or the collect in progress
    chosen: str
    chosen_value: float  # expected final score after the chosen move
    best: str
    best_value: float
    loss: float  # >= 0, in points
    label: str
    options: int


@dataclass(frozen=True)
class DespiralaLuck:
    event: int
    round: int
    kind: str  # "throw", "completion", "hits"
    what: str  # e.g. "113456", "Straight in 2 rethrows", "2 hits"
    before: float  # expected final score before the event
    after: float
    luck: float  # from the player's side (positive = good for them)


@dataclass(frozen=True)
class DespiralaReviewSummary:
    game: str
    seat: int
    player: str
    complete: bool
    baseline: float
    luck: float
    loss: float
    final_score: float  # the final score, or the expected one of an unfinished game
    decisions_with_choice: int
    mean_loss: float
    labels: dict[str, int] = field(default_factory=dict)


@dataclass
class DespiralaReview:
    summary: DespiralaReviewSummary
    decisions: list[DespiralaDecision]
    luck: list[DespiralaLuck]
    timeline: list[tuple[int, float, float]]  # (event index, cumulative luck, cumulative loss)


def _sign(solution: DespiralaSolution) -> float:
    return 1.0 if solution.mode == "normal" else -1.0


def _collect_state_values(solution: DespiralaSolution, state: DespiralaState) -> dict[str, float]:
    seat = state.seat
    combo = COMBINATIONS[state.combination]
    return collect_values(solution, seat.free & ~(1 << combo.index), combo.collect_face(), state.have, seat.goods)


def pick_value(solution: DespiralaSolution, state: DespiralaState) -> float:
    """The value of completing the combination being completed (its points when it succeeds included)."""
    seat = state.seat
    combo = COMBINATIONS[state.combination]
    pts = combo.target(state.args)[1]
    s = pick_shape(combo.index, state.args, state.dice)
    q, qcum = completion_odds()
    return float(_pick_value(solution.W, seat.free & ~(1 << combo.index), s, seat.goods, float(pts), q, qcum))


def expected_final(solution: DespiralaSolution, state: DespiralaState, seat: int) -> float:
    """``seat``'s expected final score in ``state`` (expected-score play from then on)."""
    me = state.seats[seat]
    if state.over:
        return float(me.final)
    if state.mover != seat:
        return me.points + solution.end_value(me.free, me.goods)
    sign = _sign(solution)
    if state.phase == THROW:
        return me.points + float(solution.W[me.free, me.goods])
    if state.phase == DECIDE:
        return me.points + turn_options(solution, me.free, me.goods, state.dice)[0][1]
    if state.phase == COLLECT:
        values = _collect_state_values(solution, state)
        return me.points + (max(values.values()) if sign > 0 else min(values.values()))
    if state.phase == COMPLETE:
        return me.points + pick_value(solution, state)
    if state.phase == HITS:  # the good for this rethrow is paid already
        combo = COMBINATIONS[state.combination]
        return me.points + collect_values(solution, me.free & ~(1 << combo.index), combo.collect_face(), state.have,
                                          me.goods + 1)["continue"]
    raise InputError(f"unknown phase {state.phase!r}")


def _position(state: DespiralaState) -> str:
    seat = state.seat
    used = [c.name for c in COMBINATIONS if not seat.free & (1 << c.index)]
    text = f"{','.join(used) or 'none'};{seat.goods};{format_throw(state.dice)}"
    if state.phase == COLLECT:
        text += f" collecting {COMBINATIONS[state.combination].collect_face()}s: {state.have}"
    return text


def _what(before: DespiralaState, event: Event) -> str:
    if event.type == "throw":
        return format_throw(event.dice)
    if event.type == "hits":
        face = COMBINATIONS[before.combination].collect_face()
        return f"{event.hits} × {face}" + (f" ({format_throw(event.dice)})" if event.dice else "")
    name = COMBINATIONS[before.combination].name + "".join(f" {a}" for a in before.args)
    if event.completed:
        return f"{name} completed in {event.rethrows} rethrow{'s' if event.rethrows != 1 else ''}"
    return f"{name} failed ({event.rethrows} rethrows, every good lost)"


def despirala_review(solution: DespiralaSolution, record: DespiralaRecord, player: int = 0) -> DespiralaReview:
    if record.game.mode != solution.mode:
        raise InputError(f"the record is a game of {record.game.canonical}, not despirala {solution.mode}")
    if not 0 <= player < len(record.players):
        raise InputError(f"--player must be 0 to {len(record.players) - 1}, not {player}")
    sign = _sign(solution)
    states = replay_despirala(record)
    decisions: list[DespiralaDecision] = []
    lucks: list[DespiralaLuck] = []
    luck_total = loss_total = 0.0
    timeline = [(0, 0.0, 0.0)]
    value = expected_final(solution, states[0], player)
    baseline = value
    for i, event in enumerate(record.events):
        before, after = states[i], states[i + 1]
        if event.player != player:
            continue
        new_value = expected_final(solution, after, player)
        if event.type == "move":
            if before.phase == DECIDE:
                seat = before.seat
                options = [(m.text(), v) for m, v in turn_options(solution, seat.free, seat.goods, before.dice)]
            else:
                options = [(k.capitalize(), v) for k, v in _collect_state_values(solution, before).items()]
                options.sort(key=lambda o: -sign * o[1])
            chosen = event.move.text()
            chosen_value = next(v for m, v in options if m == chosen)
            best, best_value = options[0]
            loss = sign * (best_value - chosen_value)
            loss = 0.0 if loss <= TIE else loss
            decisions.append(DespiralaDecision(i, before.round, _position(before), chosen, before.seat.points + chosen_value,
                                               best, before.seat.points + best_value, loss, label(loss, tie=TIE),
                                               len(options)))
            loss_total += loss
        else:
            luck = sign * (new_value - value)
            lucks.append(DespiralaLuck(i, before.round, event.type, _what(before, event), value, new_value, luck))
            luck_total += luck
        value = new_value
        timeline.append((i + 1, luck_total, loss_total))
    mine = [d for d in decisions if d.options > 1]
    labels: dict[str, int] = {}
    for d in mine:
        if d.loss > 0:
            labels[d.label] = labels.get(d.label, 0) + 1
    summary = DespiralaReviewSummary(record.game.canonical, player, record.players[player], states[-1].over, baseline,
                                     luck_total, loss_total, value, len(mine),
                                     loss_total / len(mine) if mine else 0.0, labels)
    return DespiralaReview(summary, decisions, lucks, timeline)
