"""Every registered game and variant against the game protocol (parametrized from the registry, so a game
added later is covered without a line here): text round trips of states and steps, legal actions until
the end, chance probabilities summing to 1, random playouts that end with results in range, the Bellman
equations of its solution at sampled states, advice agreeing with the values, and bad positions
refused with the one documented error."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from tinygames import REDUCED

from dicesolver.core import registry
from dicesolver.core.errors import InputError
from dicesolver.core.protocol import Game, Solution, State

MAX_STEPS = 5_000


def registered_specs() -> list[str]:
    """Every built-in game (or the reduced game its family tests in its place, where the full table is a big
    solve), and each non-default value of each of its variants."""
    specs = []
    for family in registry.families():
        for row in family.catalog():
            name = REDUCED.get(row["name"], row["name"])
            specs.append(row.get("test_spec", name))
            for key, variant in row.get("variants", {}).items():
                specs += [f"{name}({key}={v})" for v in variant["values"] if v != variant["default"]]
    return specs


# Rules files with rules no built-in game has, and their variants: the same checks reach the code paths only they take
RULES_FILES = {str(Path(__file__).parent / "data" / "set-bonus.toml"): ["times=2", "times=every", "upper=off"]}
SPECS = registered_specs() + [f"{path}({v})" if v else path for path, values in RULES_FILES.items()
                              for v in ["", *values]]


def test_the_registry_knows_every_family_and_game():
    assert {f.name for f in registry.families()} == {"scorecard", "pushluck", "despirala", "farkle"}
    assert {"yahtzee", "yatzy", "yacht", "yacht-dice", "yazy", "generala", "crag", "pig", "skunk", "big-pig",
            "despirala", "farkle", "zilch", "kcd"} <= set(registry.game_names())
    assert len(SPECS) >= 18


def test_every_variant_a_family_lists_makes_a_game_and_its_limits_hold():
    """What a variant picker offers (Family.variants) is what game strings take: each named value and each
    number's ends load, the default is the base game's, one step past an end is refused."""
    from dicesolver.core.errors import GameDefinitionError

    for family in registry.families():
        for base in family.names():
            base_game = registry.load(base)
            for v in family.variants(base):
                tries = list(v.values) or [str(v.low), str(v.high)]
                assert v.default in v.values if v.values else v.low <= int(v.default) <= v.high, (base, v)
                for value in tries:
                    game = registry.load(f"{base}({v.key}={value})")
                    assert game.canonical.split("(")[0] == base
                assert registry.load(f"{base}({v.key}={v.default})").canonical == base_game.canonical
                if not v.values:
                    with pytest.raises(GameDefinitionError):
                        registry.load(f"{base}({v.key}={v.high + v.step})")


def playout(game: Game, rng: np.random.Generator) -> list[State]:
    """A random game from the start: random actions, outcomes drawn with their probabilities."""
    state = game.start()
    states = [state]
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            return states
        if state.is_chance():
            outcomes = state.chance_outcomes()
            step = outcomes[rng.choice(len(outcomes), p=np.array([p for _, p in outcomes]) / sum(p for _, p in outcomes))][0]
        else:
            actions = state.legal_actions()
            step = actions[rng.integers(len(actions))]
        state = state.apply(step)
        states.append(state)
    raise AssertionError(f"no end after {MAX_STEPS} steps")


def check_state(game: Game, state: State) -> None:
    text = str(state)
    again = game.parse_state(text)
    assert again == state and hash(again) == hash(state) and str(again) == text, text
    assert isinstance(state.brief(), str) and state.brief()
    hash(state.turn_key())
    if state.is_terminal():
        assert state.player is None and state.to_move() is None
        assert not state.legal_actions() and not state.chance_outcomes()
        return
    assert state.player is not None and 0 <= state.player < game.n_players
    with pytest.raises(InputError):
        state.returns()
    if state.is_chance():
        assert state.to_move() is None and not state.legal_actions()
        outcomes = state.chance_outcomes()
        assert outcomes and all(p > 0 for _, p in outcomes)
        assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-12), text
        assert len({o for o, _ in outcomes}) == len(outcomes)
        for outcome, _ in outcomes[:40]:
            assert state.parse_step(str(outcome)) == outcome, (text, str(outcome))
    else:
        assert state.to_move() == state.player
        actions = state.legal_actions()
        assert actions and len(set(actions)) == len(actions), text
        for action in actions:
            assert state.parse_step(str(action)) == action, (text, str(action))
            assert action.label and action.kind


def check_returns(game: Game, state: State) -> None:
    returns = state.returns()
    assert len(returns) == game.n_players
    if game.family == "pushluck":
        assert sorted(returns) == [0.0, 1.0]
    elif game.family == "scorecard" and game.n_players > 1:
        n = game.n_players
        assert math.isclose(sum(returns), 0.0, abs_tol=1e-9) and all(-1 <= r <= n - 1 for r in returns)
    else:
        assert all(r >= 0 for r in returns)


@pytest.mark.parametrize("spec", SPECS)
def test_playouts_follow_the_protocol(spec):
    rng = np.random.default_rng(7)
    for players in sorted({1, 2, 3} & set(_player_counts(spec))):
        game = registry.load(spec, players)
        assert game.canonical and game.title and game.describe() and game.n_players == players
        for _ in range(2 if players == 1 else 1):
            states = playout(game, rng)
            for state in states[:: max(1, len(states) // 60)] + [states[-1]]:
                check_state(game, state)
            check_returns(game, states[-1])


def _player_counts(spec: str) -> list[int]:
    game = registry.load(spec)
    counts = []
    for n in range(1, 7):
        try:
            game.with_players(n)
            counts.append(n)
        except InputError:
            pass
    return counts


def value_for(solution: Solution, state: State, seat: int) -> float:
    return solution.value(state, seat)


def check_bellman(solution, state: State, tol: float) -> None:
    seat = state.player
    value = solution.value(state)
    s = solution.sign
    if state.is_chance():
        mean = sum(p * value_for(solution, state.apply(o), seat) for o, p in state.chance_outcomes())
        assert value == pytest.approx(mean, abs=tol), str(state)
    else:
        pairs = solution.action_values(state)
        best = max(s * v for _, v in pairs) * s
        assert value == pytest.approx(best, abs=tol), str(state)
        for action, v in pairs:  # each action's value is the value of where it leads
            assert v == pytest.approx(value_for(solution, state.apply(action), seat), abs=tol), (str(state), str(action))
        advice = solution.advise(state)
        assert advice.options[0].value == pytest.approx(value, abs=tol)
        assert all(o.cost >= 0 for o in advice.options)
        costs = [o.cost for o in advice.options]
        assert all(b >= a - tol for a, b in zip(costs, costs[1:]))  # best first (ties within the precision)
        # the arrays' best option (Answers.best reads the first cost of exactly 0) is the first least cost
        answers = solution.answer(solution.encoding.situations([state]))
        row = answers.costs[0, : answers.counts[0]]
        assert row.min() == 0.0 and answers.best()[0] == answers.codes[0, int(np.argmin(row))]


def sampled(states: list[State], rng: np.random.Generator, chance: int, decisions: int) -> list[State]:
    live = [s for s in states if not s.is_terminal()]
    c = [s for s in live if s.is_chance()]
    d = [s for s in live if not s.is_chance()]
    pick = lambda xs, k: [xs[i] for i in rng.choice(len(xs), size=min(k, len(xs)), replace=False)]  # noqa: E731
    return pick(c, chance) + pick(d, decisions)


# what a judge shows beyond its classes on the protocol's side: its table, and the parts of its engine that others call
SHOWN_BY_A_JUDGE = {"game", "info", "encoding", "table", "score", "beat", "model", "memo_for", "numpy_form",
                    "answer_positions"}


def shows_only_the_protocol(solution) -> None:
    """A judge is its answer engine too (``core.solved``): the engine's own parts stay private."""
    from dicesolver.core.solved import SolvedGame

    allowed = SHOWN_BY_A_JUDGE.union(*(vars(c) for c in type(solution).__mro__ if issubclass(c, SolvedGame)))
    shown = {name for name in dir(solution) if not name.startswith("_")}
    assert shown <= allowed, f"{type(solution).__name__} shows its engine's {sorted(shown - allowed)}"


