"""How good is a policy? Its games in a one-player environment, judged by the exact solution: its mean score
with an interval, the optimal policy's on the same seeds, and its exact regret per decision (the expected
points each of its decisions gives up against the best one, from the solved table)."""

from __future__ import annotations

import importlib
import importlib.util
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ..core.errors import InputError
from ..core.results import PolicyEvaluation
from .env import DiceEnv

Policy = Callable[[dict[str, np.ndarray]], int]


def as_policy(policy: Any) -> Policy:
    """A callable obs -> action; an object with ``predict(obs, action_masks=...)`` (such as sb3-contrib's
    MaskablePPO) is asked for its deterministic action."""
    if hasattr(policy, "predict"):
        def predict(obs: dict[str, np.ndarray]) -> int:
            action, _ = policy.predict(obs, action_masks=obs["action_mask"], deterministic=True)
            return int(action)
        return predict
    if callable(policy):
        return policy
    raise InputError(f"a policy is a function of the observation, or has predict(): not {type(policy).__name__}")


def random_policy(seed: int = 0) -> Policy:
    """Uniform over the legal actions (a baseline)."""
    rng = np.random.default_rng(seed)
    return lambda obs: int(rng.choice(np.nonzero(obs["action_mask"])[0]))


def load_policy(spec: str) -> Policy:
    """'random', 'optimal', 'FILE.py:NAME' or 'MODULE:NAME' (a function or an object with predict), or a
    saved sb3-contrib MaskablePPO model ('FILE.zip', with sb3-contrib installed)."""
    if spec == "random":
        return random_policy()
    if spec.endswith(".zip"):
        try:
            from sb3_contrib import MaskablePPO  # type: ignore[import-not-found]
        except ImportError:
            raise InputError("a .zip policy is a saved MaskablePPO model: pip install sb3-contrib") from None
        if not Path(spec).is_file():
            raise InputError(f"no such file: {spec}")
        return as_policy(MaskablePPO.load(spec))
    where, _, name = spec.rpartition(":")
    if not where or not name:
        raise InputError(f"{spec!r}: a policy is 'random', 'optimal', FILE.py:NAME, MODULE:NAME or FILE.zip")
    if where.endswith(".py"):
        path = Path(where)
        if not path.is_file():
            raise InputError(f"no such file: {where}")
        module_spec = importlib.util.spec_from_file_location(path.stem, path)
        assert module_spec is not None and module_spec.loader is not None
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as exc:
            raise InputError(f"cannot import {where!r}: {exc}") from None
    if not hasattr(module, name):
        raise InputError(f"{where} has no {name!r}")
    return as_policy(getattr(module, name))


def optimal_policy(env: DiceEnv) -> Policy:
    """The exact solution's best action (the env's own values)."""
    def best(obs: dict[str, np.ndarray]) -> int:
        values = env.action_values()
        return max(values, key=lambda a: env.solution.sign * values[a])
    return best


def play(env: DiceEnv, policy: Policy, seed: int) -> tuple[float, float, int]:
    """One game from ``seed``: (score, summed regret, decisions)."""
    obs, _ = env.reset(seed=seed)
    total = regret = 0.0
    decisions = 0
    terminated = False
    while not terminated:
        obs, reward, terminated, _, info = env.step(policy(obs))
        total += reward
        regret += info["regret"]
        decisions += 1
    return total, regret, decisions


def evaluate(policy: Any, game: str = "yahtzee", n: int = 1000, seed: int = 0, name: str = "policy",
             progress: Callable[[int, int], None] | None = None) -> PolicyEvaluation:
    """``n`` games of ``policy`` and of the optimal policy from the same seeds (seed, seed + 1, ...)."""
    if not 1 <= n <= 1_000_000:
        raise InputError("the number of games is between 1 and 1,000,000")
    start = time.perf_counter()
    env, judge = DiceEnv(game), DiceEnv(game)
    chosen = optimal_policy(env) if policy == "optimal" else as_policy(policy)
    best = optimal_policy(judge)
    mine, theirs = np.empty(n), np.empty(n)
    regret, decisions = 0.0, 0
    for i in range(n):
        score, lost, count = play(env, chosen, seed + i)
        mine[i] = score
        regret += lost
        decisions += count
        theirs[i] = play(judge, best, seed + i)[0]
        if progress:
            progress(i + 1, n)
    spread = 1.96 / np.sqrt(n)
    return PolicyEvaluation(
        game=env.game.canonical, policy=name, games=n, seed=seed, mean=float(mine.mean()),
        ci95=float(mine.std(ddof=1) * spread) if n > 1 else 0.0, optimal_mean=float(theirs.mean()),
        optimal_value=float(env.solution.root_value), gap=float((theirs - mine).mean()),
        gap_ci95=float((theirs - mine).std(ddof=1) * spread) if n > 1 else 0.0, decisions=decisions,
        regret_per_decision=regret / max(decisions, 1), regret_per_game=regret / n,
        seconds=time.perf_counter() - start)
