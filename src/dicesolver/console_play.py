"""Interactive solitaire play in the terminal (the front end behind ``dicesolver play``).

Every throw, keep and score is appended to a game record as it happens (see ``games.records``), so a
game killed at any moment resumes with ``--resume`` exactly where it stopped, with the same dice.

Dice: by default drawn from the game's seed, one fixed draw per (turn, throw), so resuming or undoing
never changes what the dice will show. With ``--manual-dice`` you type the dice you rolled at a real
table (coach mode). Undo: in coach mode any step may be taken back (the dice are yours); with drawn dice
only a score, before the next turn's dice are thrown (taking back a keep after seeing the throw would
be peeking).
"""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Callable

import platformdirs
from rich.console import Console
from rich.table import Table

from .analysis.advice import advise
from .analysis.review import review
from .dice import format_dice, parse_dice, seeded_dice
from .errors import InputError
from .games import ScorecardGame
from .games.position import Position, after_roll, after_score
from .games.records import Event, GameRecord, RecordWriter, read_record, replay
from .solvers.solitaire import SolitaireSolution

HELP = ("commands: a keep like 113 (or 'none'), 'all' to stand, a category name to score now, "
        "'hint', 'card', 'undo', 'quit'")


class QuitGame(Exception):
    """The player asked to stop (the game is saved)."""


def games_dir() -> Path:
    return Path(platformdirs.user_data_dir("dicesolver")) / "games"


def latest_unfinished(game: ScorecardGame, folder: Path | None = None) -> Path | None:
    folder = folder or games_dir()
    candidates = sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True) if folder.exists() else []
    for path in candidates:
        try:
            record = read_record(path)
        except InputError:
            continue
        if record.game.canonical == game.canonical and not record.is_over():
            return path
    return None


