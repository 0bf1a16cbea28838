"""Review of a recorded game of any number of players under the mindful model.

Every value is the reviewed player's expected result (win n - 1, k tied leaders (n - k) / k each, loss
-1) assuming that every player plays Maximus from then on, computed from the future-score
distributions as Mindful Maximus does. A decision's loss is best minus chosen (>= 0); a throw's luck
is the value after it (with best play) minus before it. Everything that happens on the other players'
turns (their luck and their decisions) is summed as ``others``, so the result telescopes:
result = baseline + luck - loss + others.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.dice import format_dice
from ..core.errors import InputError
from .duel_review import duel_label
from .players.mindful import MindfulPlayer
from .position import Position, format_position
from .records import GameRecord, replay
from .review import DecisionReview, RollReview

TIE = 1e-9


@dataclass(frozen=True)
class MindfulReviewSummary:
    game: str
    player: str
    seat: int
    players: list[str]
    complete: bool
    baseline: float
    luck: float
    loss: float
    others: float  # the change of the value on the other players' turns
    decisions: int
    decisions_with_choice: int
    mean_loss: float
    result: float  # the game's result for the player, or the value now for an unfinished game
    labels: dict[str, int] = field(default_factory=dict)


@dataclass
class MindfulReview:
    summary: MindfulReviewSummary
    decisions: list[DecisionReview]
    rolls: list[RollReview]
    timeline: list[tuple[int, float, float]]


def game_result(totals: list[int], seat: int) -> float:
    top = max(totals)
    k = totals.count(top)
    return (len(totals) - k) / k if totals[seat] == top else -1.0


def options(model: MindfulPlayer, pos: Position, others: list[Position]) -> dict[str, float]:
    """Every option of a position showing dice: keeps (with a throw left) and categories."""
    game = model.game
    out: dict[str, float] = {}
    if pos.rolls_left > 0:
        for k, v in model.keep_values(pos, others).items():
            out[format_dice(k, game.faces)] = v
    for c, v in model.category_values(pos, others).items():
        out[game.categories[c].name] = v
    return out


def value(model: MindfulPlayer, pos: Position, others: list[Position]) -> float:
    """The player's value at this moment with best play from here (a turn start, or dice showing)."""
    game = model.game
    if pos.dice is None:
        return float(model.equities(Position(pos.boxes, None, game.rolls, pos.extra_bonus), others).keeps[0])
    return max(options(model, pos, others).values())


def mindful_review(model: MindfulPlayer, record: GameRecord, player: int = 0) -> MindfulReview:
    game = model.game
    n = len(record.players)
    if n < 2:
        raise InputError("a multi-player review needs a record with two or more players")
    if record.game.fingerprint != game.fingerprint:
        raise InputError("the record is for another game than the tables")
    if not 0 <= player < n:
        raise InputError(f"no player {player} in this record")
    positions_now, before = replay(record)
    decisions: list[DecisionReview] = []
    rolls: list[RollReview] = []
    timeline = []
    luck = loss = others_sum = 0.0
    pending: float | None = None
    throw_no = 0
    start_value = None
    last_value = None  # the player's value after their last event
    for i, (event, pos) in enumerate(zip(record.events, before)):
        if event.player != player:
            continue
        opp = [p for s, p in enumerate(_all(record, i)) if s != player]
        if event.type == "roll":
            if pending is None:  # the opening throw: the turn starts here
                value_before = value(model, Position(pos.boxes, None, game.rolls, pos.extra_bonus), opp)
                if start_value is None:
                    start_value = value_before if i == _first_event(record, player) else None
                if last_value is not None:
                    others_sum += value_before - last_value
                throw_no = 1
            else:
                value_before = pending
                throw_no += 1
            after = Position(pos.boxes, event.dice, pos.rolls_left - 1, pos.extra_bonus)
            value_after = value(model, after, opp)
            pending = None
            luck += value_after - value_before
            rolls.append(RollReview(event.turn, throw_no, format_dice(event.dice, game.faces), value_before,
                                    value_after, value_after - value_before))
        else:
            opts = options(model, pos, opp)
            if event.type == "keep":
                chosen, kind = format_dice(event.keep, game.faces), "keep"
                pending = opts[chosen]
            else:
                chosen, kind = game.categories[event.category].name, "category"
                last_value = opts[chosen]
            best = max(opts, key=lambda k: (opts[k], k == chosen))
            d_loss = max(0.0, opts[best] - opts[chosen])
            d_loss = 0.0 if d_loss <= TIE else d_loss
            distinct = len({round(v, 9) for v in opts.values()})
            decisions.append(DecisionReview(event.turn, format_position(game, pos), kind, chosen, opts[chosen], best,
                                            opts[best], d_loss, -d_loss, duel_label(d_loss),
                                            len(opts) if distinct > 1 else 1))
            loss += d_loss
        timeline.append((i, luck, loss))
    first_start = [Position((None,) * game.n_categories, None, game.rolls) for _ in range(n)]
    baseline = start_value if start_value is not None else value(
        model, first_start[player], [p for s, p in enumerate(first_start) if s != player])
    complete = all(p.is_over() for p in positions_now)
    if complete:
        result = game_result([p.total(game) for p in positions_now], player)
        if last_value is not None:
            others_sum += result - last_value
    else:
        result = baseline + luck - loss + others_sum
    with_choice = [d for d in decisions if d.options > 1]
    counts: dict[str, int] = {}
    for d in decisions:
        counts[d.label] = counts.get(d.label, 0) + 1
    summary = MindfulReviewSummary(game.canonical, record.players[player], player, list(record.players), complete, baseline,
                                   luck, loss, others_sum, len(decisions), len(with_choice),
                                   loss / len(with_choice) if with_choice else 0.0, result, counts)
    return MindfulReview(summary, decisions, rolls, timeline)


def _all(record: GameRecord, index: int) -> list[Position]:
    partial = GameRecord(record.game, record.players, record.seed, record.manual_dice, record.events[:index],
                         record.extra)
    return replay(partial)[0]


def _first_event(record: GameRecord, player: int) -> int:
    return next(i for i, e in enumerate(record.events) if e.player == player)
