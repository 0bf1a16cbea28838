"""Review of a recorded game of any family: every decision's loss and every throw's luck.

All values come from one solution, each in the value of the player it concerns, with best play from
then on (GNU Backgammon's convention):

* a decision's *loss* = value(best option) - value(chosen option) >= 0 (its *skill* is minus the loss);
* a throw's *luck* = its player's value after the throw (with best play) - the value before it (the
  mean over all of its outcomes), so luck averages to 0 over the outcomes of any throw.

For the reviewed player the values telescope: result = baseline + luck - loss + others, where *others*
is whatever the other players' turns did to the reviewed player's value (where lower is better, the
player's value moves the other way: result = baseline - (luck - loss + others)).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator

from .errors import InputError
from .rating import rating
from .results import Decision, Luck, Review, ReviewSummary, TimelinePoint, TutorWarning

if TYPE_CHECKING:
    from .playthrough import Playthrough
    from .solved import SolvedGame

# (upper bound of a decision's loss, label), per unit: GNU Backgammon's idea of named thresholds
LABELS: dict[str, tuple[tuple[float, str], ...]] = {
    "points": ((1.0, "inaccuracy"), (4.0, "mistake"), (10.0, "blunder"), (float("inf"), "massive blunder")),
    "ce": ((1.0, "inaccuracy"), (4.0, "mistake"), (10.0, "blunder"), (float("inf"), "massive blunder")),  # points
    "equity": ((0.02, "inaccuracy"), (0.05, "mistake"), (0.10, "blunder"), (float("inf"), "massive blunder")),
    "p_win": ((0.01, "inaccuracy"), (0.025, "mistake"), (0.05, "blunder"), (float("inf"), "massive blunder")),
}


def label(loss: float, unit: str = "points", tie: float = 1e-9) -> str:
    """A decision's label from its loss: "best" within ``tie``, else the first bound it is below."""
    if loss <= tie:
        return "best"
    return next(name for bound, name in LABELS[unit] if loss < bound)


@dataclass
class Tally:
    """The running totals of one player's review, one event at a time (GNU Backgammon's
    ``updateStatisticsMove``): the review folds every decision and throw of the game into one, in their order."""

    me: int  # the reviewed seat
    luck: float = 0.0
    loss: float = 0.0
    others: float = 0.0  # what the other players' turns did to the reviewed player's value
    others_luck: float = 0.0
    others_loss: float = 0.0
    decisions: int = 0
    with_choice: int = 0  # decisions where the options' values differ
    labels: dict[str, int] = field(default_factory=dict)

    def add_luck(self, event: Luck) -> None:
        if event.seat == self.me:
            self.luck += event.luck
        else:
            self.others_luck += event.luck

    def add_decision(self, decision: Decision) -> None:
        if decision.seat != self.me:
            self.others_loss += decision.loss
            return
        self.loss += decision.loss
        self.decisions += 1
        self.with_choice += int(decision.options > 1)
        self.labels[decision.label] = self.labels.get(decision.label, 0) + 1

    @property
    def mean_loss(self) -> float:
        """The loss per decision with a choice."""
        return self.loss / self.with_choice if self.with_choice else 0.0


