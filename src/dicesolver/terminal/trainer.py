"""The trainer at a terminal (``dicesolver train``): each position on its board, your move typed as in a game,
then its cost, the best option and why; the session's proficiency against the ones before."""

from __future__ import annotations

from typing import Callable

from rich.console import Console
from rich.table import Table

from ..core import registry
from ..core.errors import InputError
from ..core.protocol import Game, State, seat_on_turn
from ..core.solved import SolvedGame
from ..core.training import SessionResult, TrainingRecord, judge_answer, questions, session_result, session_source
from . import render

QUIT = {"quit", "q", "exit", "stop"}
HINT = {"hint", "?"}


class StopTraining(Exception):
    """The player stopped (what was answered is kept)."""


def train(game: Game, solution: SolvedGame, console: Console, ask: Callable[[str], str], n: int = 10,
          seed: int = 0, goal: str = "") -> SessionResult | None:
    """One session of ``n`` questions; its result (saved with the deck of ``goal``'s record: see
    ``TrainingRecord.goal``), or None when nothing was answered."""
    family = registry.family_of(game)
    record = TrainingRecord.load(game, goal=goal)
    asked = questions(game, solution, record, n, seed)
    names = ["you"] + [f"player {i + 1}" for i in range(1, game.n_players)]
    losses: list[float] = []
    answered: list[State] = []  # where each counted answer was given
    unit_words = solution.unit_words
    from_deck = fresh = 0
    try:
        for i, (state, note) in enumerate(asked, 1):
            render.say(console, f"\nquestion {i} of {len(asked)}" + (f" ({note})" if note else ""), "bold")
            render.board(console, family.board(state, names))
            render.say(console, f"{state.brief()}: {state}")
            mover = seat_on_turn(state)
            to_move = ["you" if seat == mover else name for seat, name in enumerate(names)]
            step, hinted = _read_move(state, family.scene(state, to_move, mover).prompt, console, ask, solution)
            judged = judge_answer(solution, state, str(step))
            best, loss, unit = judged.best, judged.mine.cost, judged.advice.unit
            if hinted:  # the answer was shown: judged, not counted
                render.say(console, f"{judged.label} (after a hint: not counted)", "green" if not judged.wrong
                           else "yellow")
                continue
            losses.append(loss)
            answered.append(state)
            from_deck, fresh = (from_deck + 1, fresh) if note else (from_deck, fresh + 1)
            record.answered(str(state), loss, judged.wrong, solution.tie)
            record.save_deck(game)
            if not judged.wrong:
                render.say(console, _right(solution, state, judged.advice), "green")
                continue
            render.say(console, f"{judged.label}: {judged.mine.action} costs {render.fmt(loss, unit)} "
                                f"({unit_words}); the best is {best.action} ({render.fmt(best.value, unit)})",
                       "yellow")
            _why(console, solution, state, str(step), judged.advice)
    except StopTraining:
        pass
    if not losses:
        return None
    result = session_result(solution, answered, losses, session_source(from_deck, fresh))
    record.add_session(game, result)
    summary(console, record, result)
    return result


def _right(solution: SolvedGame, state: State, advice) -> str:
    """A right answer: the best option's value, its margin over the second, and where the judge has them, the
    spread of the final score after each (as Verhoeff's test shows them)."""
    best = advice.options[0]
    said = f"best: {best.action} ({render.fmt(best.value, advice.unit)})"
    if len(advice.options) < 2:
        return said
    second = advice.options[1]
    said += f", {render.fmt(second.cost, advice.unit)} ahead of {second.action}"
    if solution.explains and advice.unit == "points":
        why = solution.explain(state)
        sd = {o.action: o.sd for o in why.options}
        said += f" (sd {sd[best.action]:.2f} against {sd[second.action]:.2f})"
    return said


def _read_move(state: State, prompt: str, console: Console, ask: Callable[[str], str], solution: SolvedGame
               ) -> tuple[object, bool]:
    """The move typed, and whether a hint was asked for first ('hint': the best three options)."""
    hinted = False
    while True:
        text = ask(prompt)
        if text.strip().lower() in QUIT:
            raise StopTraining
        if text.strip().lower() in HINT:
            console.print(render.options_table(solution.advise(state), 3, title="hint: the best three (this answer "
                                                                                 "will not count)"))
            hinted = True
            continue
        try:
            return state.parse_step(text), hinted
        except InputError as exc:
            render.say(console, str(exc), "red")


def _why(console: Console, solution: SolvedGame, state: State, chosen: str, advice) -> None:
    """Why the best beats the move made, in one sentence (its main reason, with the chances where it has
    them), with the spread of the final score after each where the judge has it; else the best few options
    with their values."""
    if solution.explains:
        why = solution.explain(state, versus=chosen)
        render.say(console, why.reason or why.summary + ".")
        if why.unit == "points" and why.best is not None:
            sd = {o.action: o.sd for o in why.options}
            render.say(console, f"sd of the final score: {sd[why.best]:.2f} after {why.best}, "
                                f"{sd.get(str(why.versus), 0.0):.2f} after yours")
        return
    console.print(render.options_table(advice, 3))


def summary(console: Console, record: TrainingRecord, result: SessionResult) -> None:
    """This session's proficiency, beside the last few (trainer sessions and reviewed games alike)."""
    labels = ", ".join(f"{v} {k}" for k, v in sorted(result.labels.items(), key=lambda kv: -kv[1]))
    render.say(console, f"\n{result.decisions} decisions: a mean loss of {result.mean_loss:.3f} a decision ({labels}).",
               "bold")
    if result.rating:
        render.say(console, f"rating: {result.rating} (as {result.compared:.3f} a decision over a whole game's "
                            f"decisions; see dicesolver rating {result.game})", "bold")
    else:
        render.say(console, f"no rating yet: dicesolver rating {result.game} places this game's scale by its bots "
                            "(once; cached)")
    table = history_table(record.sessions[-8:])
    console.print(table)
    render.say(console, f"{len(record.mistakes)} position{'s' if len(record.mistakes) != 1 else ''} in your deck "
                        "of mistakes (each asked again until answered right twice).")


def history_table(sessions: list[SessionResult]) -> Table:
    table = Table(title="proficiency: mean loss per decision (lower is better); compared: as over a whole game's")
    for col in ("when", "from", "decisions", "mean loss", "compared", "rating", "labels"):
        table.add_column(col, justify="right" if col in ("decisions", "mean loss", "compared") else "left")
    for s in sessions:
        table.add_row(s.when, s.source, str(s.decisions), f"{s.mean_loss:.3f}",
                      "" if s.compared is None else f"{s.compared:.3f}", s.rating,
                      ", ".join(f"{v} {k}" for k, v in sorted(s.labels.items(), key=lambda kv: -kv[1])))
    return table
