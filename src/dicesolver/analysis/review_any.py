"""Review any recorded game with the right judge: a push-your-luck game in probability of winning, a
Despirala game in expected points, a two-player scorecard game without bonuses in exact equity, other
games of several players by the mindful model, and a solitaire game in expected points. Used by the
command line's ``analyze`` and by the web app."""

from __future__ import annotations

from typing import Callable

from ..errors import InputError
from ..games.despirala_records import DespiralaRecord
from ..games.push_records import PushRecord

Progress = Callable[[str], Callable[[int, int], None]] | None  # label -> (done, total) callback


def review_kind(record, points: bool = False, mindful: bool = False) -> str:
    """"push", "despirala", "duel", "mindful" or "solitaire": which review a record gets."""
    if isinstance(record, PushRecord):
        return "push"
    if isinstance(record, DespiralaRecord):
        return "despirala"
    if len(record.players) >= 2 and not points:
        from ..solvers.duel import check_duel_game

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
        from ..solvers.pushluck import load_or_solve
        from .push_review import push_review

        return kind, push_review(load_or_solve(record.game)[0], record, player)
    if kind == "despirala":
        from ..solvers.despirala import load_or_solve
        from .despirala_review import despirala_review

        return kind, despirala_review(load_or_solve(record.game.mode)[0], record, player)
    if kind == "duel":
        from ..solvers.duel import load_or_solve
        from .duel_review import duel_review

        table, _, _ = load_or_solve(record.game, progress=step(f"solving two-player {record.game.canonical} (once; cached)"))
        return kind, duel_review(table, record, player)
    if kind == "mindful":
        from ..players.mindful import MindfulPlayer
        from ..solvers.future import load_or_build
        from .mindful_review import mindful_review

        future, _, _ = load_or_build(record.game, progress=step(f"score distributions of {record.game.canonical} (once; cached)"))
        return kind, mindful_review(MindfulPlayer(record.game, future), record, player)
    from ..solvers.solitaire import load_or_solve
    from .review import review

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
