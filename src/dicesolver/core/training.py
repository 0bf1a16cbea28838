"""A trainer for any game, through the protocol (``dicesolver train``): positions a player actually meets,
asked one at a time; the cost of each answer, the best option and why; a proficiency figure per session
(the mean loss per decision and the decisions by label, the scale a review measures a game on) kept on
disk; and the player's own mistakes (from the trainer and from reviewed games) asked again until answered
right twice.

Positions come from games the family's human-like bots play (and the optimal player), weighted toward the
decisions that matter: the best and second options far apart, or a bot's choice far from the best. The
sample is the same for the same seed.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import numpy as np
import platformdirs

from .errors import InputError
from .playthrough import decisions
from .protocol import seat_on_turn
from .review import label

if TYPE_CHECKING:
    from .protocol import Game, State, Step
    from .results import Advice, Option, Review
    from .solved import SolvedGame

RIGHT_TIMES = 2  # a mistake leaves the deck once answered right this many times
MAX_GAMES = 400  # games the bots play at most to gather a sample's pool
POOL_PER_QUESTION = 12  # decisions gathered for each one asked


def training_dir() -> Path:
    return Path(platformdirs.user_data_dir("dicesolver")) / "training"


def trainers() -> int:
    """How many web browsers have training records."""
    try:
        return sum(1 for p in (training_dir() / "browsers").iterdir() if p.is_dir())
    except OSError:
        return 0


def has_trained(owner: str) -> bool:
    return (training_dir() / "browsers" / _slug(owner)).is_dir()


# -- where the positions come from ---------------------------------------------------------------------


def bots_for(game: Game) -> list[str]:
    """The players whose games the positions are drawn from: the family's human-like bots, and the optimal
    player."""
    from . import registry

    family = registry.family_of(game)
    return list(family.human_like) + ["optimal"]


def sample_positions(game: Game, solution: SolvedGame, n: int, seed: int = 0,
                     bots: list[str] | None = None) -> list[State]:
    """``n`` decisions (each with two options or more) from games the bots play on the seed's dice, drawn
    with a weight of the gap between the best and second options plus the cost of the bot's own choice:
    the decisions that matter, and those where players err."""
    from . import registry

    family = registry.family_of(game)
    names = bots or bots_for(game)
    rng = np.random.default_rng([seed & 0xFFFFFFFF, 56])
    players = [family.player(game, name, seed=seed + i) for i, name in enumerate(names)]
    pool: list[State] = []
    chosen: list[Step] = []
    wanted = max(n * POOL_PER_QUESTION, 50)
    for g in range(MAX_GAMES):
        if len(pool) >= wanted:
            break
        seats = [players[(g + s) % len(players)] for s in range(game.n_players)]
        for state, step in decisions(game, lambda state: seats[seat_on_turn(state)].choose(state, rng), rng):
            pool.append(state)
            chosen.append(step)
    if not pool:
        raise InputError(f"{game.canonical}: the bots met no decision with a choice")
    answers = solution.answers(pool)
    weights = np.empty(len(pool))
    for i, (state, step) in enumerate(zip(pool, chosen)):
        count = int(answers.counts[i])
        costs = np.sort(answers.costs[i, :count])
        actions = [str(a) for a in state.legal_actions()]
        own = answers.costs[i, actions.index(str(step))] if str(step) in actions else 0.0
        weights[i] = (costs[1] if count > 1 else 0.0) + own + 1e-9
    k = min(n, len(pool))
    picked = rng.choice(len(pool), size=k, replace=False, p=weights / weights.sum())
    return [pool[int(i)] for i in picked]


def questions(game: Game, solution: SolvedGame, record: TrainingRecord, n: int, seed: int) -> list[tuple[State, str]]:
    """A session's positions, each with a note: the deck of mistakes first (the costliest first), then, to make
    ``n``, positions drawn from play (their note empty)."""
    asked: list[tuple[State, str]] = []
    for mistake in record.due(n):
        try:
            asked.append((game.parse_state(mistake.position), f"you lost {mistake.loss:.3g} here before"))
        except InputError:  # a position of an older version of the rules: it leaves the deck
            record.mistakes.pop(mistake.position, None)
    fresh = sample_positions(game, solution, n - len(asked), seed) if n > len(asked) else []
    known = {str(s) for s, _ in asked}
    asked += [(s, "") for s in fresh if str(s) not in known]
    return asked[:n]


@dataclass(frozen=True)
class Judged:
    """An answer to a question: the position's advice, the option played and its label (as a review labels)."""

    advice: Advice
    mine: Option
    label: str

    @property
    def best(self) -> Option:
        return self.advice.options[0]

    @property
    def wrong(self) -> bool:
        return self.label != "best"


def judge_answer(solution: SolvedGame, state: State, text: str) -> Judged:
    """A move typed at a question, judged (InputError where the position is no decision, or the text no move
    there)."""
    if state.to_move() is None:
        raise InputError("a trainer's question is a decision: this position has none")
    step = str(state.parse_step(text))
    advice = solution.advise(state)
    mine = next((o for o in advice.options if o.action == step), None)
    if mine is None:
        raise InputError(f"{text!r} is not a move at this decision")
    return Judged(advice, mine, label(mine.cost, advice.unit, solution.tie))


# -- the player's record: sessions and mistakes ----------------------------------------------------------


@dataclass
class Mistake:
    """A position the player got wrong, asked again until answered right ``RIGHT_TIMES`` times."""

    position: str
    loss: float
    right: int = 0
    asked: int = 0
    source: str = "trainer"  # or the record it came from


