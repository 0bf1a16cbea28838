"""Reinforcement-learning environments: every game of the registry passes Gymnasium's or PettingZoo's own
checks, masks allow exactly the legal actions, seeds reproduce games, and the exact solution's play through
the env scores its expected value with zero regret."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test
from tinygames import BONUS_GAME

import dicesolver.rl as rl
from dicesolver.core import registry

SOLITAIRE = sorted(rl.solitaire_games().items())
SEVERAL = [("pig", None), ("skunk", None), ("big-pig", None), ("generala", 2), ("yacht", 3), ("despirala", 2)]


def bonus_rules(tmp_path):
    """BONUS_GAME (upper bonus, extra yachts, jokers) as a rules file."""
    lines = ['name = "bonusgame"', "dice = 3", "faces = 3", "rolls = 2", "[upper_bonus]", "threshold = 6",
             "points = 10", "[yahtzee_bonus]", 'category = "yacht"', "points = 20", 'joker = "forced"',
             'joker_categories = ["run"]']
    for c in BONUS_GAME["categories"]:
        lines.append("[[categories]]")
        for k, v in c.items():
            lines.append(f"{k} = {v!r}".replace("'", '"').replace("(", "[").replace(")", "]"))
    path = tmp_path / "bonus.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("ident,name", SOLITAIRE)
def test_every_solitaire_game_is_a_gymnasium_env(ident, name):
    import gymnasium

    env = gymnasium.make(ident)
    assert env.unwrapped.game.canonical == registry.load(name).canonical
    check_env(env.unwrapped, skip_render_check=False)


def test_a_rules_file_is_a_gymnasium_env(tmp_path):
    import gymnasium

    env = gymnasium.make("dicesolver/Custom-v0", rules=str(bonus_rules(tmp_path)))
    check_env(env.unwrapped)
    with pytest.raises(Exception, match="use dicesolver.rl.aec_env"):
        rl.make("pig")


@pytest.mark.parametrize("game,players", SEVERAL)
def test_every_game_of_several_players_is_a_pettingzoo_env(game, players):
    api_test(rl.aec_env(game, players), num_cycles=300)
    seed_test(lambda: rl.aec_env(game, players), num_cycles=100)


@pytest.mark.parametrize("name", ["yacht", "yahtzee", "despirala"])
def test_masks_allow_exactly_the_legal_actions(name):
    """Random masked play: every allowed index is a legal step, and every legal step has its index allowed."""
    env = rl.make(name)
    enc = env.encoding
    rng = np.random.default_rng(4)
    obs, _ = env.reset(seed=9)
    steps = 0
    for _ in range(3):
        terminated = False
        while not terminated:
            state = env.state
            legal = {enc.action_of(state, s) for s in state.legal_actions()}
            allowed = set(np.nonzero(obs["action_mask"])[0])
            assert legal <= allowed
            for a in allowed:
                assert enc.step_of(state, int(a)) in state.legal_actions()
            for a in set(range(enc.n_actions)) - allowed:
                with pytest.raises(Exception, match="not legal"):
                    enc.step_of(state, int(a))
            obs, _, terminated, _, info = env.step(int(rng.choice(sorted(allowed))))
            assert info["regret"] >= 0
            steps += 1
        obs, _ = env.reset()
    assert steps > 30


def test_seeds_reproduce_games():
    def play(seed):
        env = rl.make("yacht")
        obs, _ = env.reset(seed=seed)
        seen = [obs["dice"].copy()]
        rng = np.random.default_rng(0)
        for _ in range(20):
            obs, *_ = env.step(int(rng.choice(np.nonzero(obs["action_mask"])[0])))
            seen.append(obs["dice"].copy())
        return np.array(seen)

    assert np.array_equal(play(5), play(5)) and not np.array_equal(play(5), play(6))


def test_the_exact_policy_scores_its_expected_value_with_no_regret(tmp_path):
    """Optimal play through the env: its mean score is the table's value within the interval, its regret is
    0, and the shaped rewards of each game add up to the final score minus its first throw's value."""
    env = rl.make(rules=str(bonus_rules(tmp_path)))
    shaped = rl.make(rules=str(bonus_rules(tmp_path)), shaped=True)
    start = env.solution.root_value
    totals = []
    obs, info = env.reset(seed=1)
    shaped.reset(seed=1)
    for _ in range(1500):
        first = info["value"]  # the value of the first throw
        total = shaped_total = regret = 0.0
        terminated = False
        while not terminated:
            values = env.action_values()
            best = max(values, key=values.get)
            obs, reward, terminated, _, info = env.step(best)
            _, shaped_reward, _, _, _ = shaped.step(best)
            total += reward
            shaped_total += shaped_reward
            regret += info["regret"]
        assert regret == pytest.approx(0, abs=1e-9)
        assert shaped_total == pytest.approx(total - first, abs=1e-6)
        totals.append(total)
        obs, info = env.reset()
        shaped.reset()
    mean, sd = np.mean(totals), np.std(totals)
    assert abs(mean - start) < 4 * sd / np.sqrt(len(totals))


def test_a_pettingzoo_game_judged_by_the_solver():
    """Pig for two with the exact solution: info carries P(win) of the agent on turn, and the exact best
    action's regret is 0 while holding at 0 points to start is a positive regret."""
    env = rl.aec_env("pig", judge=True)
    env.reset(seed=3)
    agent = env.agent_selection
    assert 0 < env.infos[agent]["value"] < 1
    env.step(1)  # hold with nothing at risk: passes the turn for nothing
    assert env.infos[agent]["regret"] > 0.01


def test_evaluate_judges_a_policy_against_the_optimal_player(tmp_path, capsys):
    """The optimal policy's regret is 0 and its gap 0; a policy that scores at once loses points, and its
    exact regret per game estimates the points it loses on the same seeds."""
    import json

    from test_cli import run

    best = rl.evaluate("optimal", "yacht", n=10, name="optimal")
    assert best.regret_per_game == 0 and best.gap == 0 and best.mean == best.optimal_mean
    policy = tmp_path / "policy.py"
    policy.write_text("import numpy as np\n\ndef last(obs):\n    return int(np.nonzero(obs['action_mask'])[0][-1])\n")
    code, out, _ = run(capsys, "rl-eval", "yacht", "--policy", f"{policy}:last", "-n", "40", "--json")
    result = json.loads(out)
    assert code == 0 and result["games"] == 40 and result["gap"] > 50
    assert abs(result["regret_per_game"] - result["gap"]) < 3 * result["gap_ci95"] + 1
    for bad, words in ((f"{policy}:nothing", "has no"), ("nope", "a policy is"), ("missing.py:f", "no such file"),
                       ("model.zip", "sb3-contrib")):
        code, _, err = run(capsys, "rl-eval", "yacht", "--policy", bad, "-n", "2")
        assert code == 2 and words in err
    code, _, err = run(capsys, "rl-eval", "pig", "--policy", "random", "-n", "2")
    assert code == 2 and "aec_env" in err


def test_without_the_judge_no_table_is_needed():
    env = rl.make("yacht", judge=False)
    obs, info = env.reset(seed=2)
    assert info == {} and env._solution is None
    _, _, _, _, info = env.step(int(np.nonzero(obs["action_mask"])[0][0]))
    assert info == {} and env._solution is None
    with pytest.raises(Exception, match="judge=True"):
        rl.make("yacht", judge=False, shaped=True)
