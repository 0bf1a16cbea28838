"""Simulation of scorecard strategies in the numba kernels: many games on the dice stream of a seed, the
same dice for every strategy of one call (common random numbers), with each game's boxes and bonuses.

The optimal player reads its decisions from the policy table (``policy_table``: where it is cached, or
for runs long enough to pay for building it) and draws its dice in the kernel; the other strategies decide as they go, on the same dice written out chunk by chunk. Each
chunk's games are counted (``Tally``) and dropped: memory does not grow with the number of games."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ...core.counts import ScoreCounts
from ...core.errors import InputError
from ...core.family import Progress, Simulated, tell_stage
from ...core.results import CategoryStats
from ...core.aims import AtLeast, FinalScoreGoal, parse_field_player, parse_target
from .players import KernelPlayer, make_player
from .strategies import STAGE_TABLE_MIN_GAMES
from ..target.player import TargetPlayer
from ..solitaire.policy_table import PolicyTable, dice_stream
from ..game.rules import ScorecardGame
from ..solitaire.table import TurnState

CHUNK = 200_000  # games per chunk of written-out dice (about 50 MB for 5 dice, 13 turns)
PROGRESS_STEPS = 20  # a shorter run is cut into about this many chunks, each reported (the games stay the same)


class Tally:
    """One strategy's games as they stream in chunks (memory that does not grow with the number of games):
    how many ended on each score, on each score with the upper bonus, each box's points, the extra bonuses."""

    def __init__(self, game: ScorecardGame):
        self.scores, self.bonus_scores = ScoreCounts(), ScoreCounts()
        self.boxes = [ScoreCounts() for _ in range(game.n_categories)]
        self.extra = 0

    def add(self, totals: np.ndarray, boxes: np.ndarray, bonus: np.ndarray, extra: np.ndarray) -> None:
        self.scores.add(totals)
        self.bonus_scores.add(totals[bonus])
        if boxes.size:  # every box's points counted in one pass: box c's from c * span on
            lo = int(boxes.min())
            span = int(boxes.max()) - lo + 1
            spread = boxes + (np.arange(boxes.shape[1]) * span - lo)  # one temporary of the chunk's size, not two
            counts = np.bincount(spread.ravel(), minlength=boxes.shape[1] * span).reshape(boxes.shape[1], span)
            for c, points in enumerate(self.boxes):
                points.add_counts(lo, counts[c])
        self.extra += int(extra.sum())


def facts(game: ScorecardGame, player: KernelPlayer | TargetPlayer, tally: Tally,
          goal: FinalScoreGoal | None = None) -> dict:
    """What the summary says besides the scores: each box's scoring rate and mean, the bonuses, the
    optimal strategy's exact expected score, and, beside a goal's player (``target:T``, ``field:N``), how
    often each strategy reaches ``goal`` (the mean of its utility over the games: for a field, the share of
    fields won) with the goal player's exact chance."""
    n = tally.scores.n
    out: dict[str, Any] = {
        "categories": [CategoryStats(category=cat.name, scored_rate=counts.share(at_least=1), mean=counts.mean)
                       for cat, counts in zip(game.categories, tally.boxes)],
        "bonus_rate": tally.bonus_scores.n / n if game.has_upper_bonus else None,
        "extra_bonus_mean": tally.extra / n if game.tracks_yacht_flag else None,
    }
    if isinstance(player, TargetPlayer):
        out["target_chance"] = player.table.chance(TurnState(0), player.aim)
    elif player.name == "optimal":
        out["expected"] = float(player.values[player.model.index(TurnState(0))])
    if goal is not None:
        scores, counts = tally.scores.nonzero()
        out |= {"goal": goal.text(), "target": goal.score if isinstance(goal, AtLeast) else None,
                "target_rate": float(counts @ goal.utility(scores)) / n}
    return out


def make_strategy(name: str, game: ScorecardGame, seed: int = 0) -> KernelPlayer | TargetPlayer:
    """A solitaire strategy that plays many games in the kernels: a built-in one, 'target:T' or 'field:N'."""
    aim, field = parse_target(name), parse_field_player(name)
    if aim is not None:
        return TargetPlayer.build(game, aim)
    if field is not None:
        return TargetPlayer.for_goal(game, field)
    return make_player(name, game, seed=seed)


def _policy_for(player: KernelPlayer | TargetPlayer, n: int, progress: Progress | None) -> PolicyTable | None:
    """The table the optimal player reads its decisions from in a simulation of ``n`` games (built now,
    with its own progress, when it is not cached); None for a player that decides as it goes."""
    if isinstance(player, KernelPlayer) and player.reads_policy(n):
        return player.policy(progress)
    return None


def simulate(game: ScorecardGame, players: list[str], n: int = 10_000, seed: int = 0,
             progress: Progress | None = None) -> list[Simulated]:
    """Play ``n`` games with each named strategy (same dice for all); one run per strategy."""
    if n < 1:
        raise InputError("the number of games must be at least 1")
    if not players:
        raise InputError("name at least one player")
    built: list[KernelPlayer | TargetPlayer] = [make_strategy(p, game, seed) for p in players]
    policies = [_policy_for(p, n, progress) for p in built]
    tell_stage(progress, f"playing {n:,} games" + (" with each strategy" if len(built) > 1 else ""))
    tallies = [Tally(game) for _ in built]
    seconds = [0.0 for _ in built]
    # each game's dice come from the seed and the game's number alone, so chunks of any size play the same
    # games; a chunk as big as a static strategy's stage table pays for
    chunk = min(CHUNK, max(STAGE_TABLE_MIN_GAMES, -(-n // PROGRESS_STEPS)))
    done = 0
    while done < n:
        size = min(chunk, n - done)
        arrays = dice_stream(game, seed, done, size) if None in policies else None
        for i, (player, policy) in enumerate(zip(built, policies)):
            t0 = time.perf_counter()
            if policy is not None:
                games = policy.play(size, seed=seed, first_game=done)
            else:
                assert arrays is not None
                games = player.play_many(*arrays)
            tallies[i].add(*games)
            seconds[i] += time.perf_counter() - t0
            if progress:
                progress(done * len(built) + (i + 1) * size, n * len(built))
        done += size
    goal = next((p.goal for p in built if isinstance(p, TargetPlayer)), None)
    return [Simulated(player.name, tally.scores, facts(game, player, tally, goal),
                      {"boxes": tally.boxes, "bonus_scores": tally.bonus_scores}, secs)
            for player, tally, secs in zip(built, tallies, seconds)]
