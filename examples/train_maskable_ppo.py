"""Train a small masked agent on Yacht Dice and plot its learning curve against the exact optimum.

A dependency group of the repository, never of the package: ``uv pip install --group train`` (sb3-contrib and PyTorch).
Then ``python examples/train_maskable_ppo.py [--steps 300000] [--plot learning.png]``.

The agent is sb3-contrib's MaskablePPO on ``dicesolver/YachtDice-v0``: it only ever picks legal actions
(the env's ``action_mask``). Every ``--every`` steps its greedy policy plays ``--games`` games, judged by
``dicesolver.rl.evaluate``: its mean score, and the exact points it loses per game against the optimal
player (the regret, which has far less noise than the score).
"""

from __future__ import annotations

import argparse
import json
import time

import gymnasium
import numpy as np

import dicesolver.rl as rl


class Scaled(gymnasium.ObservationWrapper):
    """Every observation array divided by its upper bound (the network sees numbers near [0, 1])."""

    def __init__(self, env: gymnasium.Env):
        super().__init__(env)
        self.scale = {k: max(float(np.max(np.abs(space.high))), 1.0) for k, space in env.observation_space.items()}
        self.observation_space = gymnasium.spaces.Dict({
            k: gymnasium.spaces.Box(-1.0, 1.0, space.shape, dtype=np.float32)
            for k, space in env.observation_space.items()})

    def observation(self, obs):
        return {k: (v / self.scale[k]).astype(np.float32) for k, v in obs.items()}


def make_env(game: str):
    from sb3_contrib.common.wrappers import ActionMasker

    env = rl.make(game, judge=False)
    return ActionMasker(Scaled(env), lambda e: e.unwrapped.encoding.mask(e.unwrapped.state).astype(bool))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="yacht-dice")
    parser.add_argument("--steps", type=int, default=300_000)
    parser.add_argument("--every", type=int, default=25_000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", default="learning.png")
    parser.add_argument("--json", default=None, help="also write the curve's points here")
    args = parser.parse_args()

    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    venv = DummyVecEnv([lambda: make_env(args.game) for _ in range(8)])
    model = MaskablePPO("MultiInputPolicy", venv, seed=args.seed, verbose=0, n_steps=256, batch_size=512,
                        gamma=1.0, learning_rate=3e-4, ent_coef=0.01)
    scaler = Scaled(rl.make(args.game, judge=False))

    def policy(obs):
        action, _ = model.predict(scaler.observation(obs), action_masks=obs["action_mask"].astype(bool),
                                  deterministic=True)
        return int(action)

    start = time.perf_counter()
    points = []
    for done in range(0, args.steps + 1, args.every):
        if done:
            model.learn(args.every, reset_num_timesteps=False)
        result = rl.evaluate(policy, args.game, n=args.games, seed=10_000, name="MaskablePPO")
        points.append({"steps": done, "mean": result.mean, "ci95": result.ci95, "regret_per_game": result.regret_per_game,
                       "optimal_value": result.optimal_value, "seconds": time.perf_counter() - start})
        print(f"{done:>8} steps: mean {result.mean:7.2f} ± {result.ci95:5.2f}, exact regret per game "
              f"{result.regret_per_game:6.2f} (optimal {result.optimal_value:.2f}; {time.perf_counter() - start:.0f} s)",
              flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(points, f, indent=1)
    plot(points, args.game, args.plot)


def plot(points, game: str, path: str) -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    steps = np.array([p["steps"] for p in points])
    mean = np.array([p["mean"] for p in points])
    ci = np.array([p["ci95"] for p in points])
    optimum = points[0]["optimal_value"]
    fig = Figure(figsize=(8, 4.5), layout="constrained")
    ax = fig.add_subplot()
    ax.plot(steps, mean, marker="o", color="tab:red", label="MaskablePPO (greedy), mean score")
    ax.fill_between(steps, mean - ci, mean + ci, color="tab:red", alpha=0.2)
    ax.plot(steps, optimum - np.array([p["regret_per_game"] for p in points]), linestyle=":", color="tab:red",
            label="optimum - its exact regret per game")
    ax.axhline(optimum, color="black", linestyle="--", label=f"exact optimum {optimum:.2f}")
    ax.set(xlabel="training steps", ylabel="final score", title=f"{game}: learning against the exact optimum")
    ax.legend(loc="lower right")
    FigureCanvasAgg(fig)
    fig.savefig(path, dpi=110)
    print(f"plot written to {path}")


if __name__ == "__main__":
    main()
