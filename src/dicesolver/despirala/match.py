"""Despirala matches between bots: many games with the seat order swapped every other game and the same
dice for a seat in both orders (common random numbers), with win rates and confidence intervals.

Matches between the table-driven strategies (expected-score and competitive) are played whole in numba
(``kernels.competitive.match_games``, thousands of games a second); any other bot plays through the game's own
state machine, one event at a time."""

from __future__ import annotations

import time
from typing import Callable, Sequence

import numpy as np

from ..core.errors import InputError
from ..core.family import MatchGames
from .arrays import Futures, Targets
from .rules import GOODS_PER_TURN, DespiralaGame
from .solver import H, kernel_throws
from .state import COLLECT, DECIDE, THROW, DespiralaState, Event, apply_event, draw_event, start_state

MAX_MATCH_GAMES = 1_000_000


def play_bots(game: DespiralaGame, bots: Sequence, rngs: Sequence[np.random.Generator],
              state: DespiralaState | None = None) -> DespiralaState:
    """Play a game to its end: seat i's decisions by ``bots[i]``, its dice from ``rngs[i]``."""
    state = state or start_state(len(bots), game)
    while not state.over:
        p = state.mover
        if state.phase in (DECIDE, COLLECT):
            event = Event("move", p, move=bots[p].choose(game, state))
        else:
            event = draw_event(state, rngs[p])
        state = apply_event(game, state, event)
    return state


def despirala_match(game: DespiralaGame, a, b, games: int, seed: int = 0,
                    progress: Callable[[int, int], None] | None = None) -> MatchGames:
    """``games`` games of bot ``a`` against bot ``b`` (an even number: each deal is played both ways, seat i
    throwing the deal's dice of seat i)."""
    if not 2 <= games <= MAX_MATCH_GAMES:
        raise InputError(f"a match has 2 to {MAX_MATCH_GAMES:,} games")
    start = time.perf_counter()
    pairs = (games + 1) // 2
    totals = np.zeros((2 * pairs, 2), dtype=np.int64)
    seats = np.zeros((2 * pairs, 2), dtype=np.int64)
    seats[0::2], seats[1::2] = (0, 1), (1, 0)  # (a's seat, b's seat): a first, then b first
    if kernel_strategy(a) is not None and kernel_strategy(b) is not None:
        finals = kernel_match(game, a, b, pairs, seed, progress)
        totals[0::2] = finals[0::2]
        totals[1::2] = finals[1::2, ::-1]  # a's score first
        return _result(game, a, b, totals, seats, start)
    for i in range(pairs):
        for k, a_first in enumerate((True, False)):
            bots = [a, b] if a_first else [b, a]
            rngs = [np.random.default_rng([seed, i, seat]) for seat in range(2)]
            final = play_bots(game, bots, rngs)
            g = 2 * i + k
            seats[g] = (0, 1) if a_first else (1, 0)
            totals[g] = (final.seats[seats[g, 0]].final, final.seats[seats[g, 1]].final)
        if progress:
            progress(2 * (i + 1), 2 * pairs)
    return _result(game, a, b, totals, seats, start)


def _result(game: DespiralaGame, a, b, totals: np.ndarray, seats: np.ndarray, start: float) -> MatchGames:
    sign = 1 if game.mode == "normal" else -1
    diff = np.sign(sign * (totals[:, 0] - totals[:, 1]))
    results = np.stack([diff, -diff], axis=1).astype(np.float64)
    return MatchGames([a.name, b.name], totals, results, seats, 2, time.perf_counter() - start,
                      higher_is_better=game.mode == "normal")


def kernel_strategy(bot) -> tuple[int, np.ndarray] | None:
    """(kind, expected-score table) of a bot the match kernel plays: 0 expected score, 1 to win, 2 for a
    target (its table is the bot's own)."""
    from .players import CompetitivePlayer, ExpectedScorePlayer, TargetPlayer

    if isinstance(bot, TargetPlayer):
        return 2, np.zeros((1, 1))
    if isinstance(bot, CompetitivePlayer):
        return 1, np.asarray(bot.solution.W)
    if isinstance(bot, ExpectedScorePlayer):
        return 0, np.asarray(bot.solution.W)
    return None


def kernel_match(game: DespiralaGame, a, b, pairs: int, seed: int,
                 progress: Callable[[int, int], None] | None = None, start: DespiralaState | None = None) -> np.ndarray:
    """finals[game, seat] of ``pairs`` deals, each played both ways (see kernels.competitive.match_games), in
    batches so that progress can be shown; from ``start`` (a two-player turn start), else from the
    beginning."""
    from ..core.jit import Stripes
    from .kernels.competitive import match_games
    from .players import CompetitivePlayer

    first, second = kernel_strategy(a), kernel_strategy(b)
    if first is None or second is None:
        raise InputError(f"the match kernel plays the expected-score and competitive strategies, not {a.name} or {b.name}")
    (kind_a, table_a), (kind_b, table_b) = first, second
    tables = [t for t in (table_a, table_b) if t.shape != (1, 1)] or [np.zeros((1, H))]
    W2 = np.ascontiguousarray(np.stack([t if t.shape != (1, 1) else tables[0] for t in (table_a, table_b)]))
    aims, targets = _target_inputs(game, a, b)
    future = next((bot.future for bot in (a, b) if isinstance(bot, CompetitivePlayer)), None)
    # nobody plays to win: the kernel never reads the futures
    futures = future.arrays if future is not None else Futures(
        np.zeros(1, dtype=np.float32), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64),
        np.zeros(1, dtype=np.int64))
    start = start or start_state(2, game)
    if start.phase != THROW or len(start.seats) != 2:
        raise InputError("a match starts from a two-player position at the start of a turn")
    masks = np.array([seat.free for seat in start.seats], dtype=np.int64)
    goods = np.array([seat.goods for seat in start.seats], dtype=np.int64)
    goods[start.mover] -= GOODS_PER_TURN  # the kernel adds each turn's goods as the turn starts
    points = np.array([seat.points for seat in start.seats], dtype=np.int64)
    finals = np.zeros((2 * pairs, 2), dtype=np.int64)
    batch = max(1, min(pairs, 500))
    with Stripes() as stripes:
        for deal in range(0, pairs, batch):
            part = np.zeros((2 * min(batch, pairs - deal), 2), dtype=np.int64)
            stripes.each(match_games, W2, np.array([kind_a, kind_b]), aims, futures, targets, kernel_throws(game.mode),
                         (masks, goods, points, start.mover), int(seed) % 2**63, deal, part)
            finals[2 * deal: 2 * deal + len(part)] = part
            if progress:
                progress(2 * deal + len(part), 2 * pairs)
    return finals


def _target_inputs(game: DespiralaGame, a, b) -> tuple[np.ndarray, Targets]:
    """The aims of the two players and the one target table the target players share (two target players must
    share one: the same aim's kind and needs), or an empty one."""
    from .players import TargetPlayer

    players = [p if isinstance(p, TargetPlayer) else None for p in (a, b)]
    tables = [p.table for p in players if p is not None]
    aims = np.array([p.aim if p is not None else 0 for p in players], dtype=np.int64)
    if not tables:
        return aims, Targets(np.zeros(1, dtype=np.float32), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64),
                             0, np.ones(1))
    table = max(tables, key=lambda t: t.N)
    if any(t.tie != table.tie or t.within != table.within for t in tables):
        raise InputError("two target players in one match play from one kind of target table")
    return aims, table.arrays
