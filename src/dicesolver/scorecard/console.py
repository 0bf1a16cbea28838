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

from ..core.dice import format_dice, parse_dice, seeded_dice
from ..core.errors import InputError
from ..registry import read_any_record
from .advice import advise
from .position import Position, after_score
from .records import Event, GameRecord, RecordWriter, replay
from .review import review
from .rules import ScorecardGame
from .solitaire import SolitaireSolution

HELP = ("commands: a keep like 113 (or 'none'), 'all' to stand, a category name to score now, "
        "'hint', 'card', 'undo', 'quit'")


class QuitGame(Exception):
    """The player asked to stop (the game is saved)."""


def games_dir() -> Path:
    return Path(platformdirs.user_data_dir("dicesolver")) / "games"


def latest_unfinished(game, folder: Path | None = None) -> Path | None:
    """The most recently changed unfinished record of ``game`` (any kind of game) in the games folder."""
    folder = folder or games_dir()
    candidates = sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True) if folder.exists() else []
    for path in candidates:
        try:
            record = read_any_record(path)
        except InputError:
            continue
        if record.game.canonical == game.canonical and not record.is_over():
            return path
    return None


def resume_record(game, record_path: str | None, console: Console):
    """(path, record) of the game to resume: the given record file or the latest unfinished one."""
    path = Path(record_path) if record_path else latest_unfinished(game)
    if path is None:
        raise InputError(f"no unfinished {game.canonical} game to resume in {games_dir()}")
    warnings: list[str] = []
    record = read_any_record(path, warnings)
    for w in warnings:
        console.print(f"[yellow]warning:[/] {w}")
    if record.game.canonical != game.canonical:
        raise InputError(f"{path} is a game of {record.game.canonical}, not {game.canonical}")
    return path, record


def new_record_path(game, seed: int, record_path: str | None) -> Path:
    path = Path(record_path) if record_path else games_dir() / f"{game.name}-{time.strftime('%Y%m%d-%H%M%S')}-{seed}.jsonl"
    if path.exists():
        raise InputError(f"{path} exists already (use --resume to continue it)")
    return path


