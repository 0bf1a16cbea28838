"""How good is a policy? Its games in a one-player environment, judged by the exact solution: its mean score
with an interval, the optimal policy's on the same seeds, and its exact regret per decision (the expected
points each of its decisions gives up against the best one, from the solved table).

The scorecard games are evaluated a batch of 8,192 games at a time in their vectorised environment, the
optimal player's moves answered by the batch answer engine: thousands of games per second. A policy
marked ``batched`` is asked once per step for every game of the batch."""

from __future__ import annotations

import importlib
import importlib.util
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ..core import registry
from ..core.answers import Answers, Situations
from ..core.encoding import Batch
from ..core.errors import InputError
from ..core.results import PolicyEvaluation
from ..core.solved import SolvedGame
from .env import DiceEnv, solve_for_judge

Policy = Callable[[dict[str, np.ndarray]], Any]
BATCH = 8192  # games played at once


def batched(policy: Callable[[dict[str, np.ndarray]], np.ndarray]) -> Callable[[dict[str, np.ndarray]], np.ndarray]:
    """Mark a policy that takes a batch of observations (each array with a leading games axis) and returns
    one action per game: ``evaluate`` then asks it once per step for every game, not once per game."""
    policy.batched = True  # type: ignore[attr-defined]
    return policy


def as_policy(policy: Any) -> Policy:
    """A callable obs -> action; an object with ``predict(obs, action_masks=...)`` (such as sb3-contrib's
    MaskablePPO) is asked for its deterministic actions, a batch at a time."""
    if hasattr(policy, "predict"):
        @batched
        def predict(obs: dict[str, np.ndarray]) -> np.ndarray:
            action, _ = policy.predict(obs, action_masks=obs["action_mask"], deterministic=True)
            return np.asarray(action)
        return predict
    if callable(policy):
        return policy
    raise InputError(f"a policy is a function of the observation, or has predict(): not {type(policy).__name__}")


def random_policy(seed: int = 0) -> Policy:
    """Uniform over the legal actions (a baseline); takes one observation or a batch."""
    rng = np.random.default_rng(seed)

    def choose(obs: dict[str, np.ndarray]) -> Any:
        mask = obs["action_mask"]
        if mask.ndim == 1:
            return int(rng.choice(np.nonzero(mask)[0]))
        return np.argmax(rng.random(mask.shape) * mask, axis=1)
    return batched(choose)


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


def optimal_policy(solution: SolvedGame) -> Policy:
    """The exact solution's best action for a batch of observations (the batch answer engine's best option),
    answered as games in step: a batch's games keep their rows from one call to the next (those that end
    drop out, and the rest move up: the engine then works out their turns afresh)."""
    answer: Callable[[Situations], Answers] | None = None
    rows = 0

    @batched
    def best(obs: dict[str, np.ndarray]) -> np.ndarray:
        nonlocal answer, rows
        situations = solution.encoding.as_situations(obs)
        n = len(obs["action_mask"])
        if answer is None or n > rows:
            answer, rows = solution.answer_in_step(n), n
        return answer(situations).best()
    return best


def actions_of(policy: Policy, obs: dict[str, np.ndarray], playing: np.ndarray) -> np.ndarray:
    """One action per game: the policy's for the games still being evaluated, any legal one for the others
    (a finished game starts again in the batch, and its next games do not count)."""
    actions = np.argmax(obs["action_mask"], axis=1)
    rows = np.nonzero(playing)[0]
    if not rows.size:
        return actions
    if getattr(policy, "batched", False):
        chosen = np.asarray(policy({k: v[rows] for k, v in obs.items()}), dtype=np.int64).reshape(-1)
        if chosen.shape != rows.shape:
            raise InputError(f"a batched policy returns one action per game: {rows.size}, not {chosen.size}")
        actions[rows] = chosen
    else:
        for i in rows:
            actions[i] = int(policy({k: v[i] for k, v in obs.items()}))
    return actions