@dataclass
class SessionResult:
    """One training session (or reviewed game) on the review's scale."""

    when: str
    game: str
    unit: str
    decisions: int
    mean_loss: float
    labels: dict[str, int]
    source: str = "trainer"
    rating: str = ""  # the mean loss's level (``core.rating``; "" in sessions kept before ratings)
    # the mean loss as it would be over a whole game's decisions (``core.calibration.difficulty``): what the
    # history compares, whatever positions a session asked (None in sessions kept before it)
    compared: float | None = None


@dataclass
class TrainingRecord:
    """A player's training in one game, on disk: every session's result, and the deck of mistakes."""

    game: str
    owner: str = ""  # a web browser's id: each browser trains on its own (the terminal's is "")
    sessions: list[SessionResult] = field(default_factory=list)
    mistakes: dict[str, Mistake] = field(default_factory=dict)
    goal: str = ""  # what the answers are judged by, where not the game's own solution ("theta:0.02"): its own
    # record, since losses in another goal's units do not compare

    def folder(self, game: Game) -> Path:
        base = training_dir() / "browsers" / _slug(self.owner) if self.owner else training_dir()
        return base / _slug(f"{game.canonical}-{game.n_players}p" + (f"-{self.goal}" if self.goal else ""))

    @classmethod
    def load(cls, game: Game, owner: str = "", goal: str = "") -> TrainingRecord:
        out = cls(game.canonical, owner, goal=goal)
        folder = out.folder(game)
        sessions, deck = folder / "sessions.jsonl", folder / "mistakes.json"
        from pydantic import TypeAdapter, ValidationError

        try:  # each line and the deck checked field by field: a hand-edited file is one clear error
            if sessions.is_file():
                one = TypeAdapter(SessionResult)
                out.sessions = [one.validate_json(line) for line in sessions.read_text().splitlines() if line.strip()]
            if deck.is_file():
                out.mistakes = TypeAdapter(dict[str, Mistake]).validate_json(deck.read_text())
        except (ValidationError, ValueError, OSError) as exc:
            problem = str(exc).splitlines()[0]
            raise InputError(f"the training record in {folder} cannot be read ({problem}); move it away to start "
                             "afresh") from None
        return out

    def add_session(self, game: Game, result: SessionResult) -> None:
        """Appended at once: a session stopped half-way keeps what was answered."""
        self.sessions.append(result)
        folder = self.folder(game)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with open(folder / "sessions.jsonl", "a") as fh:
                fh.write(json.dumps(asdict(result)) + "\n")
        except OSError as exc:
            raise InputError(f"the training record cannot be written in {folder} ({exc.strerror})") from None

    def save_deck(self, game: Game) -> None:
        """Written whole and then moved into place: a session stopped at any moment leaves the old deck or the
        new one."""
        folder = self.folder(game)
        path = folder / "mistakes.json"
        tmp = path.with_suffix(".tmp")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps({k: asdict(v) for k, v in self.mistakes.items()}, indent=1))
            os.replace(tmp, path)
        except OSError as exc:
            raise InputError(f"the training record cannot be written in {folder} ({exc.strerror})") from None

    def due(self, limit: int) -> list[Mistake]:
        """The mistakes to ask again, the costliest first."""
        return sorted(self.mistakes.values(), key=lambda m: -m.loss)[:limit]

    def answered(self, position: str, loss: float, wrong: bool, tie: float) -> None:
        """Counts an answer: a wrong one enters (or stays in) the deck; a mistake answered right twice leaves."""
        old = self.mistakes.get(position)
        if old is not None:
            old.asked += 1
            if wrong:
                old.right = 0
                old.loss = max(old.loss, loss)
            else:
                old.right += 1
                if old.right >= RIGHT_TIMES:
                    del self.mistakes[position]
        elif wrong and loss > tie:
            self.mistakes[position] = Mistake(position, loss, asked=1)

    def add_review(self, game: Game, review: Review, source: str) -> int:
        """The decisions a reviewed game lost on enter the deck, and the game counts as a session (both saved).
        Returns how many entered."""
        added = 0
        for d in review.decisions:
            if d.loss > 0 and d.label != "best" and d.position not in self.mistakes:
                self.mistakes[d.position] = Mistake(d.position, d.loss, source=source)
                added += 1
        s = review.summary
        self.add_session(game, SessionResult(time.strftime("%Y-%m-%d %H:%M"), s.game, s.unit, s.decisions_with_choice,
                                             s.mean_loss, dict(s.labels), source, s.rating or "", s.mean_loss))
        self.save_deck(game)
        return added


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9=,.-]+", "_", text)[:120]


def session_source(from_deck: int, fresh: int) -> str:
    """What a trainer session asked, for its history: its proficiency on the deck of old mistakes does not
    compare with one on new positions."""
    if from_deck and fresh:
        return f"trainer: {from_deck} from the deck, {fresh} new"
    return "trainer: the deck" if from_deck else "trainer: new positions"


def session_result(solution: SolvedGame, states: Sequence[State], losses: Sequence[float], source: str = "trainer"
                   ) -> SessionResult:
    """A training session's result: the losses of its answers at ``states``, labelled, and rated on the game's
    scale after the positions' difficulty is taken out (``core.calibration.rate_positions``)."""
    from .calibration import rate_positions

    values = [float(v) for v in losses]
    labels: dict[str, int] = {}
    for loss in values:
        name = label(loss, solution.unit, solution.tie)
        labels[name] = labels.get(name, 0) + 1
    level, compared = rate_positions(solution, states, values) if values else (None, None)
    return SessionResult(time.strftime("%Y-%m-%d %H:%M"), solution.game.canonical, solution.unit, len(values),
                         float(np.mean(values)) if values else 0.0, labels, source, level or "", compared)