class TerminalGame:
    """A game at the terminal: one human seat, and bots (``Player`` objects) in the other seats."""

    def __init__(self, game: ScorecardGame, solution: SolitaireSolution, writer: RecordWriter, console: Console,
                 ask: Callable[[str], str], bots: dict | None = None, duel=None):
        self.game = game
        self.solution = solution
        self.writer = writer
        self.record = writer.record
        self.console = console
        self.ask = ask
        self.bots = bots or {}
        self.human = next(i for i in range(len(self.record.players)) if i not in self.bots)
        self.duel = duel  # the two-player equity table, for hints in two-player games
        self.rng = __import__("numpy").random.default_rng([self.record.seed or 0, 7])

    # -- state ------------------------------------------------------------------------------------
    def positions(self) -> list[Position]:
        return replay(self.record)[0]

    def mover(self) -> int:
        """Whose turn it is: the seat with the fewest filled boxes, counting from the first mover."""
        positions = self.positions()
        first = int(self.record.extra.get("first", 0))
        n = len(positions)
        order = [(first + k) % n for k in range(n)]
        filled = {i: sum(v is not None for v in positions[i].boxes) for i in order}
        return min(order, key=lambda i: filled[i])

    def position(self, seat: int | None = None) -> tuple[Position, tuple | None]:
        """A seat's position now (the mover's by default), and the dice held if a keep awaits its throw."""
        seat = self.mover() if seat is None else seat
        positions = self.positions()
        held = None
        mine = [e for e in self.record.events if e.player == seat]
        if mine and mine[-1].type == "keep":
            held = mine[-1].keep
        return positions[seat], held

    def opponents(self, seat: int) -> list[Position]:
        return [p for i, p in enumerate(self.positions()) if i != seat]

    def turn(self, pos: Position) -> int:
        return sum(v is not None for v in pos.boxes) + 1

    # -- display ----------------------------------------------------------------------------------
    def show_card(self, pos: Position | None = None) -> None:
        g = self.game
        positions = self.positions()
        names = self.record.players
        table = Table(title=f"{g.title} ({g.canonical})", box=None, padding=(0, 2), show_header=len(positions) > 1)
        table.add_column("box")
        for name in names:
            table.add_column(name, justify="right")
        for c, cat in enumerate(g.categories):
            table.add_row(cat.name, *["·" if p.boxes[c] is None else str(p.boxes[c]) for p in positions])
            if c == max((i for i, k in enumerate(g.categories) if k.is_upper), default=-1) and g.has_upper_bonus:
                cells = []
                for p in positions:
                    up = p.upper_total(g)
                    cells.append(f"[dim]{up}/{g.upper_threshold} +{g.upper_points if up >= g.upper_threshold else 0}[/]")
                table.add_row("[dim]upper (bonus)[/]", *cells)
        if any(p.extra_bonus for p in positions):
            table.add_row("extra bonus", *[str(p.extra_bonus) for p in positions])
        table.add_row("[bold]total[/]", *[f"[bold]{p.total(g)}[/]" for p in positions])
        self.console.print(table)
        if len(positions) == 2:
            me, other = positions[self.human], positions[1 - self.human]
            diff = me.total(g) - other.total(g)
            self.console.print(f"you {'lead' if diff > 0 else 'trail' if diff < 0 else 'are level'}"
                               + (f" by {abs(diff)}" if diff else ""))

    def show_hint(self, pos: Position, top: int = 5) -> None:
        if self.duel is not None:
            self.show_duel_hint(pos, top)
            return
        if len(self.record.players) > 2:
            self.show_mindful_hint(pos, top)
            return
        advice = advise(self.solution, pos)
        table = Table(title="best options (expected final score)")
        table.add_column("option")
        table.add_column("value", justify="right")
        table.add_column("cost", justify="right")
        for o in advice.options[:top]:
            name = (f"keep {'nothing' if o.option == '-' else o.option}" if o.kind == "keep" else f"score {o.option} ({o.points})")
            table.add_row(name, f"{o.value:.2f}", f"{o.cost:.2f}")
        self.console.print(table)

    def show_mindful_hint(self, pos: Position, top: int) -> None:
        """Several players: the mindful model's values (win n-1, tie shared, loss -1)."""
        from .mindful_review import options
        from .players.mindful import MindfulPlayer

        if getattr(self, "_mindful", None) is None:
            self._mindful = MindfulPlayer(self.game)
        values = options(self._mindful, pos, self.opponents(self.human))
        items = sorted(values.items(), key=lambda x: -x[1])
        n = len(self.record.players)
        table = Table(title="best options (expected result)", caption=f"win {n - 1}, loss -1; everyone playing Maximus after")
        table.add_column("option")
        table.add_column("value", justify="right")
        table.add_column("cost", justify="right")
        cats = {c.name for c in self.game.categories}
        for name, v in items[:top]:
            label = f"score {name}" if name in cats else f"keep {name}"
            table.add_row(label, f"{v:+.4f}", f"{items[0][1] - v:.4f}")
        self.console.print(table)

    def show_duel_hint(self, pos: Position, top: int) -> None:
        from .duel import DuelPosition

        other = self.opponents(self.human)[0]
        dpos = DuelPosition(pos.used, other.used, pos.total(self.game) - other.total(self.game))
        if pos.rolls_left > 0:
            eq = self.duel.keep_equities(dpos, pos.dice, pos.rolls_left)
            items = [(f"keep {format_dice(k, self.game.faces)}", v) for k, v in eq.items()]
        else:
            eq = self.duel.category_equities(dpos, pos.dice)
            items = [(f"score {self.game.categories[c].name}", v) for c, v in eq.items()]
        items.sort(key=lambda x: -x[1])
        table = Table(title="best options (your equity: +1 win, 0 draw, -1 loss)")
        table.add_column("option")
        table.add_column("equity", justify="right")
        table.add_column("cost", justify="right")
        for name, v in items[:top]:
            table.add_row(name, f"{v:+.4f}", f"{items[0][1] - v:.4f}")
        self.console.print(table)

    def bot_turn(self, seat: int) -> None:
        """A bot plays its whole turn; every throw and decision is recorded and shown."""
        g = self.game
        bot = self.bots[seat]
        name = self.record.players[seat]
        while True:
            pos, held = self.position(seat)
            if pos.dice is None or held is not None:
                self.throw(pos, held, seat)
                continue
            dice = format_dice(pos.dice, g.faces)
            if pos.rolls_left > 0:
                keep = tuple(sorted(bot.choose_keep(pos, self.rng, self.opponents(seat))))
                if len(keep) < g.n_dice:
                    self.console.print(f"{name} throws {dice} and keeps {format_dice(keep, g.faces)}")
                    self.writer.append(Event("keep", seat, self.turn(pos), keep=keep))
                    continue
            c = bot.choose_category(pos, self.rng, self.opponents(seat))
            new = after_score(g, pos, c)
            self.writer.append(Event("score", seat, self.turn(pos), category=c, points=new.boxes[c]))
            self.console.print(f"{name} scores {dice} in {g.categories[c].name} for {new.boxes[c]}")
            return

    # -- moves ------------------------------------------------------------------------------------
    def throw(self, pos: Position, held: tuple | None, seat: int | None = None) -> None:
        seat = self.human if seat is None else seat
        g = self.game
        kept = held or ()
        count = g.n_dice - len(kept)
        throw_no = g.rolls - pos.rolls_left + 1
        if self.record.manual_dice and seat == self.human:
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
            thrown = seeded_dice(self.record.seed, (seat, self.turn(pos), throw_no), count, g.faces)
        dice = tuple(sorted(kept + thrown))
        self.writer.append(Event("roll", seat, self.turn(pos), dice=dice))

    def undo(self) -> None:
        events = self.record.events
        if not events:
            self.console.print("[yellow]nothing to undo[/]")
            return
        if events[-1].player != self.human:
            self.console.print("[yellow]the last move was not yours[/]")
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
        self.writer.append(Event("score", self.human, self.turn(pos), category=c, points=new.boxes[c]))
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
            self.writer.append(Event("keep", self.human, self.turn(pos), keep=keep))
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
            if all(p.is_over() for p in self.positions()):
                break
            seat = self.mover()
            if seat != self.human:
                self.bot_turn(seat)
                continue
            pos, held = self.position(seat)
            if pos.dice is None or held is not None:
                if pos.dice is None and shown_turn != self.turn(pos):
                    self.show_card(pos)
                    shown_turn = self.turn(pos)
                    mine = [e for e in self.record.events if e.player == self.human]
                    if mine and not self.record.manual_dice:
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
        self.show_card()
        positions = self.positions()
        me = positions[self.human].total(self.game)
        if len(positions) == 1:
            self.console.print(f"[bold]Game over: {me} points.[/]")
            return
        best_other = max(p.total(self.game) for i, p in enumerate(positions) if i != self.human)
        verdict = "you win" if me > best_other else "a draw" if me == best_other else "you lose"
        self.console.print(f"[bold]Game over: {me} to {best_other}, {verdict}.[/]")


