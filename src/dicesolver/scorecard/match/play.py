"""Multi-player matches: many games between 2..6 strategies, played in the numba kernel.

Every deal of dice is played once per rotation of the seating order (player i sits in seat (i + r) mod n
in rotation r), and the dice belong to the seats: each player throws every seat's dice once per deal
(common random numbers), which removes most of the luck from the comparison. Results follow the rules
(win n - 1, k tied leaders (n - k) / k each, loss -1); ``analysis.match`` summarises them.
A target player (``target:T``) plays its own card for at least T points from the target table, deciding
with the functions its simulations use; target players with different aims share the table of the
largest.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ...core.aims import parse_target, table_needs
from ...core.arrays import frozen
from ...core.jit import Stripes
from ...core.errors import InputError
from ...core.family import MatchGames
from ..mindful.kernels.mindful import Futures
from .kernels import (MATCH_MALINA, MATCH_MINDFUL, MATCH_POLICY, MATCH_TABLE, MATCH_TARGET, MatchPlayers,
                            simulate_match)
from ..bots.kernels import OPTIMAL
from ..bots.names import ALIASES, BOTS
from ..bots.players import make_player
from ..solitaire.policy_table import word_layout
from ..game.rules import ScorecardGame

MAX_PLAYERS = 6
CHUNK_DEALS = 20_000

@dataclass
class _Built:
    kind: int
    hand_values: np.ndarray


def _labels(names: list[str]) -> list[str]:
    """Unique labels: repeated strategies become 'joe A', 'joe B', ..."""
    labels = []
    for i, name in enumerate(names):
        if names.count(name) > 1:
            labels.append(f"{name} {chr(ord('A') + names[:i].count(name))}")
        else:
            labels.append(name)
    return labels


class MatchSetup:
    """Everything the match kernel needs for one game and a list of strategies."""

    @staticmethod
    def check_names(game: ScorecardGame, names: list[str]) -> list[str]:
        """Normalised names; InputError for a wrong count, an unknown name or Malina in a game she
        cannot play."""
        if not 2 <= len(names) <= MAX_PLAYERS:
            raise InputError(f"a match needs 2 to {MAX_PLAYERS} players (got {len(names)})")
        keys = [n.strip().lower().replace("_", "-") for n in names]
        aims = [parse_target(n) for n in keys]
        keys = [k if a is None else f"target:{a}" for k, a in zip(keys, aims)]
        for n in keys:
            if n not in BOTS and n not in ALIASES and not n.startswith("target:"):
                raise InputError(f"unknown player {n!r} (players: {', '.join(BOTS)}, target:T)")
        if "malina" in keys:
            from ..duel.table import check_duel_game

            check_duel_game(game)
        return keys

    def __init__(self, game: ScorecardGame, names: list[str], seed: int = 0):
        self.game = game
        self.names = self.check_names(game, names)
        self.labels = _labels(self.names)
        base = make_player("random", game)
        self.model = base.model
        self.values = np.zeros(1)
        layout = word_layout(game)
        # the optimal player reads the policy table where a decision fits a word (a stand-in otherwise)
        self.policy = (frozen(np.zeros((1, 1), dtype=layout[1] if layout else np.uint16)),
                       frozen(np.zeros(1, dtype=np.int32)), layout[0] if layout else 1)
        if any(n in ("optimal", "maximus", "mindful") for n in self.names):
            optimal = make_player("optimal", game)
            self.values = np.ascontiguousarray(optimal.values)
            if layout and any(n in ("optimal", "maximus") for n in self.names):
                policy = optimal.policy()
                self.policy = (policy.decisions, policy.rows, policy.keep_bits)
        built = []
        n_rolls, n_cats = game.dice.n_rolls, game.n_categories
        zero_h = np.zeros((n_rolls, n_cats))
        self.future = Futures(*(frozen(np.zeros(1, dtype=t)) for t in (np.float32, np.int64, np.int32, np.int32)))
        self.duel = (np.zeros(1, dtype=np.float32), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64))
        self.joe = (np.zeros((1, 1, 1), dtype=np.int64), np.zeros((1, 1), dtype=np.int64))
        aims = [parse_target(name) or 0 for name in self.names]
        self.aims = np.array(aims, dtype=np.int64)
        self.target: tuple[np.ndarray, int] = (np.zeros(1, dtype=np.float32), 1)
        if max(aims):
            from ..target.table import load_or_build as load_targets

            targets = load_targets(game, table_needs(max(aims)))[0]
            self.target = (targets.V, targets.N + 1)
        for name, aim in zip(self.names, aims):
            if aim:
                built.append(_Built(MATCH_TARGET, zero_h))
            elif name in ("optimal", "maximus"):
                built.append(_Built(MATCH_POLICY if layout else OPTIMAL, zero_h))
            elif name == "mindful":
                from ..mindful.future import load_or_build

                table = load_or_build(game)[0]
                self.future = table.arrays
                built.append(_Built(MATCH_MINDFUL, zero_h))
            elif name == "joe":
                from ..bots.joe import joe_tables

                self.joe = joe_tables(game)
                built.append(_Built(MATCH_TABLE, zero_h))
            elif name == "malina":
                from ..duel import table as duel

                solution = duel.load_or_solve(game)[0]
                m = solution.model
                self.duel = (solution.values, m.pair_offset, m.maxsum)
                built.append(_Built(MATCH_MALINA, zero_h))
            else:
                p = make_player(name, game, seed=seed)
                h = p.hand_values if p.hand_values.shape == zero_h.shape else zero_h
                built.append(_Built(p.mode, np.ascontiguousarray(h)))
        self.kinds = np.array([b.kind for b in built], dtype=np.int64)
        self.values = frozen(self.values)
        hand_values = frozen(np.ascontiguousarray(np.stack([b.hand_values for b in built])))
        dvalues, pair_offset, maxsum = (frozen(x) for x in self.duel)
        decisions, policy_rows, keep_bits = self.policy
        self.players = MatchPlayers(
            kinds=self.kinds, H=hand_values, values=self.values, futures=self.future, dvalues=dvalues,
            pair_offset=pair_offset, maxsum=maxsum, keep_table=frozen(self.joe[0]), cat_table=frozen(self.joe[1]),
            V=frozen(self.target[0]), W=self.target[1], aims=self.aims, policy=decisions, policy_rows=policy_rows,
            keep_bits=keep_bits)

    def rotations(self) -> np.ndarray:
        n = len(self.names)
        return np.array([[(seat - r) % n for seat in range(n)] for r in range(n)], dtype=np.int64)

    def play(self, throws: np.ndarray, rand: np.ndarray, perms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Totals and results [game, player] of every deal played in every order of ``perms``."""
        game, m = self.game, self.model
        dice = game.dice
        n_games = throws.shape[0] * perms.shape[0]
        totals = np.zeros((n_games, len(self.names)), dtype=np.int64)
        results = np.zeros((n_games, len(self.names)))
        with Stripes() as stripes:
            stripes.each(simulate_match, perms, throws, rand, m.rules, dice.graph, self.players, totals, results)
        return totals, results