def review(solution: SolvedGame, playthrough: Playthrough, player: int = 0) -> Review:
    """Judge ``player``'s game (an index into the record's players) and every other step on the way: every
    value the review needs comes from two batches of the solution's engine (the decisions' options, and
    the states' values for the seats they concern). The summary's rating is on the game's scale where it is
    shipped or measured already (``core.rating.known_scale``; ``dicesolver analyze`` measures it first)."""
    if playthrough.game.canonical != solution.game.canonical:
        raise InputError(f"the record is a game of {playthrough.game.canonical}, not {solution.game.canonical}")
    me = playthrough.seat(player)
    s = solution.sign
    states = playthrough.states
    values = _values_needed(solution, states, playthrough.steps, me)
    choices = [i for i, state in enumerate(states[:-1]) if not state.is_chance()]
    answers = solution.answers([states[i] for i in choices])
    answer_row = {i: k for k, i in enumerate(choices)}
    decisions: list[Decision] = []
    lucks: list[Luck] = []
    timeline: list[TimelinePoint] = []
    tally = Tally(me)
    baseline = last = values[(0, me)]
    others_moved = False  # since my last event
    for i, step, state, turn, throw in _events(playthrough):
        seat = state.player
        mine = seat == me
        if mine and others_moved:
            now = values[(i, me)]
            tally.others += s * (now - last)
            last = now
            others_moved = False
        name = playthrough.name(seat)
        if state.is_chance():
            before = last if mine else values[(i, None)]
            after = values[(i + 1, seat)]
            event = Luck(event=i, seat=seat, player=name, turn=turn, throw=throw, kind=step.kind, outcome=step.label,
                         before=before, after=after, luck=s * (after - before))
            lucks.append(event)
            tally.add_luck(event)
            if mine:
                last = after
        else:
            decision = _decision(solution, i, step, state, solution.pairs(state, answers, answer_row[i]), name, turn)
            decisions.append(decision)
            tally.add_decision(decision)
            if mine:
                last = decision.chosen_value
        if mine:
            timeline.append(TimelinePoint(event=i, value=last, luck=tally.luck, loss=tally.loss))
        else:
            others_moved = True
    final = states[-1]
    result = last
    if others_moved:
        try:
            result = solution.value(final, me)
            tally.others += s * (result - last)
        except InputError:  # a model that values only the player on turn: the game stopped on another's turn
            pass
    summary = ReviewSummary(
        game=solution.game.canonical, unit=solution.unit, higher_is_better=solution.higher_is_better,
        judge=solution.judge, measure=solution.unit_words, seat=me,
        player=playthrough.players[player], index=player, players=list(playthrough.players),
        complete=final.is_terminal(), baseline=baseline, luck=tally.luck, loss=tally.loss, others=tally.others,
        others_luck=tally.others_luck, others_loss=tally.others_loss, result=result, decisions=tally.decisions,
        decisions_with_choice=tally.with_choice, mean_loss=tally.mean_loss, labels=tally.labels,
        rating=rating(solution, tally.mean_loss) if tally.with_choice else None)
    tutor = [TutorWarning.model_validate(note["tutor"]) for _, note in sorted(playthrough.notes.items())
             if "tutor" in note]  # a game played with the tutor: its warnings, heeded or not, from the record
    return Review(summary=summary, decisions=decisions, luck=lucks, timeline=timeline, tutor=tutor)


def _events(playthrough: Playthrough) -> Iterator[tuple[int, Any, Any, int, int]]:
    """Each step of the game with the state it is taken in, its player's turn and, in that turn, throw
    number (the throw's own, counted from 1, for a throw)."""
    states = playthrough.states
    turn = [0] * len(playthrough.players)
    throw = [0] * len(playthrough.players)
    previous_turn = None
    for i, step in enumerate(playthrough.steps):
        state = states[i]
        seat = state.player
        assert seat is not None  # the playthrough replays only while the game goes on
        if state.turn_key() != previous_turn:
            turn[seat] += 1
            throw[seat] = 0
            previous_turn = state.turn_key()
        if state.is_chance():
            throw[seat] += 1
        yield i, step, state, turn[seat], throw[seat]


def _decision(solution: SolvedGame, i: int, step: Any, state: Any, pairs: list, player: str, turn: int) -> Decision:
    """The decision of step ``i``: the chosen option against the best one of ``pairs`` (option, value)."""
    s = solution.sign
    by_step = dict(pairs)
    if step not in by_step:
        raise InputError(f"step {i + 1}: {step} is not a legal choice at {state}")
    chosen = by_step[step]
    best_action, best_value = max(pairs, key=lambda av: (s * av[1], av[0] == step))
    loss = s * (best_value - chosen)
    loss = 0.0 if loss <= solution.tie else loss
    spread = max(v for _, v in pairs) - min(v for _, v in pairs)
    return Decision(event=i, seat=state.player, player=player, turn=turn, position=str(state), brief=state.brief(),
                    kind=step.kind, chosen=step.label, chosen_value=chosen, best=best_action.label,
                    best_value=best_value, loss=loss, skill=-loss, label=label(loss, solution.unit, solution.tie),
                    options=len(pairs) if spread > solution.tie else 1)


def _values_needed(solution: SolvedGame, states: list, steps: list, me: int) -> dict[tuple[int, int | None], float]:
    """Every (state index, seat) value the review's walk reads (seat None: the player on turn), valued in
    one batch: the walk's own bookkeeping, without the values."""
    wanted: dict[tuple[int, int | None], None] = {(0, me): None}
    others_moved = False
    for i in range(len(steps)):
        seat = states[i].player
        mine = seat == me
        if mine and others_moved:
            wanted[(i, me)] = None
            others_moved = False
        if states[i].is_chance():
            if not mine:
                wanted[(i, None)] = None
            wanted[(i + 1, seat)] = None
        if not mine:
            others_moved = True
    keys = list(wanted)
    found = solution.values([states[i] for i, _ in keys], [seat for _, seat in keys])
    return dict(zip(keys, found.tolist()))
