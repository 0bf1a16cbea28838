"""Review any recorded game with the right judge: a push-your-luck game in probability of winning, a
Despirala game in expected points, a two-player scorecard game without bonuses in exact equity, other
games of several players by the mindful model, and a solitaire game in expected points. Used by the
command line's ``analyze`` and by the web app."""

from __future__ import annotations

from typing import Callable

from ..core.errors import InputError
from ..despirala.records import DespiralaRecord
from ..pushluck.records import PushRecord

Progress = Callable[[str], Callable[[int, int], None]] | None  # label -> (done, total) callback


def review_kind(record, points: bool = False, mindful: bool = False) -> str:
    """"push", "despirala", "duel", "mindful" or "solitaire": which review a record gets."""
    if isinstance(record, PushRecord):
        return "push"
    if isinstance(record, DespiralaRecord):
        return "despirala"
    if len(record.players) >= 2 and not points:
        from ..scorecard.duel import check_duel_game

        try:
            check_duel_game(record.game)
            if len(record.players) == 2 and not mindful:
                return "duel"
        except InputError:
            pass
        return "mindful"
    return "solitaire"


def review_record(record, player: int = 0, points: bool = False, mindful: bool = False, progress: Progress = None):
    """(kind, review) of ``player``'s game; ``progress(label)`` gives a callback for long table builds."""
    kind = review_kind(record, points, mindful)
    step = progress or (lambda label: None)
    if kind == "push":
        from ..pushluck.review import push_review
        from ..pushluck.solver import load_or_solve

        return kind, push_review(load_or_solve(record.game)[0], record, player)
    if kind == "despirala":
        from ..despirala.review import despirala_review
        from ..despirala.solver import load_or_solve

        return kind, despirala_review(load_or_solve(record.game.mode)[0], record, player)
    if kind == "duel":
        from ..scorecard.duel import load_or_solve
        from ..scorecard.duel_review import duel_review

        table, _, _ = load_or_solve(record.game, progress=step(f"solving two-player {record.game.canonical} (once; cached)"))
        return kind, duel_review(table, record, player)
    if kind == "mindful":
        from ..scorecard.future import load_or_build
        from ..scorecard.mindful_review import mindful_review
        from ..scorecard.players.mindful import MindfulPlayer

        future, _, _ = load_or_build(record.game, progress=step(f"score distributions of {record.game.canonical} (once; cached)"))
        return kind, mindful_review(MindfulPlayer(record.game, future), record, player)
    from ..scorecard.review import review
    from ..scorecard.solitaire import load_or_solve

    return kind, review(load_or_solve(record.game, progress=step(f"solving {record.game.canonical}"))[0], record, player)


def review_figure_for(kind: str, result):
    """The timeline figure of a review of any kind."""
    from . import plots

    if kind == "push":
        return plots.push_review_figure(result)
    if kind == "despirala":
        return plots.despirala_review_figure(result)
    return plots.review_figure(result)


REVIEW_EVENTS = {"push": "throws", "despirala": "luck"}  # the attribute holding a review's chance events
