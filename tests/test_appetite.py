"""The risk appetite a player's choices reveal (``analysis.appetite``, ``dicesolver appetite``): bots of known
theta, perfect or noisy, have their theta recovered within the estimate's interval."""

from __future__ import annotations

import numpy as np
import pytest
from tinygames import BONUS_GAME, rules_file, tiny

from dicesolver.analysis.appetite import appetite, fit_rationality
from dicesolver.core import jsonl, records, registry
from dicesolver.core.errors import InputError
from dicesolver.core.playthrough import Playthrough

THETAS = (-0.5, -0.3, -0.1, 0.0, 0.1, 0.3, 0.5)


def played(game, choose, n: int, seed: int) -> list[Playthrough]:
    """``n`` solitaire games whose decisions ``choose(state, rng)`` makes, as records."""
    rng = np.random.default_rng(seed)
    records = []
    for _ in range(n):
        state, steps = game.start(), []
        while not state.is_terminal():
            if state.is_chance():
                outcomes = state.chance_outcomes()
                step = outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0]
            else:
                step = choose(state, rng)
            steps.append(step)
            state = state.apply(step)
        records.append(Playthrough(game, ["them"], steps))
    return records


@pytest.mark.parametrize("theta", [-0.3, 0.0, 0.3])
def test_a_perfect_bot_of_known_theta_is_recovered(theta):
    game = tiny(BONUS_GAME)
    bot = registry.family_of(game).player(game, f"theta:{theta}" if theta else "optimal")
    a = appetite(played(game, bot.choose, 150, seed=1), thetas=THETAS)
    assert a.low <= theta <= a.high and a.theta == theta
    assert a.informative > 100 and a.decisions > a.informative
    assert ("mean" in a.words) == (theta == 0.0) and ("safer" in a.words) == (theta < 0)


def test_a_noisy_player_of_known_theta_is_recovered():
    """A player who picks options at random with chances exp(beta v) of their values v under theta -0.3 (beta 1
    per point): the interval holds -0.3 and not 0, and the fitted rationality is about 1."""
    game = tiny(BONUS_GAME)
    solution = registry.family_of(game).risk_solution(game, -0.3)

    def choose(state, rng):
        actions, values = zip(*solution.pairs(state, solution.answers([state]), 0))
        w = np.exp(np.array(values) - max(values))
        return actions[rng.choice(len(actions), p=w / w.sum())]

    a = appetite(played(game, choose, 300, seed=2), thetas=THETAS)
    assert a.low <= -0.3 <= a.high and a.high < 0.0
    fitted = next(p for p in a.profile if p.theta == -0.3)
    assert fitted.rationality == pytest.approx(1.0, rel=0.25)


def test_the_rationality_fit_is_the_likelihoods_maximum():
    values = [np.array([0.0, 1.0, 2.0]), np.array([0.0, 0.5]), np.array([3.0, 1.0, 0.0])]
    chosen = [2, 0, 0]

    def loglik(beta):
        return sum(beta * v[c] - np.log(np.exp(beta * v).sum()) for v, c in zip(values, chosen))

    beta, ll = fit_rationality(values, chosen)
    grid = np.linspace(0, 20, 20001)
    assert beta == pytest.approx(grid[np.argmax([loglik(b) for b in grid])], abs=2e-3)
    assert ll == pytest.approx(loglik(beta), abs=1e-9)


def test_appetite_from_the_command_line(tmp_path, capsys):
    """Records written as 'play' writes them; refused input is one line and exit 2."""
    from test_cli import run

    rules = tmp_path / "bonus.toml"
    rules_file(BONUS_GAME, rules)
    game = registry.load(str(rules))
    bot = registry.family_of(game).player(game, "theta:-0.05")
    paths = []
    for i, game_played in enumerate(played(game, bot.choose, 3, seed=3)):
        path = tmp_path / f"game{i}.jsonl"
        jsonl.write_lines(path, records.lines(game_played))
        paths.append(str(path))
    code, out, err = run(capsys, "appetite", *paths, "--plot", str(tmp_path / "a.png"))
    assert code == 0, err
    assert "risk appetite" in out and "95% interval" in out and (tmp_path / "a.png").stat().st_size > 5000
    code, _, err = run(capsys, "appetite", paths[0], "--player", "3")
    assert code == 2 and "no player 3" in err
    with pytest.raises(InputError, match="at least one record"):
        appetite([])
