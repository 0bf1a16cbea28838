"""Despirala in the terminal (the front end behind ``dicesolver play despirala``).

You (and bots: optimal, competitive, mc-N) take turns; moves are typed in the seed's move language
(``Collect 3``, ``Three pairs 3 5 6``, ``Reroll``, ``Continue``, ``Stop``, ``List`` ...). Every event is
appended to the record as it happens, so a game killed at any moment resumes with ``--resume``. Dice are
drawn from (seed, event number), so a resumed game throws what it would have thrown; with ``--manual-dice``
you type your six dice, how many rethrows a completion took (or ``failed``), and your hits when collecting.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Callable

import numpy as np
from rich.console import Console
from rich.table import Table

from ..core.errors import InputError
from ..scorecard.console import QuitGame, new_record_path, resume_record
from .players import make_despirala_player
from .records import DespiralaRecord, DespiralaRecordWriter
from .review import DespiralaReview, despirala_review
from .rules import COMBINATIONS, DespiralaGame, format_throw, parse_move, parse_throw
from .solver import DespiralaSolution, turn_options
from .state import (
    COLLECT,
    COMPLETE,
    DECIDE,
    HITS,
    THROW,
    DespiralaState,
    Event,
    apply,
    check_move,
    draw_event,
    legal_moves,
    parse_manual_completion,
    parse_manual_hits,
)

HELP = "type a move (e.g. Collect 3, Three pairs 2 4 6, Straight, Reroll), or List, hint, score, quit"
QUIT_WORDS = {"quit", "q", "exit"}


def describe(record: DespiralaRecord, before: DespiralaState, event: Event, after: DespiralaState) -> str:
    """One line telling what an event did (for the console and for ``dicesolver replay``)."""
    name = record.players[event.player]
    seat_after = after.seats[event.player]

    def does(verb: str) -> str:
        return f"{name} {verb}" if name == "you" else f"{name} {verb}s"

    if event.type == "throw":
        return f"{does('throw')} {format_throw(event.dice)}"
    if event.type == "hits":
        face = COMBINATIONS[before.combination].collect_face()
        dice = f" ({format_throw(event.dice)})" if event.dice else ""
        return f"{does('rethrow')}{dice}: {event.hits} more {face}{'s' if event.hits != 1 else ''}, {after.have} collected"
    if event.type == "completion":
        combo = COMBINATIONS[before.combination]
        rolls = f" ({', '.join(format_throw(r) for r in event.rolls)})" if event.rolls else ""
        if event.completed:
            pts = combo.target(before.args)[1]
            return (f"{does('complete')} {combo.name} in {event.rethrows} rethrow{'s' if event.rethrows != 1 else ''}"
                    f"{rolls}: +{pts} (points {seat_after.points}, goods {seat_after.goods})")
        return f"{does('fail')} {combo.name}{rolls}: 0 points and every good lost (points {seat_after.points})"
    move = event.move
    if move.kind == "reroll":
        return f"{does('reroll')} (goods {after.seats[event.player].goods})"
    if move.kind == "continue":
        return f"{does('continue')} collecting (goods {after.seats[event.player].goods})"
    if move.kind == "stop":
        face = COMBINATIONS[before.combination].collect_face()
        return f"{does('stop')} with {before.have} × {face}: +{face * before.have} (points {seat_after.points})"
    combo = COMBINATIONS[move.combination]
    if after.phase == COMPLETE or after.phase == COLLECT:
        extra = (f": {after.have} collected" if after.phase == COLLECT else
                 f": missing {format_throw(after.target_missing())}")
        return f"{does('pick')} {move.text()}{extra}"
    return f"{does('score')} {move.text()} at once: +{combo.target(move.args)[1]} (points {seat_after.points})"


class DespiralaTerminalGame:
    def __init__(self, solution: DespiralaSolution, writer: DespiralaRecordWriter, bots: dict, console: Console,
                 ask: Callable[[str], str]):
        self.solution = solution
        self.game = writer.record.game
        self.writer = writer
        self.record = writer.record
        self.bots = bots
        self.console = console
        self.ask = ask

    def state(self) -> DespiralaState:
        return self.record.state()

    def add(self, event: Event) -> None:
        before = self.state()
        self.writer.append(event)
        self.console.print(describe(self.record, before, event, self.state()), highlight=False)

    def show_score(self) -> None:
        state = self.state()
        table = Table(title=f"round {state.round} of 14")
        for col in ("player", "points", "goods", "combinations left"):
            table.add_column(col, justify="left" if col in ("player", "combinations left") else "right")
        for i, seat in enumerate(state.seats):
            left = ", ".join(c.name for c in COMBINATIONS if seat.free & (1 << c.index))
            table.add_row(self.record.players[i], str(seat.points), str(seat.goods), left or "-",
                          style="bold" if i == state.mover else None)
        self.console.print(table)

    def show_list(self) -> None:
        moves = legal_moves(self.game, self.state())
        self.console.print("legal moves: " + ", ".join(m.text() for m in moves
                                                     if m.kind != "pick" or not COMBINATIONS[m.combination].n_args))
        with_args = sorted({COMBINATIONS[m.combination].name for m in moves if m.kind == "pick"
                            and COMBINATIONS[m.combination].n_args})
        if with_args:
            self.console.print("with faces: " + ", ".join(f"{n} X" + (" Y Z" if n == "Three pairs" else " Y" if n == "Two triples" else "")
                                                          for n in with_args), highlight=False)

    def show_hint(self) -> None:
        state = self.state()
        seat = state.seat
        if state.phase == DECIDE:
            options = [(m.text(), v) for m, v in turn_options(self.solution, seat.free, seat.goods, state.dice)]
        else:
            from .review import _collect_state_values

            values = _collect_state_values(self.solution, state)
            options = sorted(((k.capitalize(), v) for k, v in values.items()),
                             key=lambda o: -o[1] if self.game.mode == "normal" else o[1])
        best = options[0][1]
        shown = ", ".join(f"{m} {seat.points + v:.1f}" + (f" (-{abs(best - v):.2f})" if m != options[0][0] else "")
                          for m, v in options[:5])
        self.console.print(f"expected final score: {shown}", highlight=False)

    def chance(self, state: DespiralaState) -> None:
        p = state.mover
        if self.record.manual_dice and p not in self.bots:
            self.add(self.manual_chance(state))
            return
        rng = np.random.default_rng([self.record.seed or 0, len(self.record.events)])
        self.add(draw_event(state, rng))

    def manual_chance(self, state: DespiralaState) -> Event:
        p = state.mover
        while True:
            if state.phase == THROW:
                prompt = "the six dice you threw: "
            elif state.phase == COMPLETE:
                prompt = (f"rethrows it took to complete (missing {format_throw(state.target_missing())}; 1-{state.seat.goods}),"
                          f" or 'failed': ")
            else:
                face = COMBINATIONS[state.combination].collect_face()
                prompt = f"how many of the {6 - state.have} rethrown dice show {face}? "
            text = self.ask(prompt).strip()
            if text.lower() in QUIT_WORDS:
                raise QuitGame
            try:
                if state.phase == THROW:
                    event = Event("throw", p, dice=parse_throw(text))
                elif state.phase == COMPLETE:
                    event = parse_manual_completion(text, p, state.seat.goods)
                else:
                    event = parse_manual_hits(text, p, state)
                apply(self.game, state, event)  # checked before it is written
                return event
            except InputError as exc:
                self.console.print(f"[red]{exc}[/]")

    def human_move(self, state: DespiralaState) -> None:
        seat = state.seat
        where = (f"collecting {COMBINATIONS[state.combination].collect_face()}s: {state.have}"
                 if state.phase == COLLECT else f"dice {format_throw(state.dice)}")
        text = self.ask(f"{self.record.players[state.mover]} ({where}, goods {seat.goods}): ").strip()
        low = text.lower()
        if low in QUIT_WORDS:
            raise QuitGame
        if low in ("hint", "?"):
            self.show_hint()
            return
        if low in ("score", "s"):
            self.show_score()
            return
        if low in ("help", "h"):
            self.console.print(HELP)
            return
        try:
            move = parse_move(text)
            if move.kind == "list":
                self.show_list()
                return
            check_move(self.game, state, move)
        except InputError as exc:
            self.console.print(f"[red]{exc}[/]")
            return
        self.add(Event("move", state.mover, move=move))

    def run(self) -> None:
        announced = None
        while not (state := self.state()).over:
            if state.phase == THROW and announced != (state.round, state.mover):
                announced = (state.round, state.mover)
                seat = state.seat
                self.console.print(f"[bold]round {state.round}[/] · {self.record.players[state.mover]}: "
                                   f"{seat.points} points, {seat.goods} goods", highlight=False)
            if state.phase in (THROW, COMPLETE, HITS):
                self.chance(state)
            elif state.mover in self.bots:
                self.add(Event("move", state.mover, move=self.bots[state.mover].choose(self.game, state)))
            else:
                self.human_move(state)
        state = self.state()
        finals = [s.final for s in state.seats]
        order = sorted(range(len(finals)), key=lambda i: -finals[i] if self.game.mode == "normal" else finals[i])
        self.console.print("[bold]final scores[/]: " + ", ".join(f"{self.record.players[i]} {finals[i]}" for i in order))


def _bots(record: DespiralaRecord, game: DespiralaGame, solution: DespiralaSolution) -> dict:
    return {i: make_despirala_player(s, game, solution, seed=record.seed or 0)
            for i, s in enumerate(record.strategies) if s is not None}


def play_despirala(game: DespiralaGame, solution: DespiralaSolution, console: Console, ask: Callable[[str], str],
                   seed: int | None = None, manual_dice: bool = False, resume: bool = False,
                   record_path: str | None = None, opponents: list[str] | None = None, first: str = "you",
                   ) -> tuple[DespiralaRecord, DespiralaReview, Path]:
    """Play (or resume) a game of Despirala; returns (record, your review, path). Raises QuitGame (with the
    record's path) when you stop; the game is saved either way."""
    if resume:
        path, record = resume_record(game, record_path, console)
        writer = DespiralaRecordWriter(path, record, resume=True)
        console.print(f"resuming {path}")
    else:
        if seed is None:
            seed = secrets.randbits(31)
        names = [o.strip().lower() for o in (opponents or [])]
        if len(names) > 5:
            raise InputError("at most 5 bots (6 players)")
        strategies = [make_despirala_player(n, game, solution, seed=seed).name for n in names]  # bad names fail here
        first_key = first.strip().lower()
        if first_key not in ("you", "bot", "random"):
            raise InputError(f"--first takes you, bot or random, not {first!r}")
        seats: list[str | None] = [None] + strategies
        if strategies and (first_key == "bot" or (first_key == "random" and np.random.default_rng([seed, 99]).integers(2))):
            seats = strategies[:1] + [None] + strategies[1:]
        players, seen = [], {}
        for s in seats:
            base = "you" if s is None else s
            seen[base] = seen.get(base, 0) + 1
            players.append(base if seen[base] == 1 else f"{base} {seen[base]}")
        path = new_record_path(game, seed, record_path)
        record = DespiralaRecord(game, players, seats, seed, manual_dice)
        writer = DespiralaRecordWriter(path, record)
        console.print(f"recording to {path} (seed {seed}); {HELP}", highlight=False)
    bots = _bots(record, game, solution)
    console.print(f"{game.title} ({game.mode}): " + ", ".join(record.players), highlight=False)
    try:
        DespiralaTerminalGame(solution, writer, bots, console, ask).run()
    except QuitGame:
        raise QuitGame(str(path)) from None
    human = next((i for i, s in enumerate(record.strategies) if s is None), 0)
    return record, despirala_review(solution, record, human), path
