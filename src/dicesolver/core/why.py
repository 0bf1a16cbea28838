"""Why an option is worth what it is, for any judge that can split its values (``ds.explain``,
``dicesolver advise --explain``): every option's value by aspect with its spread, ranked as advice ranks
them, and the best option set against another aspect by aspect, the largest differences first."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

import numpy as np

from .advice import ranked
from .errors import InputError
from .results import AspectDifference, ExplainedOption, Explanation

if TYPE_CHECKING:
    from .protocol import State
    from .results import Decision, Review
    from .solved import SolvedGame

SHOWN = 1e-4  # differences smaller than this are left out of the comparison
IN_SUMMARY = 4  # aspects named in the one-sentence summary


@dataclass(frozen=True)
class Split:
    """A value split by aspect (the parts sum to the value) and the standard deviation of the result."""

    parts: np.ndarray
    sd: float
    chances: dict[str, float] | None = None  # chances that are not parts of the value (a race's bust this turn)


def explanation(solution: SolvedGame, state: State, names: list[str], titles: dict[str, str], position: Split,
                options: list[Split], versus: str | None = None, prizes: dict[str, float] | None = None
                ) -> Explanation:
    """The Explanation of ``state`` from the splits of the position and of its options (in the order of
    ``state.legal_actions()``); ``versus`` names the option the best is set against (the second best by
    default); ``prizes``: the aspects that pay one fixed amount when they pay, and that amount (each one's
    part of the value over it is its chance)."""
    prizes = prizes or {}
    answers = solution.answers([state])
    actions = state.legal_actions() if state.to_move() is not None else []
    if len(options) != len(actions):
        raise AssertionError(f"{len(options)} splits for {len(actions)} options at {state}")
    index = {str(a): k for k, a in enumerate(actions)}
    explained = []
    for option in (ranked(solution, state, answers) if actions else []):
        split = options[index[option.action]]
        parts = _named(names, split.parts)
        explained.append(ExplainedOption(action=option.action, kind=option.kind, value=option.value,
                                         cost=option.cost, sd=split.sd, breakdown=parts,
                                         chances=chances_of(parts, prizes) | (split.chances or {})))
    breakdown = _named(names, position.parts)
    out = {"game": solution.game.canonical, "position": str(state), "unit": solution.unit,
           "value": float(answers.value[0]), "sd": position.sd, "breakdown": breakdown,
           "titles": titles, "options": explained,
           "chances": chances_of(breakdown, prizes) | (position.chances or {})}
    pair = _compared(state, explained, versus)
    if pair is None:
        return Explanation(**out, best=explained[0].action if explained else None)
    best, other = pair
    differences = _differences(titles, best, other)
    digits = 2 if solution.unit == "points" else 4
    return Explanation(**out, best=best.action, versus=other.action, differences=differences,
                       summary=summary(best, other, differences, digits),
                       reason=reason(best.action, other.action, best.value - other.value, solution.unit, differences))


def beside_points(solution: SolvedGame, state: State, alone: SolvedGame, versus: str | None = None,
                  progress: Callable[[int, int], None] | None = None) -> Explanation:
    """A judge whose values are not split (a two-person table's equity, a chance of reaching a target, the
    mindful model's expected result) explained beside ``alone``: the same rules' expected-score judge, which
    splits the final score of the player on turn as if playing alone. The options are ranked and valued by
    ``solution``; each carries its points alone, their split and spread; the best is set against ``versus``
    (the second best by default) in points, so that what a choice gives up or gains in points stands beside
    what it does to the chance."""
    points = alone.explain(state, None, progress)
    split = {o.action: o for o in points.options}
    answers = solution.answers([state])
    options = [ExplainedOption(action=o.action, kind=o.kind, value=o.value, cost=o.cost, sd=split[o.action].sd,
                               breakdown=split[o.action].breakdown, points=split[o.action].value,
                               chances=split[o.action].chances)
               for o in (ranked(solution, state, answers) if points.options else [])]
    out = {"game": solution.game.canonical, "position": str(state), "unit": solution.unit,
           "value": float(answers.value[0]), "sd": points.sd, "breakdown": points.breakdown, "titles": points.titles,
           "options": options, "split_unit": "points", "points": points.value, "chances": points.chances}
    pair = _compared(state, options, versus)
    if pair is None:
        return Explanation(**out, best=options[0].action if options else None)
    best, other = pair
    differences = _differences(points.titles, best, other)
    gain = best.value - other.value
    assert best.points is not None and other.points is not None
    named = _named_differences(differences, 2)
    gap = best.points - other.points
    beside = "as if alone it scores the same" if abs(gap) < 0.005 else \
        f"as if alone it scores {abs(gap):.2f} points {'more' if gap > 0 else 'fewer'}"
    value = f"{gain:+.4f} {UNIT_SHORT.get(solution.unit, solution.unit)}"
    if solution.unit == "equity" and solution.game.n_players == 2:  # +1 win, 0 draw, -1 loss
        value += (f": a chance of winning of {50 * (1 + best.value):.1f}% against {50 * (1 + other.value):.1f}%, "
                  "a draw counting half")
    said = f"{best.action} over {other.action} ({value}); {beside}"
    main = reason(best.action, other.action, gain, solution.unit, differences, alone=True)
    return Explanation(**out, best=best.action, versus=other.action, differences=differences,
                       summary=said + (f": {named}" if named else ""), reason=main)


UNIT_SHORT = {"equity": "equity", "p_target": "chance", "p_win": "chance"}


def _compared(state: State, options: list[ExplainedOption], versus: str | None
              ) -> tuple[ExplainedOption, ExplainedOption] | None:
    """The best option and the one it is set against (``versus``, else the second best); None where there are
    fewer than two options (and ``versus`` is then refused)."""
    if len(options) < 2:
        if versus is not None:
            raise InputError(f"there is nothing to set {versus!r} against: the position has "
                             f"{len(options)} option{'' if len(options) == 1 else 's'}")
        return None
    best = options[0]
    other = options[1] if versus is None else _find(state, options, versus)
    return best, options[1] if other is best else other


def _differences(titles: dict[str, str], best: ExplainedOption, other: ExplainedOption) -> list[AspectDifference]:
    """Best against other aspect by aspect, the largest differences first (those below SHOWN left out)."""
    return sorted((AspectDifference(aspect=n, title=titles.get(n, n), best=best.breakdown[n], other=other.breakdown[n],
                                    difference=best.breakdown[n] - other.breakdown[n],
                                    best_chance=best.chances.get(n), other_chance=other.chances.get(n))
                   for n in best.breakdown if abs(best.breakdown[n] - other.breakdown[n]) >= SHOWN),
                  key=lambda d: -abs(d.difference))


def _named_differences(differences: list[AspectDifference], digits: int) -> str:
    """'large straight +0.90, small straight -0.32, ..., and 3 more'."""
    named = ", ".join(f"{d.title} {d.difference:+.{digits}f}" for d in differences[:IN_SUMMARY])
    more = len(differences) - IN_SUMMARY
    return named + (f", and {more} more" if more > 0 else "")


def summary(best: ExplainedOption, other: ExplainedOption, differences: list[AspectDifference],
            digits: int = 2) -> str:
    """'keep 3456 over keep 345 (+0.51): large straight +0.90, small straight -0.32, ...'."""
    gain = best.value - other.value
    named = _named_differences(differences, digits)
    return f"{best.action} over {other.action} ({gain:+.{digits}f})" + (f": {named}" if named else ": the same")


def chances_of(parts: dict[str, float], prizes: dict[str, float]) -> dict[str, float]:
    """Each aspect's chance where it pays one fixed prize: its part of the value over the prize (a box of 40
    points worth 13.6 on average is filled with them 34% of the time), clipped to [0, 1] against rounding."""
    return {name: min(1.0, max(0.0, parts[name] / prize)) for name, prize in prizes.items() if name in parts}


def chance_words(p: float) -> str:
    """A chance as a player reads it: '34%'; below 9.5%, 'about 1 in 27'; '0%' and '100%' at the ends."""
    if p <= 0.0005 or p >= 0.9995:
        return "0%" if p < 0.5 else "100%"
    if p < 0.095:
        return f"about 1 in {round(1 / p):,}"
    return f"{100 * p:.0f}%"


def reason(best: str, other: str, gain: float, unit: str, differences: list[AspectDifference],
           alone: bool = False) -> str:
    """The main reason in one plain sentence: what ``best`` gains over ``other`` most, with its chances where
    the aspect has them ('keep 66 beats keep 466 by 2.19 points, mostly on the upper bonus: a chance of 68%
    against 62%.'). ``alone``: the differences are in points as if alone, beside a chance or an equity."""
    if unit in ("points", "ce"):
        amount = f"{gain:.2f} points"
    elif unit in ("p_win", "p_target"):  # a chance: in percentage points, as a player says it
        amount = f"{100 * gain:.2f} percentage points"
    else:
        amount = f"{gain:.4f} {UNIT_SHORT.get(unit, unit)}"
    said = f"{best} beats {other} by {amount}"
    gains = [d for d in differences if d.difference > 0]
    if not gains:
        return said + "."
    main = gains[0]
    where = "as if alone, mostly" if alone else "mostly"
    title = main.title if main.title.split()[0].endswith("ing") else f"the {main.title}"  # "winning later"
    if main.best_chance is not None and main.other_chance is not None:
        mine, theirs = chance_words(main.best_chance), chance_words(main.other_chance)
        if mine == theirs:  # close chances: a decimal tells them apart ("99.4% against 98.9%")
            mine, theirs = f"{100 * main.best_chance:.1f}%", f"{100 * main.other_chance:.1f}%"
        return f"{said}, {where} on {title}: a chance of {mine} against {theirs}."
    return f"{said}, {where} on {title} ({main.difference:+.2f} points there)."


def _named(names: list[str], parts: np.ndarray) -> dict[str, float]:
    return {n: float(v) for n, v in zip(names, parts)}


def _find(state: State, options: list[ExplainedOption], text: str) -> ExplainedOption:
    """The option a text names, read as a move at ``state`` is read ("keep 345", "345", "score chance")."""
    try:
        action = str(state.parse_step(text))
    except InputError as exc:  # the move's own reason (a box already filled, a die not held), then the choice
        raise InputError(f"{exc}; the options to set against the best are: "
                         + ", ".join(o.action for o in options)) from None
    for option in options:
        if option.action == action:
            return option
    raise InputError(f"{text!r} is not an option here; the options are: " + ", ".join(o.action for o in options))


def lessons(solution: SolvedGame, review: Review, top: int = 5) -> list[tuple[Decision, str]]:
    """The reviewed player's costliest decisions, the costliest first, each with why the best beat the move
    made: the explanation's main reason in one sentence where the judge splits its values (with the spread of
    the final score after each, where it is in points, as Verhoeff's test shows it), else the two values."""
    costly = sorted((d for d in review.mine() if d.loss > solution.tie and d.options > 1), key=lambda d: -d.loss)
    out = []
    for d in costly[:top]:
        text = f"{d.best} over {d.chosen} (+{d.loss:.3g})"
        if solution.explains:
            try:
                why = solution.explain(d.position, versus=d.chosen)
            except InputError:  # a position the split cannot read (a record of other rules): the values say it
                why = None
            if why is not None:
                text = why.reason or why.summary
                sd = {o.action: o.sd for o in why.options}
                if why.unit == "points" and why.best in sd and str(why.versus) in sd:
                    text += f" (sd of the final score: {sd[why.best]:.2f} after {why.best}, " \
                            f"{sd[str(why.versus)]:.2f} after {why.versus})"
        out.append((d, text))
    return out


WIN_NOW, WIN_LATER = "win_this_turn", "win_later"
BUST = "bust_this_turn"  # the turn passes with nothing banked (or, where the rules say, points lost)
WIN_TITLES = {WIN_NOW: "winning this turn", WIN_LATER: "winning later", BUST: "busting this turn"}
TURN_STATES = 20_000  # the positions one turn may reach, at most, for the split below (Farkle's can be more)


def win_split(solution: SolvedGame, state: State) -> tuple[Split, list[Split]] | None:
    """A race's chance of winning (``p_win``) split into winning before the turn passes and winning later,
    for the position and each option, with optimal play (the first best option, as advice ranks them) to
    the end of the turn: played out through the protocol. Where the states keep the banked ``scores`` (the
    races do), each split's chances say too how likely the turn is to bust: to pass with no more banked than
    at its start. None where a turn reaches more than TURN_STATES positions."""
    from .protocol import seat_on_turn

    me = seat_on_turn(state)
    banked = getattr(state, "scores", None)
    seen: dict[str, tuple[float, float]] = {}

    def now(s: State) -> tuple[float, float]:
        """(the chance of winning before the turn passes, of the turn busting) with optimal play from s."""
        if s.is_terminal():
            return float(s.returns()[me]), 0.0
        if seat_on_turn(s) != me:
            return 0.0, float(banked is not None and s.scores[me] <= banked[me])  # type: ignore[attr-defined]
        key = str(s)
        if key in seen:
            return seen[key]
        if len(seen) >= TURN_STATES:
            raise _TooMany
        if s.is_chance():
            won = bust = 0.0
            for step, p in s.chance_outcomes():
                w, b = now(s.apply(step))
                won, bust = won + p * w, bust + p * b
            found = won, bust
        else:
            pairs = solution.action_values(s)
            best = max(v * solution.sign for _, v in pairs)
            found = now(s.apply(next(step for step, v in pairs if v * solution.sign == best)))
        seen[key] = found
        return found

    def split(value: float, turn: tuple[float, float]) -> Split:
        won_now, bust = turn
        return Split(np.array([won_now, value - won_now]), float(np.sqrt(max(value * (1 - value), 0.0))),
                     None if banked is None else {BUST: bust})

    try:
        options = [split(v, now(state.apply(step))) for step, v in solution.action_values(state)] \
            if state.to_move() is not None else []
        value = solution.value(state)
        return split(value, now(state)), options
    except _TooMany:
        return None


class _TooMany(Exception):
    pass