class TerminalGame:
    def __init__(self, game: ScorecardGame, solution: SolitaireSolution, writer: RecordWriter, console: Console,
                 ask: Callable[[str], str]):
        self.game = game
        self.solution = solution
        self.writer = writer
        self.record = writer.record
        self.console = console
        self.ask = ask

    # -- state ------------------------------------------------------------------------------------
    def position(self) -> tuple[Position, tuple | None]:
        """The position now, and the dice held if a keep awaits its throw."""
        positions, _ = replay(self.record)
        held = None
        if self.record.events and self.record.events[-1].type == "keep":
            held = self.record.events[-1].keep
        return positions[0], held

    def turn(self, pos: Position) -> int:
        return sum(v is not None for v in pos.boxes) + 1

    # -- display ----------------------------------------------------------------------------------
    def show_card(self, pos: Position) -> None:
        g = self.game
        table = Table(title=f"{g.title} ({g.canonical})", show_header=False, box=None, padding=(0, 2))
        table.add_column("box")
        table.add_column("points", justify="right")
        for c, cat in enumerate(g.categories):
            v = pos.boxes[c]
            table.add_row(cat.name, "·" if v is None else str(v), style=None if v is None else "bold")
            if c == max((i for i, k in enumerate(g.categories) if k.is_upper), default=-1) and g.has_upper_bonus:
                up = pos.upper_total(g)
                got = up >= g.upper_threshold
                table.add_row(f"[dim]upper {up}/{g.upper_threshold}[/]", f"[dim]+{g.upper_points if got else 0}[/]")
        if pos.extra_bonus:
            table.add_row("extra bonus", str(pos.extra_bonus))
        table.add_row("[bold]total[/]", f"[bold]{pos.total(g)}[/]")
        self.console.print(table)

    def show_hint(self, pos: Position, top: int = 5) -> None:
        advice = advise(self.solution, pos)
        table = Table(title="best options (expected final score)")
        table.add_column("option")
        table.add_column("value", justify="right")
        table.add_column("cost", justify="right")
        for o in advice.options[:top]:
            name = (f"keep {'nothing' if o.option == '-' else o.option}" if o.kind == "keep" else f"score {o.option} ({o.points})")
            table.add_row(name, f"{o.value:.2f}", f"{o.cost:.2f}")
        self.console.print(table)

    # -- moves ------------------------------------------------------------------------------------
    def throw(self, pos: Position, held: tuple | None) -> None:
        g = self.game
        kept = held or ()
        count = g.n_dice - len(kept)
        throw_no = g.rolls - pos.rolls_left + 1
        if self.record.manual_dice:
            while True:
                what = "the dice you rolled" if not kept else f"the {count} dice you threw (holding {format_dice(kept, g.faces)})"
                text = self.ask(f"{what}: ")
                if text.strip().lower() in ("quit", "q", "exit"):
                    raise QuitGame
                if text.strip().lower() in ("undo", "u"):
                    self.undo()
                    return
                try:
                    thrown = parse_dice(text, g.faces)
                    if len(thrown) != count:
                        raise InputError(f"type {count} dice, not {len(thrown)}")
                    break
                except InputError as exc:
                    self.console.print(f"[red]{exc}[/]")
        else:
            thrown = seeded_dice(self.record.seed, (0, self.turn(pos), throw_no), count, g.faces)
        dice = tuple(sorted(kept + thrown))
        self.writer.append(Event("roll", 0, self.turn(pos), dice=dice))

    def undo(self) -> None:
        events = self.record.events
        if not events:
            self.console.print("[yellow]nothing to undo[/]")
            return
        if not self.record.manual_dice and events[-1].type != "score":
            self.console.print("[yellow]with drawn dice only a score can be taken back, before the next throw[/]")
            return
        events.pop()
        self.writer.rewrite()
        self.console.print("[green]undone[/]")

    def try_category(self, pos: Position, text: str) -> bool:
        try:
            c = self.game.category_index(text)
        except InputError:
            return False
        try:
            new = after_score(self.game, pos, c)
        except InputError as exc:
            self.console.print(f"[red]{exc}[/]")
            return True
        self.writer.append(Event("score", 0, self.turn(pos), category=c, points=new.boxes[c]))
        self.console.print(f"scored {new.boxes[c]} in {self.game.categories[c].name}")
        return True

    def command(self, pos: Position, text: str) -> bool:
        word = text.strip().lower()
        if word in ("quit", "q", "exit"):
            raise QuitGame
        if word in ("hint", "h", "?"):
            self.show_hint(pos)
            return True
        if word in ("card", "scorecard"):
            self.show_card(pos)
            return True
        if word in ("undo", "u"):
            self.undo()
            return True
        if word in ("help",):
            self.console.print(HELP)
            return True
        return False

    def decide(self, pos: Position, standing: bool) -> bool:
        """One prompt at a position with dice showing; returns True when the player chose to stand."""
        g = self.game
        dice = format_dice(pos.dice, g.faces)
        if pos.rolls_left > 0 and not standing:
            text = self.ask(f"[{dice}] {pos.rolls_left} throw{'s' if pos.rolls_left > 1 else ''} left - keep? ")
            if self.command(pos, text):
                return False
            word = text.strip().lower()
            if word in ("all", "stand", "keep all"):
                return True
            try:
                keep = g.dice.parse_keep(text, roll=pos.dice)
            except InputError as exc:
                if not any(ch.isdigit() for ch in word) and word not in ("none", "-") and self.try_category(pos, text):
                    return False
                self.console.print(f"[red]{exc}[/]  ({HELP})")
                return False
            if len(keep) == g.n_dice:
                return True
            self.writer.append(Event("keep", 0, self.turn(pos), keep=keep))
            return False
        text = self.ask(f"[{dice}] score in which box? ")
        if self.command(pos, text):
            return standing
        if not self.try_category(pos, text):
            self.console.print(f"[red]{text.strip()!r} is not an open box[/] (boxes: "
                               + ", ".join(c.name for c, v in zip(g.categories, pos.boxes) if v is None) + ")")
        return standing

    def run(self) -> None:
        standing = False
        shown_turn = -1
        while True:
            pos, held = self.position()
            if pos.is_over():
                break
            if pos.dice is None or held is not None:
                if pos.dice is None and shown_turn != self.turn(pos):
                    self.show_card(pos)
                    shown_turn = self.turn(pos)
                    if self.record.events and not self.record.manual_dice:
                        text = self.ask("Enter to throw ('undo' takes back the score, 'quit' stops): ")
                        if self.command(pos, text):
                            shown_turn = -1
                            continue
                        if text.strip().lower() not in ("", "roll", "r", "throw"):
                            self.console.print(f"[red]{text.strip()!r}: press Enter to throw[/] ({HELP})")
                            shown_turn = -1
                            continue
                self.throw(pos, held)
                standing = False
                continue
            standing = self.decide(pos, standing)
        pos, _ = self.position()
        self.show_card(pos)
        self.console.print(f"[bold]Game over: {pos.total(self.game)} points.[/]")


def play(game: ScorecardGame, solution: SolitaireSolution, console: Console, ask: Callable[[str], str],
         seed: int | None = None, manual_dice: bool = False, resume: bool = False,
         record_path: str | None = None):
    """Play (or resume) a game in the terminal; returns (record, review, path).

    Raises QuitGame (carrying the record's path) when the player stops; the game is saved either way.
    """
    if resume:
        path = Path(record_path) if record_path else latest_unfinished(game)
        if path is None:
            raise InputError(f"no unfinished {game.canonical} game to resume in {games_dir()}")
        warnings: list[str] = []
        record = read_record(path, warnings)
        for w in warnings:
            console.print(f"[yellow]warning:[/] {w}")
        if record.game.canonical != game.canonical:
            raise InputError(f"{path} is a game of {record.game.canonical}, not {game.canonical}")
        writer = RecordWriter(path, record, resume=True)
        console.print(f"resuming {path}")
    else:
        if seed is None:
            seed = secrets.randbits(31)
        path = Path(record_path) if record_path else games_dir() / f"{game.name}-{time.strftime('%Y%m%d-%H%M%S')}-{seed}.jsonl"
        if path.exists():
            raise InputError(f"{path} exists already (use --resume to continue it)")
        record = GameRecord(game, ["you"], seed, manual_dice)
        writer = RecordWriter(path, record)
        console.print(f"recording to {path} (seed {seed}); {HELP}")
    try:
        TerminalGame(game, solution, writer, console, ask).run()
    except QuitGame:
        raise QuitGame(str(path)) from None
    result = review(solution, record)
    return record, result, path
