"""Matches between bots in any game that has them, summarised the same way for every family: points per
game (win n - 1, k tied leaders (n - k)/k each, loss -1), wins, ties, and games won by seat, with 95%
intervals computed over deals (each deal of dice is played in every seating order, so the deal is the
independent unit)."""

from __future__ import annotations

import numpy as np

from ..core import registry
from ..core.errors import InputError
from ..core.family import MatchGames, Progress
from ..core.protocol import Game
from ..core.results import MatchResult, PlayerResult

Z95 = 1.959963984540054
MAX_GAMES = 100_000_000


def _ci(per_deal: np.ndarray) -> float:
    n = len(per_deal)
    return Z95 * float(per_deal.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")


def summarize(games: MatchGames) -> list[PlayerResult]:
    totals, results, seats = games.totals, games.results, games.seats
    rot = games.rotations
    deals = totals.shape[0] // rot
    n_players = totals.shape[1]
    top = totals.max(axis=1, keepdims=True) if games.higher_is_better else totals.min(axis=1, keepdims=True)
    leaders = (totals == top).sum(axis=1)
    # each player's place: 1 + the players ahead + half the players level with it
    other, mine = totals[:, None, :], totals[:, :, None]
    ahead = other > mine if games.higher_is_better else other < mine
    level = (totals[:, None, :] == totals[:, :, None]).sum(axis=2) - 1
    place = 1.0 + ahead.sum(axis=2) + 0.5 * level
    out = []
    for p, label in enumerate(games.labels):
        lead = totals[:, p] == top[:, 0]
        win = lead & (leaders == 1)
        tie = lead & (leaders > 1)
        share = np.where(lead, 1.0 / leaders, 0.0)
        by_seat, by_seat_ci, rank_by_seat = [], [], []
        for s in range(n_players):
            at = seats[:, p] == s
            by_seat.append(float(share[at].mean()) if at.any() else float("nan"))
            rank_by_seat.append(float(place[at, p].mean()) if at.any() else float("nan"))
            k = int(at.sum())
            by_seat_ci.append(Z95 * float(share[at].std(ddof=1) / np.sqrt(k)) if k > 1 else float("nan"))
        out.append(PlayerResult(
            player=label, points_per_game=float(results[:, p].mean()),
            points_ci95=_ci(results[:, p].reshape(deals, rot).mean(axis=1)), win_rate=float(win.mean()),
            win_ci95=_ci(win.reshape(deals, rot).mean(axis=1)), tie_rate=float(tie.mean()), share=float(share.mean()),
            share_by_seat=by_seat, share_ci95_by_seat=by_seat_ci, rank_by_seat=rank_by_seat, mean_score=float(totals[:, p].mean()),
            score_sd=float(totals[:, p].std())))
    return out


def match(game: Game, players: list[str], n: int = 10_000, seed: int = 0,
          progress: Progress | None = None) -> tuple[MatchResult, MatchGames]:
    """About ``n`` games between the named bots (rounded up to whole deals: one game per seating order)."""
    if not 1 <= n <= MAX_GAMES:
        raise InputError(f"the number of games is between 1 and {MAX_GAMES:,}")
    games = registry.family_of(game).match(game, players, n, seed, progress=progress)
    result = MatchResult(game=game.canonical, players=summarize(games), games=games.totals.shape[0],
                         deals=games.totals.shape[0] // games.rotations, rotations=games.rotations, seed=seed,
                         seconds=games.seconds)
    return result, games
