import json

import numpy as np
import pytest
from test_cli import run
from tinygames import BONUS_GAME, PAIRS_GAME, SET_BONUS_GAME, tiny

from dicesolver import load_game
from dicesolver.analysis.simulate import simulate
from dicesolver.scorecard.solitaire.distribution import perfect_game_probability, score_distribution
from dicesolver.scorecard.solitaire.table import load_or_solve


@pytest.mark.parametrize("make", [lambda: tiny(BONUS_GAME), lambda: tiny(BONUS_GAME, joker="free"),
                                  lambda: tiny(PAIRS_GAME), lambda: load_game("yacht-dice"),
                                  lambda: tiny(SET_BONUS_GAME), lambda: tiny(SET_BONUS_GAME, times="2", upper="off")])
def test_distribution_sums_to_one_and_has_the_solved_mean(make):
    solution, _ = load_or_solve(make())
    dist = score_distribution(solution)
    assert dist.probabilities.sum() == pytest.approx(1.0, abs=1e-12)
    assert (dist.probabilities >= 0).all()
    assert dist.mean == pytest.approx(solution.root_value, abs=1e-9)


@pytest.mark.parametrize("make", [lambda: tiny(BONUS_GAME), lambda: load_game("yacht-dice")])
def test_distribution_is_the_same_on_one_thread_and_on_several(make):
    """The parallel gather writes only inside its own target's histogram (issue 17: it used to write past
    it when an outcome crossed the upper bonus and scored the box's maximum at once, racing another thread)."""
    import numba

    solution, _ = load_or_solve(make())
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = score_distribution(solution).probabilities
    finally:
        numba.set_num_threads(threads)
    several = score_distribution(solution).probabilities
    assert np.array_equal(one, several) and one.sum() == pytest.approx(1.0, abs=1e-12)


def test_distribution_matches_simulation_of_the_same_strategy():
    game = tiny(BONUS_GAME)
    solution, _ = load_or_solve(game)
    dist = score_distribution(solution)
    (sim,) = simulate(game, ["optimal"], n=100_000, seed=2)
    n = sim.scores.n
    freq = np.zeros(len(dist.probabilities))
    scores, counts = sim.scores.nonzero()
    freq[scores] = counts / n
    # every score's frequency within 4.5 standard errors of its exact probability
    se = np.sqrt(dist.probabilities * (1 - dist.probabilities) / n) + 1e-4
    assert np.all(np.abs(freq - dist.probabilities) < 4.5 * se)
    bonus_rate = sim.details["bonus_scores"].n / n
    assert dist.bonus_probability == pytest.approx(bonus_rate, abs=4.5 * np.sqrt(0.25 / 100_000))
    rates = np.array([c.scored_rate for c in sim.summary.categories])
    assert np.allclose(dist.category_probabilities, rates, atol=0.01)


def test_perfect_yacht_dice_game_is_about_one_in_2769e11():
    solution, _ = load_or_solve(load_game("yacht-dice"))
    p = perfect_game_probability(solution)
    assert round(1 / p / 1e14, 3) == 2.769  # the Yacht Dice notebook: 276939929515183.94 games


def test_cli_distribution(capsys, tmp_path):
    code, out, _ = run(capsys, "distribution", "yacht-dice", "--json", "--plot", str(tmp_path / "d.png"))
    data = json.loads(out)
    assert code == 0
    assert data["mean"] == pytest.approx(191.77436918834172, abs=1e-9)
    assert sum(data["probabilities"].values()) == pytest.approx(1.0)
    assert data["percentiles"]["50"] == 193
    assert (tmp_path / "d.png").stat().st_size > 5000
