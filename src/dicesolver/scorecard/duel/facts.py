"""Facts about optimal two-player play read from the exact table: how often Malina scratches a box, and
which, what she keeps from each opening roll, and where that departs from Maximus.

Scratch (waive) statistics are exact: the probability of every position under Malina-against-Malina
play is pushed forward through her decisions, turn by turn, from the start.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ...core.dice import format_dice
from ...core.jit import shared_stripes
from ...core.arrays import frozen
from ...core.results import BoxFacts, Departure, StrategyFacts
from ...core.solved import SolvedGame
from .table import DuelPosition, DuelTable, LevelSegment, cells_of
from ..game.state import Keep, ScorecardState
from .kernels.eval import duel_forward_level
from .kernels.solve import TablePart

CHUNK_CELLS = 1 << 20  # one parallel chunk of the forward pass, roughly
BATCH_CELLS = 1 << 25  # one kernel call, one progress step
TIE = 1e-6  # equities closer than this are a tie (the table is float32)


@dataclass(frozen=True)
class WaiveFacts:
    game: str
    zero_per_turn: float  # boxes scored 0 per turn (both players)
    waives_per_turn: float  # ... of which another open box would have scored points
    zero_by_category: dict[str, float]  # expected zero-scores per game, per box
    waives_by_category: dict[str, float]


def waive_facts(solution: DuelTable, progress: Callable[[int, int], None] | None = None) -> WaiveFacts:
    """Forward from the start, level by level: only this level's probabilities, the next level's and the
    next level's equities are held (two-person Yacht's largest levels: 256 million cells, 2 GB each as
    float64). progress(cells done, cells in all) is called after every batch of pairs."""
    model = solution.model
    game = solution.game
    n = game.n_categories
    upward = model.segments[::-1]  # from the start (nothing filled) to the last turn
    total = sum(seg.cells for seg in upward)
    done = 0
    waives = np.zeros(n)
    zeros = np.zeros(n)
    mass = np.zeros(upward[0].cells)
    mass[model.index(DuelPosition(0, 0, 0)) - upward[0].start] = 1.0
    for k, seg in enumerate(upward):
        nxt = upward[k + 1] if k + 1 < len(upward) else LevelSegment(-1, 0, 0, 0, 1)
        next_mass = np.zeros(nxt.cells)
        equities = frozen(cells_of(solution.values, nxt.start, nxt.stop))
        pa, pb, lanes = _by_other_player(model, seg)
        for bounds in _batches(pb, lanes):
            level_waives = np.zeros((len(bounds) - 1, n))
            level_zeros = np.zeros((len(bounds) - 1, n))
            shared_stripes().each(duel_forward_level, pa, pb, bounds, TablePart(mass, seg.start),
                                  TablePart(equities, nxt.start), model.layout, game.dice.graph, game.rolls,
                                  TablePart(next_mass, nxt.start), level_waives, level_zeros)
            waives += level_waives.sum(axis=0)
            zeros += level_zeros.sum(axis=0)
            done += int(lanes[bounds[0]:bounds[-1]].sum())
            if progress:
                progress(done, total)
        mass = next_mass
        del equities
    turns = 2 * n
    names = [c.name for c in game.categories]
    return WaiveFacts(game.canonical, float(zeros.sum()) / turns, float(waives.sum()) / turns,
                      dict(zip(names, zeros.tolist())), dict(zip(names, waives.tolist())))


def _by_other_player(model, seg: LevelSegment) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The level's pairs sorted by the other player's set (see duel_forward_level), and their cells."""
    pa = model.pa[seg.first_pair:seg.end_pair]
    pb = model.pb[seg.first_pair:seg.end_pair]
    order = np.argsort(pb, kind="stable")
    pa, pb = np.ascontiguousarray(pa[order]), np.ascontiguousarray(pb[order])
    return pa, pb, model.maxsum[pa] + model.maxsum[pb] + 1


