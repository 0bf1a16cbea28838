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

from typing import TYPE_CHECKING

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
    steps = playthrough.steps
    values = _values_needed(solution, states, steps, me)
    choices = [i for i, state in enumerate(states[:-1]) if not state.is_chance()]
    answers = solution.answers([states[i] for i in choices])
    answer_row = {i: k for k, i in enumerate(choices)}
    decisions: list[Decision] = []
    lucks: list[Luck] = []
    timeline: list[TimelinePoint] = []
    turn = [0] * len(playthrough.players)
    throw = [0] * len(playthrough.players)
    luck = loss = others = others_luck = others_loss = 0.0
    baseline = last = values[(0, me)]
    others_moved = False  # since my last event
    previous_turn = None
    for i, step in enumerate(steps):
        state = states[i]
        seat = state.player
        assert seat is not None  # the playthrough replays only while the game goes on
        if state.turn_key() != previous_turn:
            turn[seat] += 1
            throw[seat] = 0
            previous_turn = state.turn_key()
        mine = seat == me
        if mine and others_moved:
            now = values[(i, me)]
            others += s * (now - last)
            last = now
            others_moved = False
        name = playthrough.name(seat)
        if state.is_chance():
            throw[seat] += 1
            before = last if mine else values[(i, None)]
            after = values[(i + 1, seat)]
            event = Luck(event=i, seat=seat, player=name, turn=turn[seat], throw=throw[seat], kind=step.kind,
                         outcome=step.label, before=before, after=after, luck=s * (after - before))
            lucks.append(event)
            if mine:
                luck += event.luck
                last = after
            else:
                others_luck += event.luck
        else:
            pairs = solution.pairs(state, answers, answer_row[i])
            by_step = dict(pairs)
            if step not in by_step:
                raise InputError(f"step {i + 1}: {step} is not a legal choice at {state}")
            chosen = by_step[step]
            best_action, best_value = max(pairs, key=lambda av: (s * av[1], av[0] == step))
            d_loss = s * (best_value - chosen)
            d_loss = 0.0 if d_loss <= solution.tie else d_loss
            spread = max(v for _, v in pairs) - min(v for _, v in pairs)
            decisions.append(Decision(
                event=i, seat=seat, player=name, turn=turn[seat], position=str(state), brief=state.brief(),
                kind=step.kind, chosen=step.label, chosen_value=chosen, best=best_action.label,
                best_value=best_value, loss=d_loss, skill=-d_loss, label=label(d_loss, solution.unit, solution.tie),
                options=len(pairs) if spread > solution.tie else 1))
            if mine:
                loss += d_loss
                last = chosen
            else:
                others_loss += d_loss
        if mine:
            timeline.append(TimelinePoint(event=i, value=last, luck=luck, loss=loss))
        else:
            others_moved = True
    final = states[-1]
    complete = final.is_terminal()
    result = last
    if others_moved:
        try:
            result = solution.value(final, me)
            others += s * (result - last)
        except InputError:  # a model that values only the player on turn: the game stopped on another's turn
            pass
    my_decisions = [d for d in decisions if d.seat == me]
    with_choice = [d for d in my_decisions if d.options > 1]
    labels: dict[str, int] = {}
    for d in my_decisions:
        labels[d.label] = labels.get(d.label, 0) + 1
    summary = ReviewSummary(
        game=solution.game.canonical, unit=solution.unit, higher_is_better=solution.higher_is_better,
        judge=solution.judge, measure=solution.unit_words, seat=me,
        player=playthrough.players[player], index=player, players=list(playthrough.players),
        complete=complete, baseline=baseline, luck=luck, loss=loss, others=others, others_luck=others_luck,
        others_loss=others_loss, result=result, decisions=len(my_decisions), decisions_with_choice=len(with_choice),
        mean_loss=loss / len(with_choice) if with_choice else 0.0, labels=labels,
        rating=rating(solution, loss / len(with_choice)) if with_choice else None)
    tutor = [TutorWarning.model_validate(note["tutor"]) for _, note in sorted(playthrough.notes.items())
             if "tutor" in note]  # a game played with the tutor: its warnings, heeded or not, from the record
    return Review(summary=summary, decisions=decisions, luck=lucks, timeline=timeline, tutor=tutor)


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
