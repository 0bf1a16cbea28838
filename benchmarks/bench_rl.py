"""Benchmark for issue 21: environment steps per second (one env, random masked actions) with and without
the solver's judgement in ``info``, the regret evaluation's games per second, and the vector env in the
kernels (``make_vec``: steps per second over all its environments, random legal actions drawn in numpy).

Prints Markdown for BENCHMARKS.md. Usage: ``python benchmarks/bench_rl.py [GAME ...]`` (default yacht
yahtzee despirala).
"""

from __future__ import annotations

import sys
import time

import numpy as np

import dicesolver.rl as rl


def steps_per_second(game: str, judge: bool, seconds: float = 5.0) -> float:
    env = rl.make(game, judge=judge)
    obs, _ = env.reset(seed=0)
    if judge:
        env.solution  # solved or loaded before the clock starts
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, _, terminated, _, _ = env.step(int(rng.choice(np.nonzero(obs["action_mask"])[0])))
        steps += 1
        if terminated:
            obs, _ = env.reset()
    return steps / (time.perf_counter() - start)


def vector_steps_per_second(game: str, num_envs: int, judge: bool, seconds: float = 5.0) -> float:
    vec = rl.make_vec(game, num_envs, judge=judge)
    obs, _ = vec.reset(seed=0)
    rng = np.random.default_rng(0)
    vec.step(np.argmax(rng.random(obs["action_mask"].shape) * obs["action_mask"], axis=1))  # compile or load
    obs, _ = vec.reset(seed=1)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = np.argmax(rng.random(obs["action_mask"].shape) * obs["action_mask"], axis=1)
        obs, *_ = vec.step(actions)
        steps += num_envs
    return steps / (time.perf_counter() - start)


def main(games: list[str]) -> None:
    print("| game | steps/s, judge=False | steps/s, judged (value and regret) | evaluate (games/s, policy + optimal) |")
    print("|---|---:|---:|---:|")
    for game in games:
        fast = steps_per_second(game, False)
        judged = steps_per_second(game, True)
        n = 50
        rl.evaluate(rl.random_policy(), game, n=5)  # kernels loaded (or compiled) before the clock starts
        result = rl.evaluate(rl.random_policy(), game, n=n)
        print(f"| {game} | {fast:,.0f} | {judged:,.0f} | {n / result.seconds:.1f} |")
    print()
    print("| game | environments | steps/s, judge=False | steps/s, judged |")
    print("|---|---:|---:|---:|")
    for game in games:
        if game == "despirala":
            continue  # no kernels: make_vec falls back to Gymnasium's SyncVectorEnv
        for num_envs in (64, 1024):
            print(f"| {game} | {num_envs} | {vector_steps_per_second(game, num_envs, False):,.0f} | "
                  f"{vector_steps_per_second(game, num_envs, True):,.0f} |")


if __name__ == "__main__":
    main(sys.argv[1:] or ["yacht", "yahtzee", "despirala"])
