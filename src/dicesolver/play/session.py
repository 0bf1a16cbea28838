"""A game being played, for any family: who sits where (people and bots), every step saved to the record
the moment it happens, the dice drawn from the game's seed (or typed by hand), undo, and resuming.

The dice of step k are drawn from (seed, k) alone and the bots' random choices likewise, so a game
resumed after anything (a closed terminal, ``kill -9``) continues exactly as it would have.
"""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import platformdirs

from ..core import jsonl, records, registry
from ..core.errors import InputError
from ..core.family import Family, Player, Progress
from ..core.playthrough import Playthrough
from ..core.protocol import Game, State, Step, seat_on_turn
from ..core.results import TutorWarning


def games_dir() -> Path:
    return Path(platformdirs.user_data_dir("dicesolver")) / "games"


def draw(state: State, seed: int, index: int) -> Step:
    """The outcome of the throw due at ``state``, fixed by the game's seed and the step's index."""
    outcomes = state.chance_outcomes()
    p = np.array([q for _, q in outcomes])
    rng = np.random.default_rng([seed & 0xFFFFFFFF, 17, index])
    return outcomes[int(rng.choice(len(outcomes), p=p / p.sum()))][0]


@dataclass
class Session:
    """One game at a table; ``playthrough`` holds every step so far and ``path`` its record."""

    family: Family
    playthrough: Playthrough
    path: Path
    bots: dict[int, Player] = field(default_factory=dict)  # seat -> bot
    states: list[State] = field(default_factory=list)
    # the tutor's warning the person is being asked about now (the move is not made until they answer)
    tutor_question: TutorWarning | None = None

    def __post_init__(self) -> None:
        if not self.states:
            self.states = list(self.playthrough.states)

    # -- starting and resuming -------------------------------------------------------------------------
    @classmethod
    def new(cls, game: Game, bots: list[str], seed: int | None = None, manual_dice: bool = False,
            first: str = "you", path: str | Path | None = None, progress: Progress | None = None,
            tutor: float | None = None) -> Session:
        """A new game: you against ``bots`` (by name), ``first`` = you, bot (the first bot) or random;
        ``progress`` follows the first build of a bot's tables; ``tutor``: the tutor's threshold, kept in the
        record's header so that a game resumed goes on with it."""
        family = registry.family_of(game)
        seed = secrets.randbits(31) if seed is None else seed
        game, names = cls.seating(game, bots, first)
        first_key = str(first).strip().lower()
        players = [family.player(game, n, seed=seed, progress=progress) for n in names]  # before anything is written
        first_index = {"you": 0, "bot": 1}.get(first_key)
        if first_index is None:
            first_index = int(np.random.default_rng([seed & 0xFFFFFFFF, 99]).integers(len(names) + 1))
        labels = ["you"] + _unique([p.name for p in players])
        slug = re.sub(r"[^A-Za-z0-9._=,-]+", "_", Path(game.canonical).name)
        record_path = Path(path) if path else games_dir() / f"{slug}-{time.strftime('%Y%m%d-%H%M%S')}-{seed}.jsonl"
        if record_path.exists():
            raise InputError(f"{record_path} exists already (use --resume to continue it)")
        bot_names = {str(i + 1): n for i, n in enumerate(names)}
        playthrough = Playthrough(game, labels, [], first_index % len(labels), seed,
                                  {"manual_dice": manual_dice, **({"bots": bot_names} if names else {}),
                                   **({"tutor": tutor} if tutor is not None else {})})
        session = cls(family, playthrough, record_path)
        session.bots = {playthrough.seat(i + 1): p for i, p in enumerate(players)}
        session._write_all(create=True)
        return session

    @staticmethod
    def seating(game: Game, bots: list[str], first: str = "you") -> tuple[Game, list[str]]:
        """The game for you and ``bots`` and the bots' names, checked (InputError) without building any bot."""
        family = registry.family_of(game)
        names = [str(b).strip().lower() for b in bots] or family.default_opponents(game)
        if len(names) > 5:
            raise InputError("at most five bots (six players)")
        game = game.with_players(len(names) + 1)
        if str(first).strip().lower() not in ("you", "bot", "random"):
            raise InputError(f"--first takes you, bot or random, not {first!r}")
        for name in names:
            family.check_player(game, name)
        return game, names

    @classmethod
    def resume(cls, game: Game, path: str | Path | None = None, warnings: list[str] | None = None) -> Session:
        """The given record, or the latest unfinished game of ``game``, to go on playing."""
        record_path = Path(path) if path else latest_unfinished(game)
        if record_path is None:
            raise InputError(f"no unfinished {game.canonical} game to resume in {games_dir()}")
        playthrough = registry.read_record(record_path, warnings)
        if playthrough.game.canonical != game.canonical:
            raise InputError(f"{record_path} is a game of {playthrough.game.canonical}, not {game.canonical}")
        family = registry.family_of(playthrough.game)
        session = cls(family, playthrough, record_path)
        bots = playthrough.details.get("bots", {})
        session.bots = {playthrough.seat(int(i)): family.player(playthrough.game, name, seed=playthrough.seed or 0)
                        for i, name in bots.items()}
        session._write_all()  # drops a half-written last line, if any
        return session

    # -- the game --------------------------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def game(self) -> Game:
        return self.playthrough.game

    @property
    def tutor(self) -> float | None:
        """The tutor's threshold the game is played with (None: no tutor)."""
        threshold = self.playthrough.details.get("tutor")
        return float(threshold) if isinstance(threshold, (int, float)) and not isinstance(threshold, bool) \
            and threshold >= 0 else None

    @property
    def manual_dice(self) -> bool:
        return bool(self.playthrough.details.get("manual_dice"))

    def name(self, seat: int) -> str:
        return self.playthrough.name(seat)

    def names(self) -> list[str]:
        return [self.name(s) for s in range(self.game.n_players)]

    def is_bot(self, seat: int | None) -> bool:
        return seat in self.bots

    @property
    def human(self) -> int:
        """The seat of the person at the table (the first player who is not a bot)."""
        return next(s for s in range(self.game.n_players) if s not in self.bots)

    def draw(self) -> Step:
        return draw(self.state, self.playthrough.seed or 0, len(self.playthrough.steps))

    def bot_step(self) -> Step:
        """The bot's decision at the current state."""
        rng = np.random.default_rng([(self.playthrough.seed or 0) & 0xFFFFFFFF, 29, len(self.playthrough.steps)])
        return self.bots[seat_on_turn(self.state)].choose(self.state, rng)

    def play(self, step: Step, warning: TutorWarning | None = None) -> State:
        """Apply a step and append it to the record (synced) before anything else happens; ``warning``: the
        tutor's warning settled by this step, noted beside it."""
        before = self.state
        after = before.apply(step)
        index = len(self.playthrough.steps)
        if warning is not None:
            self.playthrough.notes[index] = {"tutor": warning.model_dump()}
        jsonl.append_line(self.path, records.step_line(self.playthrough, before, step, index))
        self.playthrough.steps.append(step)
        self.states.append(after)
        return after

    def can_undo(self) -> str | None:
        """Why the last step cannot be taken back (None when it can). A person's own steps can; with drawn
        dice only a decision, before the next throw (taking back a choice after seeing the dice would be
        peeking)."""
        if not self.playthrough.steps:
            return "nothing to undo"
        before = self.states[-2]
        if self.is_bot(before.player):
            return "the last move was not yours"
        if not self.manual_dice and before.is_chance():
            return "with drawn dice only a decision can be taken back, before the next throw"
        return None

    def undo(self) -> None:
        reason = self.can_undo()
        if reason:
            raise InputError(reason)
        self.playthrough.steps.pop()
        self.playthrough.notes.pop(len(self.playthrough.steps), None)
        self.states.pop()
        self._write_all()

    def _write_all(self, create: bool = False) -> None:
        lines = [records.header(self.playthrough)] + [records.step_line(self.playthrough, before, step, i)
                                                      for i, (before, step) in
                                                      enumerate(zip(self.states, self.playthrough.steps))]
        if create:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            jsonl.append_line(self.path, lines[0], mode="x")
            for line in lines[1:]:
                jsonl.append_line(self.path, line)
        else:
            jsonl.write_lines(self.path, lines)


def _unique(names: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n} {seen[n]}")
    return out


def latest_unfinished(game: Game, folder: Path | None = None) -> Path | None:
    """The most recently changed unfinished record of ``game`` in the games folder."""
    folder = folder or games_dir()
    candidates = sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True) if folder.exists() else []
    for path in candidates:
        try:
            playthrough = registry.read_record(path)
        except InputError:
            continue
        except Exception:  # a file that is not a record at all
            continue
        if playthrough.game.canonical == game.canonical and not playthrough.is_over():
            return path
    return None
