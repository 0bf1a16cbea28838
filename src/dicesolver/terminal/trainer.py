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
from ..core.training import SessionResult, TrainingRecord, judge_answer, questions, session_result
from . import render

QUIT = {"quit", "q", "exit", "stop"}


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
    unit_words = solution.unit_words
    try:
        for i, (state, note) in enumerate(asked, 1):
            render.say(console, f"\nquestion {i} of {len(asked)}" + (f" ({note})" if note else ""), "bold")
            render.board(console, family.board(state, names))
            render.say(console, f"{state.brief()}: {state}")
            mover = seat_on_turn(state)
            to_move = ["you" if seat == mover else name for seat, name in enumerate(names)]
            step = _read_move(state, family.scene(state, to_move, mover).prompt, console, ask)
            judged = judge_answer(solution, state, str(step))
            best, loss, unit = judged.best, judged.mine.cost, judged.advice.unit
            losses.append(loss)
            record.answered(str(state), loss, judged.wrong, solution.tie)
            record.save_deck(game)
            if not judged.wrong:
                render.say(console, f"best: {best.action} ({render.fmt(best.value, unit)})", "green")
                continue
            render.say(console, f"{judged.label}: {judged.mine.action} costs {render.fmt(loss, unit)} "
                                f"({unit_words}); the best is {best.action} ({render.fmt(best.value, unit)})",
                       "yellow")
            _why(console, solution, state, str(step), judged.advice)
    except StopTraining:
        pass
    if not losses:
        return None
    result = session_result(game, solution.unit, losses, solution.tie)
    record.add_session(game, result)
    summary(console, record, result)
    return result


def _read_move(state: State, prompt: str, console: Console, ask: Callable[[str], str]):
    while True:
        text = ask(prompt)
        if text.strip().lower() in QUIT:
            raise StopTraining
        try:
            return state.parse_step(text)
        except InputError as exc:
            render.say(console, str(exc), "red")


def _why(console: Console, solution: SolvedGame, state: State, chosen: str, advice) -> None:
    """Why the best beats the move made: aspect by aspect where the judge splits its values, else the best
    few options with their values."""
    if solution.explains:
        why = solution.explain(state, versus=chosen)
        render.say(console, why.summary + ".")
        return
    console.print(render.options_table(advice, 3))


def summary(console: Console, record: TrainingRecord, result: SessionResult) -> None:
    """This session's proficiency, beside the last few (trainer sessions and reviewed games alike)."""
    labels = ", ".join(f"{v} {k}" for k, v in sorted(result.labels.items(), key=lambda kv: -kv[1]))
    render.say(console, f"\n{result.decisions} decisions: a mean loss of {result.mean_loss:.3f} a decision ({labels}).",
               "bold")
    table = history_table(record.sessions[-8:])
    console.print(table)
    render.say(console, f"{len(record.mistakes)} position{'s' if len(record.mistakes) != 1 else ''} in your deck "
                        "of mistakes (each asked again until answered right twice).")


def history_table(sessions: list[SessionResult]) -> Table:
    table = Table(title="proficiency: mean loss per decision (lower is better)")
    for col in ("when", "from", "decisions", "mean loss", "labels"):
        table.add_column(col, justify="right" if col in ("decisions", "mean loss") else "left")
    for s in sessions:
        table.add_row(s.when, s.source, str(s.decisions), f"{s.mean_loss:.3f}",
                      ", ".join(f"{v} {k}" for k, v in sorted(s.labels.items(), key=lambda kv: -kv[1])))
    return table
