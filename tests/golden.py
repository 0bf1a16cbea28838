"""Recorded advice: sampled situations of every family and judge, with every option's value as the
per-position code (before the batch engine) computed it. ``record_golden.py`` wrote
``data/golden_advice.json.gz`` at commit b6a1de0; ``test_golden.py`` checks the engine against it.

Each case names a solution (a game, its players, its judge or target) and where its sampled games start;
the situations are the decisions and throws of random playouts, every option's value recorded in the
order of the protocol's ``legal_actions``."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any, Callable

import numpy as np

from dicesolver.core import registry
from tinygames import BONUS_GAME, ESSAY_TOY, PAIRS_GAME, tiny

FIXTURE = Path(__file__).parent / "data" / "golden_advice.json.gz"

DESPIRALA_ENDGAME = ("Collect 1,Collect 3,Collect 4,Collect 5,Collect 6,Three pairs,Two triples,Four of a kind,"
                     "Kamerun,Straight,General,Despirala;10;222566;points 380")


def _despirala_target(mode: str, score: int, beat: bool = False) -> Callable[[], tuple[Any, Any]]:
    def make():
        game = registry.load(f"despirala({mode})" if mode != "normal" else "despirala")
        start = game.parse_state(DESPIRALA_ENDGAME if mode == "normal" else DESPIRALA_ENDGAME.replace("380", "80"))
        return registry.family_of(game).target_solution(game, score, beat=beat, at=start), start
    return make


def _scorecard_target(definition: dict, score: int, beat: bool = False) -> Callable[[], tuple[Any, Any]]:
    def make():
        game = tiny(definition)
        return registry.family_of(game).target_solution(game, score, beat=beat), game.start()
    return make


def _solved(spec: Any, players: int | None = None, judge: str | None = None) -> Callable[[], tuple[Any, Any]]:
    def make():
        game = spec() if callable(spec) else spec
        solution = registry.solve(game, players=players, judge=judge)
        return solution, solution.game.start()
    return make


# name -> (how to solve it, how many situations to record)
CASES: dict[str, tuple[Callable[[], tuple[Any, Any]], int]] = {
    "yahtzee": (_solved("yahtzee"), 1500),
    "bonusgame": (_solved(lambda: tiny(BONUS_GAME)), 400),
    "bonusgame-forced-order": (_solved(lambda: tiny(BONUS_GAME, order="forced")), 300),
    "pairs": (_solved(lambda: tiny(PAIRS_GAME)), 300),
    "toy-duel": (_solved(lambda: tiny(ESSAY_TOY), players=2, judge="exact"), 100),
    "pairs-duel": (_solved(lambda: tiny(PAIRS_GAME), players=2, judge="exact"), 600),
    "yacht-mindful-3": (_solved("yacht", players=3, judge="mindful"), 600),
    "bonusgame-points-2": (_solved(lambda: tiny(BONUS_GAME), players=2, judge="points"), 300),
    "bonusgame-target-30": (_scorecard_target(BONUS_GAME, 30), 400),
    "bonusgame-beat-30": (_scorecard_target(BONUS_GAME, 30, beat=True), 300),
    "pig": (_solved("pig"), 500),
    "skunk": (_solved("skunk(goal=50)"), 400),
    "big-pig": (_solved("big-pig(goal=50)"), 400),
    "despirala": (_solved("despirala"), 800),
    "despirala-target-450": (_despirala_target("normal", 450), 500),
    "despirala-beat-449": (_despirala_target("normal", 449, beat=True), 300),
    "despirala-misere-100": (_despirala_target("misere", 100), 300),
}


def sample_states(start: Any, count: int, seed: int) -> list[Any]:
    """``count`` distinct non-final states of random playouts from ``start`` (random actions, throws
    drawn with their probabilities), in the order first met."""
    rng = np.random.default_rng(seed)
    seen: dict[str, Any] = {}
    for _ in range(100 * count):
        state = start
        while not state.is_terminal():
            seen.setdefault(str(state), state)
            if state.is_chance():
                outcomes = state.chance_outcomes()
                p = np.array([q for _, q in outcomes])
                state = state.apply(outcomes[rng.choice(len(outcomes), p=p / p.sum())][0])
            else:
                actions = state.legal_actions()
                state = state.apply(actions[rng.integers(len(actions))])
        if len(seen) >= 4 * count:
            break
    texts = list(seen)
    picked = sorted(rng.choice(len(texts), size=min(count, len(texts)), replace=False))
    return [seen[texts[i]] for i in picked]


def read() -> dict[str, list]:
    with gzip.open(FIXTURE, "rt") as f:
        return json.load(f)