@pytest.mark.parametrize("spec", SPECS)
def test_the_solution_satisfies_the_bellman_equations(spec):
    rng = np.random.default_rng(11)
    game = registry.load(spec)
    solution = registry.solve(game)
    shows_only_the_protocol(solution)
    assert solution.info.game == game.canonical and solution.unit in ("points", "equity", "p_win")
    tol = 1e-5 if solution.tie > 1e-9 else 1e-9
    states = playout(game, rng)
    for state in sampled(states, rng, chance=2, decisions=4):
        check_bellman(solution, state, tol)
    start = game.start()
    assert solution.value(start) == pytest.approx(solution.info.value, abs=tol)
    end = states[-1]
    assert solution.value(end, 0) == pytest.approx(end.returns()[0], abs=tol)


def _solved_exactly_for_two(spec: str) -> bool:
    try:
        game = registry.load(spec, 2)
    except InputError:
        return False
    return "exact" in registry.family_of(game).judges(game)


TWO_PLAYER = [s for s in SPECS if _solved_exactly_for_two(s)]


@pytest.mark.parametrize("spec", TWO_PLAYER)
def test_two_player_solutions_satisfy_the_bellman_equations_in_endgames(spec):
    rng = np.random.default_rng(3)
    game = registry.load(spec, 2)
    states = playout(game, rng)
    late = [s for s in states[len(states) * 3 // 4:] if not s.is_terminal()]
    for state in [late[i] for i in rng.choice(len(late), size=min(4, len(late)), replace=False)]:
        solution = registry.solution_for(state)
        shows_only_the_protocol(solution)
        assert solution.unit in ("equity", "p_win") and solution.exact
        check_bellman(solution, state, 1e-5 if solution.tie > 1e-9 else 1e-9)


MALFORMED = ["", "   ", "x", "1/2/3/4/5", "/99999999999999/9", "none;5;12345;7", "0,0,0@7", "§", "-1,-1",
             "a=b/c/d", "[/x]", "ones=3;;;;;;;/-/3", "|||", "all;999", "999999,0,0", None, 3]


@pytest.mark.parametrize("spec", SPECS)
def test_malformed_and_impossible_positions_are_refused_with_one_error(spec):
    game = registry.load(spec)
    for text in MALFORMED:
        with pytest.raises(InputError):
            game.parse_state(text)
    # a real position with one impossible change
    state = playout(game, np.random.default_rng(5))[3]
    text = str(state)
    for bad in (text + "/1", text + ";" * 7, text.replace("/", "//", 1) if "/" in text else text + "|x|y|z|w|v|u"):
        with pytest.raises(InputError):
            game.parse_state(bad)
