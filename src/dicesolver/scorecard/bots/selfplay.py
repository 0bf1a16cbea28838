"""A player plays a whole game by itself, producing a game record."""

from __future__ import annotations

import numpy as np

from ...core.dice import seeded_dice
from ..game.position import after_roll, after_score, start_position
from ..game.records import Event, GameRecord
from ..game.rules import ScorecardGame
from .players import Player


def play_game(game: ScorecardGame, player: Player, seed: int, name: str | None = None) -> GameRecord:
    """Play one solitaire game with seeded dice; every throw, keep and score is recorded."""
    record = GameRecord(game, [name or player.name], seed)
    rng = np.random.default_rng([seed & 0xFFFFFFFF, 99])
    position = start_position(game)
    for turn in range(1, game.n_categories + 1):
        dice = tuple(sorted(seeded_dice(seed, (0, turn, 1), game.n_dice, game.faces)))
        record.events.append(Event("roll", 0, turn, dice=dice))
        position = after_roll(position, dice)
        for throw in range(2, game.rolls + 1):
            keep = tuple(sorted(player.choose_keep(position, rng)))
            record.events.append(Event("keep", 0, turn, keep=keep))
            dice = keep + seeded_dice(seed, (0, turn, throw), game.n_dice - len(keep), game.faces)
            record.events.append(Event("roll", 0, turn, dice=tuple(sorted(dice))))
            position = after_roll(position, dice)
        category = player.choose_category(position, rng)
        position = after_score(game, position, category)
        record.events.append(Event("score", 0, turn, category=category, points=position.boxes[category]))
    return record


def play_match_game(game: ScorecardGame, players: list, seed: int, first: int = 0) -> GameRecord:
    """Several players, seats taking turns from ``first``; every throw, keep and score recorded."""
    record = GameRecord(game, [p.name for p in players], seed, extra={"first": first})
    rng = np.random.default_rng([seed & 0xFFFFFFFF, 98])
    positions = [start_position(game) for _ in players]
    n = len(players)
    for turn in range(1, game.n_categories + 1):
        for k in range(n):
            seat = (first + k) % n
            player = players[seat]
            others = [p for i, p in enumerate(positions) if i != seat]
            pos = positions[seat]
            dice = tuple(sorted(seeded_dice(seed, (seat, turn, 1), game.n_dice, game.faces)))
            record.events.append(Event("roll", seat, turn, dice=dice))
            pos = after_roll(pos, dice)
            for throw in range(2, game.rolls + 1):
                keep = tuple(sorted(player.choose_keep(pos, rng, others)))
                if len(keep) == game.n_dice:
                    break
                record.events.append(Event("keep", seat, turn, keep=keep))
                dice = tuple(sorted(keep + seeded_dice(seed, (seat, turn, throw), game.n_dice - len(keep), game.faces)))
                record.events.append(Event("roll", seat, turn, dice=dice))
                pos = after_roll(pos, dice)
            category = player.choose_category(pos, rng, others)
            pos = after_score(game, pos, category)
            record.events.append(Event("score", seat, turn, category=category, points=pos.boxes[category]))
            positions[seat] = pos
    return record