def deal_numbers(game: ScorecardGame, deals: int, seats: int, rng: np.random.Generator):
    """Dice throws[deal, seat, turn, throw, die] and random numbers rand[deal, seat, turn, throw]."""
    shape = (deals, seats, game.n_categories, game.rolls)
    throws = rng.integers(1, game.faces + 1, size=shape + (game.n_dice,), dtype=np.int8)
    rand = rng.integers(0, 2**62, size=shape, dtype=np.int64)
    return throws, rand


def play_match(game: ScorecardGame, names: list[str], n: int = 10_000, seed: int = 0,
               progress: Callable[[int, int], None] | None = None) -> MatchGames:
    """About ``n`` games (rounded up to whole deals: one game per seating rotation)."""
    if n < 1:
        raise InputError("the number of games must be at least 1")
    start = time.perf_counter()
    setup = MatchSetup(game, names, seed)
    perms = setup.rotations()
    rot = perms.shape[0]
    deals = -(-n // rot)
    rng = np.random.default_rng(seed)
    parts_t, parts_r = [], []
    done = 0
    while done < deals:
        size = min(CHUNK_DEALS, deals - done)
        throws, rand = deal_numbers(game, size, rot, rng)
        t, r = setup.play(throws, rand, perms)
        parts_t.append(t)
        parts_r.append(r)
        done += size
        if progress:
            progress(done * rot, deals * rot)
    totals, results = np.concatenate(parts_t), np.concatenate(parts_r)
    # game i = deal * rot + r; player p sits in seat (p + r) mod n in rotation r
    players = len(names)
    r = np.arange(len(totals)) % rot
    seats = (np.arange(players)[None, :] + r[:, None]) % players
    return MatchGames(setup.labels, totals, results, seats, rot, time.perf_counter() - start)
