"""One player's game as a Gymnasium environment, judged by the exact solution.

Written once over the game protocol and the family's ``Encoding``: observations are the encoding's arrays
and ``action_mask``; an action is an index of the encoding's list; the throws are drawn from the env's
own generator (``reset(seed=...)`` makes a game reproducible). The reward is the points an action scores
(bonuses included), or with ``shaped=True`` the change in the exact expected final score (its sum over a
game is the final score minus the value of the first throw, which ``reset`` gives in ``info``). ``info`` carries the state's exact value and the
regret of the last action (the best action's value minus its value), from the game's solved table
(solved on first use and cached, like every table); ``judge=False`` leaves them out, for speed.
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any, Callable, Iterator

import gymnasium
import numpy as np
from gymnasium import spaces

from ..core import registry
from ..core.encoding import Encoding
from ..core.errors import InputError
from ..core.protocol import Game, State, Step
from ..core.solved import SolvedGame


def observation_space(encoding: Encoding) -> spaces.Dict:
    arrays: dict[str, spaces.Space[Any]] = {name: spaces.Box(spec.low, spec.high, spec.shape, dtype=np.int64)
                                           for name, spec in encoding.observation_spec().items()}
    arrays["action_mask"] = spaces.Box(0, 1, (encoding.n_actions,), dtype=np.int8)
    return spaces.Dict(arrays)


@contextlib.contextmanager
def solving(label: str) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on the terminal while a judge's table is solved (none when stderr is not a terminal)."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn(label), BarColumn(), TimeRemainingColumn(), console=Console(stderr=True),
                  transient=True) as bar:
        task = bar.add_task(label, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def solve_for_judge(game: Game) -> SolvedGame:
    """The game's solution (loaded from the cache, or solved now with a progress bar and cached)."""
    with solving(f"solving {game.canonical} to judge the agent (once; cached)") as update:
        return registry.solve(game, progress=update)


def draw(state: State, rng: np.random.Generator) -> State:
    """Throw the dice until someone decides (or the game ends)."""
    while state.is_chance():
        outcomes = state.chance_outcomes()
        p = np.array([w for _, w in outcomes])
        state = state.apply(outcomes[int(rng.choice(len(outcomes), p=p / p.sum()))][0])
    return state


class LegalActions(spaces.Discrete):
    """The action space of one game: ``sample()`` with no mask draws a legal action of the state the game
    is in (random agents, and gymnasium's own checks, then play the game instead of breaking its rules);
    an explicit mask or probability is used as given."""

    def __init__(self, n: int, legal: Callable[[], np.ndarray]):
        super().__init__(n)
        self._legal = legal

    def sample(self, mask=None, probability=None):
        if mask is None and probability is None:
            mask = self._legal().astype(np.int8)
        return super().sample(mask=mask, probability=probability)


class DiceEnv(gymnasium.Env):
    """A solitaire game of the registry: every scorecard preset, variant and rules file, and Despirala."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, game: str | Game = "yahtzee", rules: str | None = None, shaped: bool = False,
                 judge: bool = True, render_mode: str | None = None):
        loaded = registry.load(rules if rules is not None else game)
        if loaded.n_players != 1:
            raise InputError(f"{loaded.canonical} is played by {loaded.n_players}: use dicesolver.rl.aec_env")
        self.game = loaded
        self.family = registry.family_of(loaded)
        self.encoding = self.family.encoding(loaded)
        self.observation_space = observation_space(self.encoding)
        self.action_space = LegalActions(self.encoding.n_actions, lambda: self.encoding.mask(self.state))
        if shaped and not judge:
            raise InputError("shaped rewards are the solver's values: they need judge=True")
        self.shaped, self.judge = shaped, judge
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InputError(f"render_mode is 'ansi' or None, not {render_mode!r}")
        self.render_mode = render_mode
        self._solution: SolvedGame | None = None
        self.state: State = loaded.start()

    def __repr__(self) -> str:
        return f"<DiceEnv {self.game.canonical!r}: {self.encoding.n_actions} actions>"

    @property
    def solution(self) -> SolvedGame:
        """The exact solution that judges (solved on first use, then cached on disk)."""
        if self._solution is None:
            self._solution = solve_for_judge(self.game)
        return self._solution

    def observation(self) -> dict[str, np.ndarray]:
        obs = self.encoding.observe(self.state, 0)
        obs["action_mask"] = self.encoding.mask(self.state)
        return obs

    def action_values(self) -> dict[int, float]:
        """The exact value of every legal action now (by action index)."""
        return {self.encoding.action_of(self.state, step): value
                for step, value in self.solution.action_values(self.state)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self.state = draw(self.game.start(), self.np_random)
        return self.observation(), {"value": self.solution.value(self.state)} if self.judge else {}

    def step(self, action):
        before = self.state
        step: Step = self.encoding.step_of(before, int(action))
        info: dict[str, float] = {}
        if self.judge:
            values = dict(self.solution.action_values(before))
            sign = self.solution.sign
            info["regret"] = max(0.0, sign * (max(values.values(), key=lambda v: sign * v) - values[step]))
        self.state = draw(before.apply(step), self.np_random)
        terminated = self.state.is_terminal()
        if self.judge:
            info["value"] = self.solution.value(self.state)
        if self.shaped:
            reward = info["value"] - self.solution.value(before)
        else:
            reward = self.family.totals(self.state)[0] - self.family.totals(before)[0]
        return self.observation(), float(reward), terminated, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        board = self.family.board(self.state, ["agent"])
        rows = ["  ".join([board.columns[0]] + list(board.columns[1:]))]
        rows += ["  ".join(row) for row in board.rows]
        return f"{self.state.brief()}\n" + "\n".join(rows)
