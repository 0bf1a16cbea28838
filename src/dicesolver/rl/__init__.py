"""Reinforcement-learning environments for every game, judged by the exact solver.

* ``make(game)`` / ``gymnasium.make("dicesolver/<Game>-v0")``: a Gymnasium env for every one-player game of
  the registry (``dicesolver/Custom-v0`` with ``rules="my.toml"`` for a rules file; any game string with
  ``game=...``, e.g. ``game="yahtzee(joker=free)"``);
* ``make_vec(game, num_envs)``: many one-player games at once (in the kernels for the scorecard games);
* ``aec_env(game, players)``: a PettingZoo AEC env for the games of several players;
* ``evaluate(policy, game, n)``: a policy's mean score and its exact regret against the optimal player.

Importing this module registers the Gymnasium ids. See docs/RL.md for the spaces and the action tables.
"""

from __future__ import annotations

import re

from ..core.extras import need

need("rl", "gymnasium", "pettingzoo")
import gymnasium  # noqa: E402

from ..core import registry  # noqa: E402
from .aec import DiceAECEnv  # noqa: E402
from .env import DiceEnv  # noqa: E402
from .evaluate import evaluate, load_policy, random_policy  # noqa: E402
from .vector import DiceVectorEnv, make_vec  # noqa: E402

NAMESPACE = "dicesolver"


def env_id(title: str) -> str:
    """'Yacht Dice' -> 'dicesolver/YachtDice-v0'."""
    return f"{NAMESPACE}/{re.sub(r'[^A-Za-z0-9]', '', title.split('(')[0])}-v0"


def solitaire_games() -> dict[str, str]:
    """Every one-player game of the registry by its Gymnasium id."""
    out = {}
    for name in registry.game_names():
        game = registry.load(name)
        if game.n_players == 1:
            out[env_id(game.title)] = name
    return out


def register() -> None:
    for ident, name in solitaire_games().items():
        if ident not in gymnasium.registry:
            gymnasium.register(id=ident, entry_point="dicesolver.rl.env:DiceEnv", kwargs={"game": name})
    custom = f"{NAMESPACE}/Custom-v0"
    if custom not in gymnasium.registry:
        gymnasium.register(id=custom, entry_point="dicesolver.rl.env:DiceEnv")


def make(game: str = "yahtzee", **kwargs) -> DiceEnv:
    """A Gymnasium env of one player's game (any game string or rules file)."""
    return DiceEnv(game, **kwargs)


def aec_env(game: str = "generala", players: int | None = None, **kwargs) -> DiceAECEnv:
    """A PettingZoo AEC env of a game for several players (its usual number by default)."""
    return DiceAECEnv(game, players, **kwargs)


register()

__all__ = ["DiceEnv", "DiceAECEnv", "DiceVectorEnv", "make", "make_vec", "aec_env", "register", "env_id", "solitaire_games", "evaluate",
           "load_policy", "random_policy"]