def _batches(pb: np.ndarray, lanes: np.ndarray):
    """Chunk bounds over sorted pairs, cut only where pb changes, about CHUNK_CELLS cells a chunk, in
    batches of about BATCH_CELLS cells (one kernel call and one progress step each)."""
    if len(pb) == 0:
        return
    cuts = np.flatnonzero(np.diff(pb)) + 1  # where a new other-player set begins
    cum = np.concatenate(([0], np.cumsum(lanes)))
    wanted = np.arange(CHUNK_CELLS, int(cum[-1]), CHUNK_CELLS)
    inner = cuts[np.minimum(np.searchsorted(cum[cuts], wanted), len(cuts) - 1)] if len(cuts) else cuts
    bounds = np.unique(np.concatenate(([0], inner, [len(pb)])).astype(np.int64))
    per_batch = max(1, BATCH_CELLS // CHUNK_CELLS)
    for i in range(0, len(bounds) - 1, per_batch):
        yield bounds[i:i + per_batch + 1]


def _opening_keeps(solution: DuelTable) -> dict[tuple[int, ...], dict[tuple[int, ...], float]]:
    """For every roll of the game's first throw, every keep's equity for the first player (the duel
    engine's answers, in the order of the roll's keeps)."""
    states, answers = solution.opening_equities()
    return {state.showing: {a.dice: v for a, v in SolvedGame.pairs(state, answers, i) if isinstance(a, Keep)}
            for i, state in enumerate(states)}


def opening_keeps(solution: DuelTable) -> dict[str, tuple[str, float]]:
    """Malina's keep after the first throw of the game, for every roll: roll -> (keep, equity)."""
    game = solution.game
    result = {}
    for roll, eq in _opening_keeps(solution).items():
        keep = max(eq, key=lambda k: (eq[k], len(k)))
        result[format_dice(roll, game.faces)] = (format_dice(keep, game.faces), eq[keep])
    return result


def departures_from_maximus(solution: DuelTable) -> tuple[int, list[Departure]]:
    """The opening rolls where Malina keeps other dice than Maximus (the solitaire optimum) and Maximus's
    keep costs her equity, with the equity each keep gives with perfect play afterwards: (distinct opening
    rolls, departures, costliest first)."""
    from ..solitaire.answers import SolitaireEngine
    from ..game.encoding import ScorecardEncoding
    from ..solitaire.table import load_or_solve

    game = solution.game.with_players(1)
    dice = game.dice
    if game.rolls < 2:
        return dice.n_rolls, []
    solo, _ = load_or_solve(game)
    opening = _opening_keeps(solution)
    start = game.start()
    states = [ScorecardState(game, start.cards, roll, (), game.rolls - 1) for roll in opening]
    solo_answers = SolitaireEngine(solo.model, solo.values).answer(ScorecardEncoding(game).situations(states))
    found = []
    for i, (roll, eq) in enumerate(opening.items()):
        points = {a.dice: v for a, v in SolvedGame.pairs(states[i], solo_answers, i) if isinstance(a, Keep)}
        keep = max(eq, key=lambda k: (eq[k], len(k)))
        theirs = max(eq, key=lambda k: (points[k], len(k)))
        if eq[keep] - eq[theirs] > TIE:  # Malina would not be indifferent
            found.append(Departure(roll=format_dice(roll, game.faces), keep=format_dice(keep, game.faces),
                                   equity=eq[keep], maximus_keep=format_dice(theirs, game.faces),
                                   maximus_equity=eq[theirs], cost=eq[keep] - eq[theirs]))
    found.sort(key=lambda d: -d.cost)
    return dice.n_rolls, found


def strategy_facts(solution: DuelTable, progress: Callable[[int, int], None] | None = None) -> StrategyFacts:
    """Every fact above, as one result."""
    start = time.perf_counter()
    waives = waive_facts(solution, progress)
    rolls, departures = departures_from_maximus(solution)
    boxes = [BoxFacts(box=name, zero=zero, waived=waives.waives_by_category[name])
             for name, zero in waives.zero_by_category.items()]
    return StrategyFacts(game=solution.game.canonical, zero_per_turn=waives.zero_per_turn,
                         waives_per_turn=waives.waives_per_turn, boxes=boxes, opening_rolls=rolls,
                         departures=departures, seconds=time.perf_counter() - start)
