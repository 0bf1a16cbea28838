"""Labelled situations (``dicesolver label``): the decisions of sampled games, each with every legal option's
code, value and cost from the batch answer engine, for learning.

Games are sampled by a player: ``optimal`` (the best option), ``uniform`` (any legal option, equally
likely) or ``perturbed`` (the best, or with probability ``perturb`` a uniform one). The engine's answers
both label a batch of situations and choose the moves that lead to the next, so a dataset costs little more
than the answers themselves. One-player games of a family with a vectorised environment (the scorecard
games) play a batch of games at once in its kernels; every other game, and a dataset of FEW_ROWS or fewer,
plays through the protocol, a batch of games in step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np

from ..core import registry
from ..core.answers import Answers
from ..core.errors import InputError
from ..core.protocol import State
from ..core.solved import SolvedGame

SOURCES = ("optimal", "perturbed", "uniform")
GAMES_AT_ONCE = 16_384  # in a vectorised environment
PLAYOUTS_AT_ONCE = 256  # through the protocol
ROWS_PER_GAME = 64  # fewer games at once for fewer rows: a dataset holds whole games, not only their openings
FEW_ROWS = 1_000  # a dataset this small is played through the protocol a game at a time: no kernel compiled (an
# engine answers one situation in numpy until its kernel is compiled, to the bit as the kernel does), a second


@dataclass
class Chunk:
    """Labelled situations: ``game`` (the sampled game's index), ``decision`` (the decision's index in its
    game), ``player`` (the seat deciding), the situations' arrays, their answers, and their position texts
    (where the games were played through the protocol). Its arrays are its own: a writer may hold it while
    the next chunk is sampled. ``answers`` may be a whole step's, of which ``rows`` (their indices, in
    order) are the chunk's: the writer then picks them on its own thread, not the sampling."""

    game: np.ndarray
    decision: np.ndarray
    player: np.ndarray
    situations: dict[str, np.ndarray]
    answers: Answers
    positions: list[str] | None = None
    rows: np.ndarray | None = None  # None: every row of ``answers``

    def __len__(self) -> int:
        return len(self.game)

    def answer_rows(self) -> np.ndarray:
        """The rows of ``answers`` that are the chunk's, in its order."""
        return np.arange(len(self)) if self.rows is None else self.rows


def check_source(source: str, perturb: float) -> None:
    if source not in SOURCES:
        raise InputError(f"the source is one of {', '.join(SOURCES)}, not {source!r}")
    if not 0.0 <= perturb <= 1.0:
        raise InputError(f"--perturb is a probability between 0 and 1, not {perturb}")


def choose(answers: Answers, source: str, perturb: float, rng: np.random.Generator) -> np.ndarray:
    """Each situation's move by the sampling player (-1 where it has no option)."""
    best = answers.best()
    if source == "optimal":
        return best
    counts = answers.counts.astype(np.int64)
    pick = (rng.random(len(counts)) * np.maximum(counts, 1)).astype(np.int64)
    uniform = np.where(counts > 0, answers.codes[np.arange(len(counts)), pick], -1)
    if source == "uniform":
        return uniform
    return np.where(rng.random(len(counts)) < perturb, uniform, best)


def sample(solution: SolvedGame, n: int, source: str = "optimal", perturb: float = 0.1, seed: int = 0,
           ) -> Iterator[Chunk]:
    """``n`` labelled situations of games played from the start by ``source``, a chunk at a time."""
    check_source(source, perturb)
    if n < 1:
        raise InputError("the number of situations is at least 1")
    game = solution.game
    vectorised = game.n_players == 1 and registry.family_of(game).has_batch(game)
    if vectorised and n > FEW_ROWS:
        yield from _vectorised(solution, n, source, perturb, seed)
    else:  # a first small dataset in seconds, not after a minute of compiling the vectorised environment
        yield from _playouts(solution, n, source, perturb, seed, small=vectorised)


def _vectorised(solution: SolvedGame, n: int, source: str, perturb: float, seed: int) -> Iterator[Chunk]:
    """Games in the family's vectorised environment: every game of the batch at a decision on every step
    (a finished game shows its end, then starts again)."""
    game = solution.game
    size = max(1, min(n // ROWS_PER_GAME, GAMES_AT_ONCE))
    batch = registry.family_of(game).batch(game, size, False)
    rng = np.random.default_rng([seed, 34])
    answer = solution.answer_in_step(size)
    obs, _ = batch.reset(seed)
    ids = np.arange(size, dtype=np.int64)
    decision = np.zeros(size, dtype=np.int64)
    started, written = size, 0
    while written < n:
        situations = solution.encoding.as_situations(obs)
        answers = answer(situations)
        live = answers.counts > 0
        moves = choose(answers, source, perturb, rng)
        rows = np.nonzero(live)[0][: n - written]
        if rows.size == size:  # every game at a decision: the batch as it is
            yield Chunk(ids.copy(), decision.copy(), np.zeros(size, dtype=np.int64), situations, answers)
        elif rows.size:
            yield Chunk(ids[rows], decision[rows], np.zeros(rows.size, dtype=np.int64),
                        {k: v[rows] for k, v in situations.items()}, answers, rows=rows)
        written += rows.size
        if not live.all():  # a finished game takes any legal step (to start the next)
            moves = np.where(live, moves, np.argmax(obs["action_mask"], axis=1))
        obs, _, _, _ = batch.step(moves)
        decision += live
        ended = np.nonzero(~live)[0]  # restarted by this step: new games
        ids[ended] = started + np.arange(ended.size)
        decision[ended] = 0
        started += ended.size


def _playouts(solution: SolvedGame, n: int, source: str, perturb: float, seed: int, small: bool = False
              ) -> Iterator[Chunk]:
    """Games through the protocol, a batch of them in step: the throws drawn with their probabilities,
    the decisions of the batch answered at once. ``small``: a small dataset of a game with a vectorised
    environment, played a game at a time, each decision answered alone, without position texts (the columns
    of its larger datasets)."""
    game = solution.game
    rng = np.random.default_rng([seed, 34])
    size = 1 if small else max(1, min(n // ROWS_PER_GAME, PLAYOUTS_AT_ONCE))
    answer = solution.answer if small else solution.answer_in_step(size)  # row i is always game i's situation
    states: list[State] = [game.start() for _ in range(size)]
    ids = np.arange(size, dtype=np.int64)
    decision = np.zeros(size, dtype=np.int64)
    started, written = size, 0
    while written < n:
        for i, state in enumerate(states):
            while state.is_chance() or state.is_terminal():
                if state.is_terminal():
                    state = game.start()
                    ids[i], decision[i] = started, 0
                    started += 1
                    continue
                outcomes = state.chance_outcomes()
                p = np.array([q for _, q in outcomes])
                state = state.apply(outcomes[int(rng.choice(len(outcomes), p=p / p.sum()))][0])
            states[i] = state
        keep = min(size, n - written)
        answers = answer(solution.encoding.situations(states))
        moves = choose(answers, source, perturb, rng)
        rows = np.arange(keep)
        yield Chunk(ids[:keep].copy(), decision[:keep].copy(),
                    np.array([s.player for s in states[:keep]], dtype=np.int64),
                    {k: v[:keep] for k, v in solution.encoding.situations(states[:keep]).items()},
                    answers.take(rows), None if small else [str(s) for s in states[:keep]])
        written += keep
        for i, state in enumerate(states):
            states[i] = state.apply(solution.encoding.step_of(state, int(moves[i])))
        decision += 1
