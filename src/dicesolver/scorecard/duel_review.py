"""Review of a recorded two-player game in equity (+1 win, 0 draw, -1 loss), from one player's side.

Every value is the reviewed player's equity under optimal play by both from then on. A decision's loss
is best minus chosen (>= 0); a throw's luck is the equity after it (with best play) minus before it,
for the reviewed player's throws and, seen from the same side, the opponent's. The opponent's errors
count in the reviewed player's favour, so the result telescopes:
result = baseline + luck - loss + opponent's loss.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.dice import format_dice
from ..core.errors import InputError
from .duel import DuelPosition, DuelSolution
from .position import Position, format_position
from .records import GameRecord, replay
from .review import DecisionReview, RollReview, label

TIE = 1e-7  # float32 table
# (upper bound of the equity loss, label)
DUEL_LABELS: tuple[tuple[float, str], ...] = ((0.02, "inaccuracy"), (0.05, "mistake"), (0.10, "blunder"),
                                              (float("inf"), "massive blunder"))


def duel_label(loss: float) -> str:
    return label(loss, DUEL_LABELS, TIE)


@dataclass(frozen=True)
class DuelReviewSummary:
    game: str
    player: str
    opponent: str
    complete: bool
    baseline: float
    luck: float
    loss: float
    opponent_loss: float
    decisions: int
    decisions_with_choice: int
    mean_loss: float
    result: float  # +1 / 0 / -1, or the equity now for an unfinished game
    labels: dict[str, int] = field(default_factory=dict)


@dataclass
class DuelReview:
    summary: DuelReviewSummary
    decisions: list[DecisionReview]
    rolls: list[RollReview]
    timeline: list[tuple[int, float, float]]


def duel_review(solution: DuelSolution, record: GameRecord, player: int = 0) -> DuelReview:
    game = solution.game
    if len(record.players) != 2:
        raise InputError("a two-player review needs a record with two players")
    if record.game.fingerprint != game.fingerprint:
        raise InputError("the record is for another game than the solved table")
    if player not in (0, 1):
        raise InputError(f"no player {player} in this record")
    positions_now, before = replay(record)

    def equity(mover: int, pos: Position, other: Position) -> float:
        """The mover's equity with best play from this moment (pos may show dice)."""
        dpos = DuelPosition(pos.used, other.used, pos.total(game) - other.total(game))
        if pos.is_over() and other.is_over():
            return solution.equity(dpos)
        if pos.dice is None:
            return solution.equity(dpos)
        if pos.rolls_left == 0:
            return max(solution.category_equities(dpos, pos.dice).values())
        return max(solution.keep_equities(dpos, pos.dice, pos.rolls_left).values())

    decisions: list[DecisionReview] = []
    rolls: list[RollReview] = []
    timeline = []
    luck = loss = opp_loss = 0.0
    pending = [None, None]
    throw_no = [0, 0]
    for i, (event, pos) in enumerate(zip(record.events, before)):
        mover = event.player
        other = positions_at(record, i, 1 - mover)
        sign = 1.0 if mover == player else -1.0
        if event.type == "roll":
            value_before = pending[mover] if pending[mover] is not None else equity(mover, pos, other)
            throw_no[mover] = 1 if pending[mover] is None else throw_no[mover] + 1
            after = Position(pos.boxes, event.dice, pos.rolls_left - 1, pos.extra_bonus)
            value_after = equity(mover, after, other)
            pending[mover] = None
            luck += sign * (value_after - value_before)
            if mover == player:
                rolls.append(RollReview(event.turn, throw_no[mover], format_dice(event.dice, game.faces),
                                        value_before, value_after, value_after - value_before))
        else:
            dpos = DuelPosition(pos.used, other.used, pos.total(game) - other.total(game))
            options: dict[str, float] = {}
            if pos.rolls_left > 0:
                for k, v in solution.keep_equities(dpos, pos.dice, pos.rolls_left).items():
                    options[format_dice(k, game.faces)] = v
            for c, v in solution.category_equities(dpos, pos.dice).items():
                options[game.categories[c].name] = v
            if event.type == "keep":
                chosen, kind = format_dice(event.keep, game.faces), "keep"
                pending[mover] = options[chosen]
            else:
                chosen, kind = game.categories[event.category].name, "category"
            best = max(options, key=lambda k: (options[k], k == chosen))
            d_loss = max(0.0, options[best] - options[chosen])
            d_loss = 0.0 if d_loss <= TIE else d_loss
            if mover == player:
                distinct = len({round(v, 6) for v in options.values()})
                decisions.append(DecisionReview(event.turn, format_position(game, pos), kind, chosen, options[chosen],
                                                best, options[best], d_loss, -d_loss, duel_label(d_loss),
                                                len(options) if distinct > 1 else 1))
                loss += d_loss
            else:
                opp_loss += d_loss
        timeline.append((i, luck, loss - opp_loss))
    first = int(record.extra.get("first", 0))
    start = solution.first_player_equity()
    baseline = start if first == player else -start
    mine, theirs = positions_now[player], positions_now[1 - player]
    complete = mine.is_over() and theirs.is_over()
    if complete:
        diff = mine.total(game) - theirs.total(game)
        result = 1.0 if diff > 0 else -1.0 if diff < 0 else 0.0
    else:
        result = baseline + luck - loss + opp_loss
    with_choice = [d for d in decisions if d.options > 1]
    counts: dict[str, int] = {}
    for d in decisions:
        counts[d.label] = counts.get(d.label, 0) + 1
    summary = DuelReviewSummary(game.canonical, record.players[player], record.players[1 - player], complete,
                                baseline, luck, loss, opp_loss, len(decisions), len(with_choice),
                                loss / len(with_choice) if with_choice else 0.0, result, counts)
    return DuelReview(summary, decisions, rolls, timeline)


def positions_at(record: GameRecord, index: int, seat: int) -> Position:
    """A seat's position just before event ``index`` (replaying the events before it)."""
    partial = GameRecord(record.game, record.players, record.seed, record.manual_dice, record.events[:index],
                         record.extra)
    return replay(partial)[0][seat]