def play_batch(batch: Batch, policy: Policy, seed: int) -> tuple[np.ndarray, float, int]:
    """Every game of the batch once from ``seed``: (scores, summed regret, decisions)."""
    obs, _ = batch.reset(seed)
    n = batch.num_envs
    scores, playing = np.zeros(n), np.ones(n, dtype=bool)
    regret, decisions = 0.0, 0
    while playing.any():
        obs, reward, terminated, info = batch.step(actions_of(policy, obs, playing))
        scores += np.where(playing, reward, 0.0)
        regret += float(info["regret"][playing].sum())
        decisions += int(playing.sum())
        playing &= ~terminated
    return scores, regret, decisions


def play(env: DiceEnv, policy: Policy, seed: int) -> tuple[float, float, int]:
    """One game in a single env from ``seed``: (score, summed regret, decisions)."""
    obs, _ = env.reset(seed=seed)
    total = regret = 0.0
    decisions = 0
    terminated = False
    while not terminated:
        if getattr(policy, "batched", False):
            action = int(np.asarray(policy({k: v[None] for k, v in obs.items()})).reshape(-1)[0])
        else:
            action = int(policy(obs))
        obs, reward, terminated, _, info = env.step(action)
        total += reward
        regret += info["regret"]
        decisions += 1
    return total, regret, decisions


def evaluate(policy: Any, game: str = "yahtzee", n: int = 1000, seed: int = 0, name: str = "policy",
             progress: Callable[[int, int], None] | None = None) -> PolicyEvaluation:
    """``n`` games of ``policy`` and of the optimal policy on the same dice (``seed``). In the family's
    vectorised environment where it has one (batches of games stepped in the kernels, the optimal moves
    from the batch answer engine), else game by game in ``DiceEnv``."""
    if not 1 <= n <= 1_000_000:
        raise InputError("the number of games is between 1 and 1,000,000")
    start = time.perf_counter()
    loaded = registry.load(game)
    if loaded.n_players != 1:
        raise InputError(f"{loaded.canonical} is played by {loaded.n_players}: use dicesolver.rl.aec_env")
    solution = solve_for_judge(loaded)
    best = optimal_policy(solution)
    chosen = best if policy == "optimal" else as_policy(policy)
    mine, theirs = np.empty(n), np.empty(n)
    regret, decisions = 0.0, 0
    family = registry.family_of(loaded)
    batches: list[Batch] | None = None
    if family.has_batch(loaded):
        batches = [family.batch(loaded, min(n, BATCH), judge=True) for _ in range(2)]
    done = 0
    while done < n:
        if batches is not None:
            size = min(BATCH, n - done)
            if size != batches[0].num_envs:
                batches = [family.batch(loaded, size, judge=True) for _ in range(2)]
            scores, lost, count = play_batch(batches[0], chosen, seed + done)
            mine[done: done + size] = scores
            theirs[done: done + size] = scores if chosen is best else play_batch(batches[1], best, seed + done)[0]
        else:
            env = DiceEnv(loaded)
            size = 1
            score, lost, count = play(env, chosen, seed + done)
            mine[done] = score
            theirs[done] = score if chosen is best else play(DiceEnv(loaded), best, seed + done)[0]
        regret += lost
        decisions += count
        done += size
        if progress:
            progress(done, n)
    spread = 1.96 / np.sqrt(n)
    return PolicyEvaluation(
        game=loaded.canonical, policy=name, judge=solution.judge, games=n, seed=seed, mean=float(mine.mean()),
        ci95=float(mine.std(ddof=1) * spread) if n > 1 else 0.0, optimal_mean=float(theirs.mean()),
        optimal_value=float(solution.root_value), gap=float((theirs - mine).mean()),
        gap_ci95=float((theirs - mine).std(ddof=1) * spread) if n > 1 else 0.0, decisions=decisions,
        regret_per_decision=regret / max(decisions, 1), regret_per_game=regret / n,
        seconds=time.perf_counter() - start)
