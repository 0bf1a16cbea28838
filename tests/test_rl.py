"""Reinforcement-learning environments: every game of the registry passes Gymnasium's or PettingZoo's own
checks, masks allow exactly the legal actions, seeds reproduce games, and the exact solution's play through
the env scores its expected value with zero regret."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test
from tinygames import BONUS_GAME, REDUCED

import dicesolver.rl as rl
from dicesolver.core import registry

SOLITAIRE = sorted(rl.solitaire_games().items())
# every game of the registry for several players: its usual number, or two (and Yacht for three)
SEVERAL = [(name, None if registry.load(name).n_players > 1 else 2) for name in registry.game_names()] + [("yacht", 3)]


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
    if name in REDUCED:  # its judge's table takes minutes to solve: the same env checked on the reduced game
        env = gymnasium.make("dicesolver/Custom-v0", rules=REDUCED[name])
    # gymnasium's checker steps with actions sampled from the action space, assuming any action is legal in
    # any state; sampled with no mask, ours draws a legal one of the state at hand, but the determinism
    # check samples before its seeded reset: with the space seeded, the whole check is the same every run
    env.unwrapped.action_space.seed(0)
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
    """Random masked play: every allowed index is a legal step, and every legal step has its index allowed;
    ``is_legal`` (what ``step_of`` checks) says the same as the mask."""
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
            assert {a for a in range(enc.n_actions) if enc.is_legal(state, a)} == allowed
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


@pytest.mark.parametrize("name", ["bonus", "yahtzee", "yacht"])
def test_the_vector_env_in_the_kernels_plays_as_the_protocol(name, tmp_path):
    """Every environment of the kernels' vector env, replayed through the game protocol with the dice it
    threw and the same random legal actions: the same observations, masks, rewards and ends; and with the
    judge, the same exact values and regrets as the one-player env's solution."""
    from dicesolver.scorecard.game.state import Roll

    game = registry.load(str(bonus_rules(tmp_path)) if name == "bonus" else name)
    family = registry.family_of(game)
    enc = family.encoding(game)
    solution = registry.solve(game)
    n = 16
    vec = rl.make_vec(game, n, judge=True)
    assert isinstance(vec, rl.DiceVectorEnv)
    obs, info = vec.reset(seed=7)

    def thrown(state, i):
        return state.apply(Roll(tuple(int(d) for d in obs["dice"][i]), game.faces))

    states = [thrown(game.start(), i) for i in range(n)]
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(3 * game.n_categories * game.rolls):
        for i, state in enumerate(states):
            want = enc.observe(state, 0)
            for key in want:
                assert np.array_equal(obs[key][i], want[key]), (key, i, str(state))
            assert np.array_equal(obs["action_mask"][i], enc.mask(state))
            assert info["value"][i] == pytest.approx(solution.value(state), abs=1e-9)
        # a finished game restarts at the next step, whatever its action (next-step autoreset)
        actions = np.array([0 if s.is_terminal() else rng.choice(np.nonzero(obs["action_mask"][i])[0])
                            for i, s in enumerate(states)])
        obs, rewards, terminated, truncated, info = vec.step(actions)
        for i in range(n):
            before = states[i]
            if before.is_terminal():
                assert rewards[i] == 0 and not terminated[i] and info["regret"][i] == 0
                states[i] = thrown(game.start(), i)
                continue
            step = enc.step_of(before, int(actions[i]))
            values = dict(solution.action_values(before))
            assert info["regret"][i] == pytest.approx(max(values.values()) - values[step], abs=1e-9)
            after = before.apply(step)
            assert rewards[i] == family.totals(after)[0] - family.totals(before)[0]
            assert terminated[i] == after.is_terminal() and not truncated[i]
            ended += after.is_terminal()
            states[i] = after if after.is_terminal() else thrown(after, i)
    assert ended >= n


def test_the_vector_env_is_reproducible_and_refuses_illegal_actions():
    def games(seed):
        vec = rl.make_vec("yacht", 8)
        obs, _ = vec.reset(seed=seed)
        seen = [obs["dice"]]
        for _ in range(30):
            obs, *_ = vec.step(obs["action_mask"].shape[1] - 1 - np.argmax(obs["action_mask"][:, ::-1], axis=1))
            seen.append(obs["dice"])
        return np.array(seen)

    assert np.array_equal(games(3), games(3)) and not np.array_equal(games(3), games(4))
    vec = rl.make_vec("yacht", 4)
    obs, info = vec.reset(seed=1)
    assert info == {}
    with pytest.raises(Exception, match="not one of 0..43"):
        vec.step(np.full(4, 99))
    vec.step(np.full(4, 32))  # score ones everywhere
    with pytest.raises(Exception, match=r"action 32 \(score ones\) is not legal now"):
        vec.step(np.full(4, 32))
    assert isinstance(rl.make_vec("despirala", 2), __import__("gymnasium").vector.SyncVectorEnv)


def test_shaped_rewards_of_several_players_add_up_to_the_result():
    """Pig judged by its exact solution: each agent's shaped rewards over a game add up to its return minus
    its first P(win); unshaped, the winner gets +1 and the loser -1 at the end only."""
    for shaped in (True, False):
        env = rl.aec_env("pig", judge=True, shaped=shaped)
        for seed in range(5):
            env.reset(seed=seed)
            first = [env._seat_value(env.state, s) for s in range(2)]
            got = {a: 0.0 for a in env.possible_agents}
            rng = np.random.default_rng(seed)
            for agent in env.agent_iter():
                obs, reward, termination, truncation, _ = env.last()
                got[agent] += reward
                env.step(None if termination or truncation else int(rng.choice([0, 0, 0, 1])))
            returns = env.state.returns()
            for seat, agent in enumerate(env.possible_agents):
                want = returns[seat] - first[seat] if shaped else (1.0 if returns[seat] == 1 else -1.0)
                assert got[agent] == pytest.approx(want, abs=1e-9)
    with pytest.raises(Exception, match="judge=True"):
        rl.aec_env("pig", shaped=True)


def test_the_action_space_samples_legal_actions():
    """A random agent's env.action_space.sample() plays the game: with no mask it draws a legal action of the
    state at hand (an explicit mask is used as given)."""
    import gymnasium

    env = gymnasium.make("dicesolver/Despirala-v0", judge=False).unwrapped
    env.reset(seed=1)
    env.action_space.seed(1)
    for _ in range(300):
        legal = env.encoding.mask(env.state)
        action = env.action_space.sample()
        assert legal[action]
        _, _, over, _, _ = env.step(action)
        if over:
            env.reset()
    only = np.zeros(env.action_space.n, dtype=np.int8)
    only[3] = 1
    assert env.action_space.sample(mask=only) == 3
