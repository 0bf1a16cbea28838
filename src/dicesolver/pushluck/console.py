"""Push-your-luck games in the terminal (the front end behind ``dicesolver play pig|skunk|big-pig``).

You against a bot (optimal, hold-at-N, keep-pace). Every throw and hold is appended to the record as
it happens, so a game killed at any moment resumes with ``--resume`` where it stopped; drawn dice are
fixed by (seed, event number), so a resumed game throws what it would have thrown. With
``--manual-dice`` you type the dice you threw at a real table.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Callable

from rich.console import Console

from ..core.dice import seeded_dice
from ..core.errors import InputError
from ..scorecard.console import QuitGame, new_record_path, resume_record
from .players import PushPlayer, make_push_player
from .records import PushEvent, PushRecord, PushRecordWriter
from .review import PushReview, push_review
from .rules import ADD, BUST, PushGame, format_throw, parse_throw
from .solver import PushSolution

HELP = "commands: t (throw), h (hold), hint, score, quit"
THROW_WORDS = {"t", "throw", "r", "roll", "go"}
HOLD_WORDS = {"h", "hold", "b", "bank", "stop"}


class PushTerminalGame:
    def __init__(self, solution: PushSolution, writer: PushRecordWriter, bot: PushPlayer, console: Console,
                 ask: Callable[[str], str]):
        self.solution = solution
        self.game = solution.game
        self.writer = writer
        self.record = writer.record
        self.bot = bot
        self.console = console
        self.ask = ask
        self.human = 0

    def state(self):
        return self.record.state()

    def show_score(self) -> None:
        s = self.state()
        names = self.record.players
        you = self.solution.win(s.scores[0], s.scores[1]) if s.mover == 0 else 1 - self.solution.win(s.scores[1], s.scores[0])
        self.console.print(f"[bold]{names[0]} {s.scores[0]}[/] · {names[1]} {s.scores[1]} (goal {self.game.goal}); "
                           f"your chance at the start of this turn {100 * you:.1f}%", highlight=False)

    def show_hint(self) -> None:
        s = self.state()
        throw = self.solution.roll_value(s.mine, s.theirs, s.turn_total)
        hold = self.solution.hold_value(s.mine, s.theirs, s.turn_total)
        best = "throw" if throw > hold else "hold"
        cost = abs(throw - hold)
        self.console.print(f"throw: {100 * throw:.2f}% · hold: {100 * hold:.2f}% to win → [bold]{best}[/] "
                           f"(the other costs {100 * cost:.2f} points of probability)", highlight=False)
        stops = self.solution.thresholds(s.mine, s.theirs)
        self.console.print(f"this turn's plan: stop/go turn totals {' '.join(map(str, stops)) or '-'}", highlight=False)

    def throw(self, seat: int) -> None:
        s = self.state()
        if self.record.manual_dice and seat == self.human:
            while True:
                text = self.ask("the dice you threw: ").strip()
                if text.lower() in ("quit", "q", "exit"):
                    raise QuitGame
                try:
                    dice = parse_throw(text, self.game)
                    break
                except InputError as exc:
                    self.console.print(f"[red]{exc}[/]")
        else:
            dice = seeded_dice(self.record.seed or 0, (len(self.record.events), 5), self.game.n_dice, self.game.faces)
        self.writer.append(PushEvent("roll", seat, tuple(dice)))
        after = self.state()
        kind, points = self.game.effect(tuple(dice))
        name = "you" if seat == self.human else self.record.players[seat]
        if after.winner is not None:
            what = f"+{points}: {after.scores[seat]} reaches the goal"
        elif kind == ADD:
            what = f"+{points} (turn total {after.turn_total})"
        elif kind == BUST:
            what = f"a 1: the turn total of {s.turn_total} is lost"
        else:
            what = f"double 1s: the turn total and the banked {s.mine} are lost"
        self.console.print(f"{name} throw{'s' if seat != self.human else ''} {format_throw(dice)}: {what}", highlight=False)

    def hold(self, seat: int) -> None:
        s = self.state()
        self.writer.append(PushEvent("hold", seat))
        name = "you hold" if seat == self.human else f"{self.record.players[seat]} holds"
        self.console.print(f"{name}: {s.mine} + {s.turn_total} = {s.mine + s.turn_total}", highlight=False)

    def bot_turn(self, seat: int) -> None:
        while self.state().winner is None and self.state().mover == seat:
            s = self.state()
            if self.bot.throws(s.mine, s.theirs, s.turn_total):
                self.throw(seat)
            else:
                self.hold(seat)

    def human_step(self) -> None:
        s = self.state()
        if s.turn_total == 0:
            self.throw(self.human)
            return
        text = self.ask(f"turn total {s.turn_total} (bank → {s.mine + s.turn_total}): throw or hold? ").strip().lower()
        if text in THROW_WORDS:
            self.throw(self.human)
        elif text in HOLD_WORDS:
            self.hold(self.human)
        elif text in ("hint", "?"):
            self.show_hint()
        elif text in ("score", "s"):
            self.show_score()
        elif text in ("quit", "q", "exit"):
            raise QuitGame
        else:
            self.console.print(f"[red]unknown command {text!r}[/]; {HELP}")

    def run(self) -> None:
        last_turn = None
        while (s := self.state()).winner is None:
            if s.turn != last_turn:
                last_turn = s.turn
                self.show_score()
            if s.mover == self.human:
                self.human_step()
            else:
                self.bot_turn(s.mover)
        s = self.state()
        winner = "you win" if s.winner == self.human else f"{self.record.players[s.winner]} wins"
        self.console.print(f"[bold]{winner}[/], {s.scores[0]} to {s.scores[1]}")


def play_push(game: PushGame, solution: PushSolution, console: Console, ask: Callable[[str], str],
              seed: int | None = None, manual_dice: bool = False, resume: bool = False, record_path: str | None = None,
              opponent: str | None = None, first: str = "random") -> tuple[PushRecord, PushReview, Path]:
    """Play (or resume) a push-your-luck game against a bot; returns (record, review, path).
    Raises QuitGame (carrying the record's path) when the player stops; the game is saved either way."""
    if resume:
        path, record = resume_record(game, record_path, console)
        writer = PushRecordWriter(path, record, resume=True)
        console.print(f"resuming {path}")
    else:
        if seed is None:
            seed = secrets.randbits(31)
        name = (opponent or "optimal").strip().lower()
        bot = make_push_player(name, game, solution)  # unknown names fail before anything is written
        first_key = first.strip().lower()
        if first_key not in ("you", "bot", "random"):
            raise InputError(f"--first takes you, bot or random, not {first!r}")
        seat = {"you": 0, "bot": 1}.get(first_key)
        if seat is None:
            seat = seeded_dice(seed, (9, 9, 9), 1, 2)[0] - 1
        path = new_record_path(game, seed, record_path)
        record = PushRecord(game, ["you", bot.name], seed, seat, manual_dice)
        writer = PushRecordWriter(path, record)
        console.print(f"recording to {path} (seed {seed}); {HELP}", highlight=False)
    bot = make_push_player(record.players[1], game, solution)
    console.print(f"you play {game.title} against {bot.name}; {record.players[record.first]} moved first")
    try:
        PushTerminalGame(solution, writer, bot, console, ask).run()
    except QuitGame:
        raise QuitGame(str(path)) from None
    return record, push_review(solution, record, player=0), path