def make_bot(name: str, game: ScorecardGame, duel=None):
    """A bot by strategy name: malina (needs the equity table), mindful, joe, or a solitaire one."""
    from .players import make_player
    from .players.joe import JoePlayer
    from .players.malina import MalinaPlayer

    key = name.strip().lower()
    if key == "malina":
        if duel is None:
            raise InputError("Malina needs the two-player equity table")
        return MalinaPlayer(duel)
    if key == "joe":
        return JoePlayer(game)
    if key == "mindful":
        from .players.mindful import MindfulPlayer

        return MindfulPlayer(game)
    if key == "maximus":
        key = "optimal"
    return make_player(key, game)


def play(game: ScorecardGame, solution: SolitaireSolution, console: Console, ask: Callable[[str], str],
         seed: int | None = None, manual_dice: bool = False, resume: bool = False,
         record_path: str | None = None, opponent: str | list[str] | None = None, first: str = "random",
         duel_loader: Callable | None = None):
    """Play (or resume) a game in the terminal; returns (record, review, path).

    With ``opponent`` (a strategy name, or a list of up to five) you play against bots; ``first`` is you,
    bot (the first bot) or random.
    Raises QuitGame (carrying the record's path) when the player stops; the game is saved either way.
    """
    if resume:
        path, record = resume_record(game, record_path, console)
        writer = RecordWriter(path, record, resume=True)
        console.print(f"resuming {path}")
    else:
        if seed is None:
            seed = secrets.randbits(31)
        path = new_record_path(game, seed, record_path)
        players = ["you"]
        extra: dict = {}
        names = [opponent] if isinstance(opponent, str) else list(opponent or [])
        names = [n.strip().lower() for n in names]
        if len(names) > 5:
            raise InputError("at most five bots (six players)")
        if names:
            first_key = first.strip().lower()
            if first_key not in ("you", "bot", "random"):
                raise InputError(f"--first takes you, bot or random, not {first!r}")
            seat = {"you": 0, "bot": 1}.get(first_key)
            if seat is None:
                seat = seeded_dice(seed, (9, 9, 9), 1, len(names) + 1)[0] - 1
            players += names
            extra = {"first": seat, "bots": {str(i + 1): n for i, n in enumerate(names)}}
        record = GameRecord(game, players, seed, manual_dice, extra=extra)
        writer = RecordWriter(path, record)
        console.print(f"recording to {path} (seed {seed}); {HELP}")
    bot_names = {int(k): v for k, v in record.extra.get("bots", {}).items()}
    duel = None
    if (len(record.players) == 2 or "malina" in bot_names.values()) and duel_loader is not None:
        duel = duel_loader()
    bots = {seat: make_bot(name, game, duel) for seat, name in bot_names.items()}
    two_player_duel = duel if len(record.players) == 2 else None
    if bots:
        first_name = record.players[int(record.extra.get("first", 0))]
        console.print(f"you play against {', '.join(bot_names.values())}; {first_name} moves first")
    try:
        TerminalGame(game, solution, writer, console, ask, bots=bots, duel=two_player_duel).run()
    except QuitGame:
        raise QuitGame(str(path)) from None
    if two_player_duel is not None:
        from .duel_review import duel_review

        return record, duel_review(duel, record, player=0), path
    if len(record.players) > 2:
        from .mindful_review import mindful_review
        from .players.mindful import MindfulPlayer

        return record, mindful_review(MindfulPlayer(game), record, player=0), path
    result = review(solution, record, player=0)
    return record, result, path
