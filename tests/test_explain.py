"""Why an option is worth what it is (``ds.explain``, ``advise --explain``): each option's expected final score
split by aspect, and its standard deviation, against a slow reference that plays the protocol to the end."""

import json
import math
import random
from functools import lru_cache

import numpy as np
import pytest
from test_cli import run
from tinygames import BONUS_GAME, PAIRS_GAME, SET_BONUS_GAME, rules_file, tiny

import dicesolver as ds
from dicesolver.core.errors import InputError
from dicesolver.scorecard.solitaire.breakdown import aspect_names
from dicesolver.scorecard.solitaire.distribution import score_distribution

TINY = {"bonus": lambda: tiny(BONUS_GAME), "bonus-free": lambda: tiny(BONUS_GAME, joker="free"),
        "bonus-forced-order": lambda: tiny(BONUS_GAME, order="forced"), "pairs": lambda: tiny(PAIRS_GAME),
        "set-bonus": lambda: tiny(SET_BONUS_GAME)}


def final_aspects(game, card) -> np.ndarray:
    """A finished card's points by aspect: its boxes, the set bonuses, the extra bonuses."""
    out = np.zeros(game.n_categories + 2)
    out[:game.n_categories] = card.boxes
    out[-2] = game.bonuses_earned(card.boxes)
    out[-1] = card.extra_bonus
    return out


def reference(solution):
    """(E[final points by aspect], E[final score squared]) from a state, by playing it out through the protocol:
    every throw's outcomes weighed, every decision the first best option by the solution's values (the
    optimal player's: the first of the largest in the order listed, as the kernels choose, to the bit; some
    options are equal in value and not in spread: keeping a 2 or nothing for Chance alone, say)."""
    game = solution.game

    @lru_cache(maxsize=None)
    def play_out(state):
        if state.is_terminal():
            parts = final_aspects(game, state.cards[0])
            return parts, float(parts.sum()) ** 2
        if state.is_chance():
            parts, square = np.zeros(game.n_categories + 2), 0.0
            for step, p in state.chance_outcomes():
                sub, sq = play_out(state.apply(step))
                parts, square = parts + p * sub, square + p * sq
            return parts, square
        pairs = solution.action_values(state)
        best = max(v for _, v in pairs)
        step = next(s for s, v in pairs if v == best)
        return play_out(state.apply(step))

    return play_out


def decisions(game, n, seed, throws=None):
    """``n`` decision states met by a random player (random keeps and boxes) from the start (and in ``throws``
    the states before each throw)."""
    rng = random.Random(seed)
    out = []
    state = game.start()
    while len(out) < n:
        if state.is_terminal():
            state = game.start()
        elif state.is_chance():
            if throws is not None:
                throws.append(state)
            steps, probs = zip(*state.chance_outcomes())
            state = state.apply(rng.choices(steps, probs)[0])
        else:
            out.append(state)
            state = state.apply(rng.choice(list(state.legal_actions())))
    return out


@pytest.mark.parametrize("name", sorted(TINY))
def test_every_option_is_split_as_the_reference_plays_it_out(name):
    game = TINY[name]()
    solution = ds.solve(game)
    play_out = reference(solution)
    names = aspect_names(game)
    throws = []
    for state in decisions(game, 60, seed=len(name), throws=throws):
        why = solution.explain(state)
        assert len(why.options) == len(state.legal_actions())
        by_action = {str(a): a for a in state.legal_actions()}
        for option in why.options:
            parts, square = play_out(state.apply(by_action[option.action]))
            got = np.array([option.breakdown[n] for n in names])
            assert got == pytest.approx(parts, abs=1e-9), (str(state), option.action)
            assert sum(option.breakdown.values()) == pytest.approx(option.value, abs=1e-9)
            assert option.sd == pytest.approx(math.sqrt(max(square - parts.sum() ** 2, 0.0)), abs=1e-6)
    for state in throws:  # a turn's start, or a throw of the dice not held
        why = solution.explain(state)
        parts, square = play_out(state)
        assert why.options == [] and why.value == pytest.approx(parts.sum(), abs=1e-9), str(state)
        assert np.array([why.breakdown[n] for n in names]) == pytest.approx(parts, abs=1e-9), str(state)
        assert why.sd == pytest.approx(math.sqrt(max(square - parts.sum() ** 2, 0.0)), abs=1e-6)


@pytest.mark.parametrize("name", ["yahtzee", pytest.param("yatzy", marks=pytest.mark.essay), "yacht", "generala",
                                  "crag", "yazy", "yacht-dice"])
def test_every_preset_splits_its_options_into_their_values(name):
    """The options' splits sum to the values advice gives, on positions of every built-in scorecard game (the
    tables of the larger games are built once per cache)."""
    game = ds.load_game(name)
    if game.n_players != 1:
        game = game.with_players(1)
    solution = ds.solve(game)
    for state in decisions(game, 40, seed=7):
        why = solution.explain(state)
        advice = solution.advise(state)
        assert [o.action for o in why.options] == [o.action for o in advice.options]
        assert [o.value for o in why.options] == [o.value for o in advice.options]
        for option in why.options:
            assert sum(option.breakdown.values()) == pytest.approx(option.value, abs=1e-9)
        assert sum(why.breakdown.values()) == pytest.approx(why.value, abs=1e-9)
        assert why.best == why.options[0].action


@pytest.mark.parametrize("make", [lambda: tiny(BONUS_GAME), lambda: tiny(PAIRS_GAME), lambda: ds.load_game("yacht-dice")])
def test_the_start_has_the_exact_distributions_spread(make):
    game = make()
    solution = ds.solve(game)
    dist = score_distribution(solution.table)
    scores = np.arange(len(dist.probabilities))
    mean = float(dist.probabilities @ scores)
    sd = math.sqrt(float(dist.probabilities @ (scores - mean) ** 2))
    why = solution.explain(game.start())
    assert why.value == pytest.approx(mean, abs=1e-9)
    assert why.sd == pytest.approx(sd, abs=1e-7)
    assert why.options == [] and why.best is None


def test_yacht_dice_figures():
    """Yacht Dice's start: 191.774369 with a spread of 37.856 (the exact distribution's)."""
    why = ds.explain("yacht-dice", "/-/3")
    assert round(why.value, 6) == 191.774369
    assert round(why.sd, 3) == 37.856


def test_the_best_is_set_against_the_second_or_the_named_option():
    why = ds.explain("yacht-dice", "/13456/2")
    assert (why.best, why.versus) == ("keep 3456", why.options[1].action)
    assert why.summary.startswith(f"keep 3456 over {why.versus} (+")
    assert [abs(d.difference) for d in why.differences] == sorted((abs(d.difference) for d in why.differences),
                                                                   reverse=True)
    best, other = why.options[0], why.options[1]
    assert sum(d.difference for d in why.differences) == pytest.approx(best.value - other.value, abs=1e-3)
    named = ds.explain("yacht-dice", "/13456/2", versus="keep 5")
    assert named.versus == "keep 5"
    assert ds.explain("yacht-dice", "/13456/2", versus="keep 3456").versus == why.versus  # the best: the second
    with pytest.raises(InputError, match="already filled"):
        ds.explain("yacht-dice", "sixes=24/13456/2", versus="score sixes")
    with pytest.raises(InputError, match="the options to set against the best are: keep 3456, keep 345"):
        ds.explain("yacht-dice", "/13456/2", versus="keep 7")


TWO_PERSON_END = ("ones=1,twos=2,threes=3,fours=4,fives=5,sixes=6,full_house=20,four_of_a_kind=20,little_straight=30,"
                  "big_straight=30,choice=20;ones=2,twos=4,threes=6,fours=8,fives=10,sixes=12,full_house=25,"
                  "four_of_a_kind=24,big_straight=30,little_straight=0,choice=22/12345/2")


def check_beside_points(solution, state, why):
    """A chance or an equity explained beside the points alone: the judge's own options in its order and values,
    each with the expected-score judge's points, split and spread for the card of the player on turn."""
    advice = solution.advise(state)
    alone = ds.solve(solution.game.with_players(1), judge="points")
    points = {o.action: o for o in alone.explain(state).options}
    assert why.split_unit == "points" and why.unit == advice.unit and advice.explains
    assert [(o.action, o.value, o.cost) for o in why.options] == [(o.action, o.value, o.cost) for o in advice.options]
    assert why.points == pytest.approx(alone.explain(state).value, abs=1e-12)
    for option in why.options:
        assert option.points == points[option.action].value
        assert option.points == pytest.approx(alone.advise(state).options[0].value - next(
            o.cost for o in alone.advise(state).options if o.action == option.action), abs=1e-9)
        assert sum(option.breakdown.values()) == pytest.approx(option.points, abs=1e-9)
        assert option.sd == points[option.action].sd
    if len(why.options) < 2:
        assert why.versus is None and why.best == advice.options[0].action
        return
    best, other = why.options[0], next(o for o in why.options if o.action == why.versus)
    assert sum(d.difference for d in why.differences) == pytest.approx(best.points - other.points, abs=1e-3)
    assert why.summary.startswith(f"{best.action} over {other.action} (") and "as if alone it scores" in why.summary


def test_a_two_person_equity_is_explained_beside_the_points_alone():
    """The two-person table's equity (a sub-game's here) is not split: each option's points as if alone stand
    beside it, split by box."""
    from dicesolver.core import registry

    state = ds.parse_state("yacht", TWO_PERSON_END)
    solution = registry.solution_for(state)
    assert solution.judge == "exact" and solution.unit == "equity"
    why = ds.explain("yacht", TWO_PERSON_END)
    check_beside_points(solution, state, why)
    best, second = why.options[0].value, why.options[1].value  # +1 win, 0 draw, -1 loss: (1 + e) / 2 is a chance
    assert f"equity: a chance of winning of {50 * (1 + best):.1f}% against {50 * (1 + second):.1f}%" in why.summary
    versus = why.options[-1].action
    assert ds.explain("yacht", TWO_PERSON_END, versus=versus).versus == versus


def test_a_chance_of_a_target_and_the_mindful_model_are_explained_beside_the_points_alone():
    from dicesolver.core import registry

    game = tiny(BONUS_GAME)
    target = registry.family_of(game).target_solution(game, 30)
    for state in decisions(game, 40, seed=5):
        check_beside_points(target, state, target.explain(state))
    mindful = ds.solve("yacht", players=3, judge="mindful")
    position = "sixes=18;fours=12;ones=2,twos=4/11456/1"
    check_beside_points(mindful, mindful.game.parse_state(position), mindful.explain(position))


def test_advise_explain_on_the_command_line(capsys, tmp_path):
    code, out, _ = run(capsys, "advise", "yacht-dice", "/13456/2", "--explain", "--top", "3")
    assert code == 0, out
    assert "sd" in out and "why keep 3456 over" in out and "keep 3456 over" in out
    code, out, _ = run(capsys, "advise", "yacht-dice", "/13456/2", "--explain", "--json", "--versus", "keep 5")
    assert code == 0, out
    data = json.loads(out)
    assert data["versus"] == "keep 5"
    for option in data["options"]:
        assert set(option) >= {"breakdown", "sd", "value", "cost", "action"}
        assert sum(option["breakdown"].values()) == pytest.approx(option["value"], abs=1e-9)
    for args in (("--versus", "keep 5"), ("--explain", "--versus", "keep 9")):
        code, _, err = run(capsys, "advise", "yacht-dice", "/13456/2", *args)
        assert code == 2 and "error" in err
    rules = str(rules_file(BONUS_GAME, tmp_path / "bonus.toml"))  # a tiny game: its target table in moments
    code, out, err = run(capsys, "advise", rules, "/113/1", "--explain", "--target", "50")
    assert code == 0 and "P(target)" in out and "points alone" in out, err
    assert "keep 11 over keep 3 (+0.0150 chance); as if alone it scores 3.18 points more: extra bonuses +3.79" in out
    code, out, err = run(capsys, "advise", "yacht", TWO_PERSON_END, "--explain", "--json")
    data = json.loads(out)
    assert code == 0 and data["split_unit"] == "points" and data["unit"] == "equity", err


def test_a_review_teaches_its_costliest_decisions(capsys, tmp_path):
    """``analyze --explain``: after the review, the costliest decisions, each with why the best beat the move in
    one sentence and the spread of the final score after each."""
    from dicesolver.play.session import Session

    game = ds.load_game("yacht-dice")
    record = tmp_path / "mine.jsonl"
    played = Session.new(game, [], seed=3, path=str(record))
    solution = ds.solve(game)
    while not (state := played.state).is_terminal():  # always the second-worst option
        if state.is_chance():
            played.play(played.draw())
        else:
            options = solution.advise(state).options
            played.play(state.parse_step(options[-2 if len(options) > 1 else 0].action))
    code, out, err = run(capsys, "analyze", str(record), "--explain")
    assert code == 0, err
    taught = out[out.index("your costliest decisions, and why:"):].splitlines()[1:]
    assert len(taught) == 5 and all(" beats " in line and "turn " in line and "sd of the final score" in line
                                    for line in taught), taught
    from dicesolver.core.registry import read_record

    review = solution.review(read_record(record))
    costliest = max(d.loss for d in review.mine())
    assert f" by {costliest:.2f} points" in taught[0]
    code, _, err = run(capsys, "analyze", str(record), "--explain", "--json")
    assert code == 2 and "--explain" in err


@pytest.mark.parametrize("game,mine,theirs,now", [("pig(goal=30)", 12, 20, 4), ("pig(goal=30)", 24, 0, 3),
                                                  ("pig", 60, 85, 18)])
def test_a_race_splits_its_chance_into_winning_this_turn_or_later(game, mine, theirs, now):
    """Pig's chance of winning this turn under the optimal policy, by its own rules (a 1 ends the turn, the
    other faces add to it, holding banks it), beside the split the protocol plays out; and so the chance of
    busting this turn (a 1 before holding or winning)."""
    solution = ds.solve(game)
    goal = solution.game.goal

    @lru_cache(maxsize=None)
    def this_turn(total):
        if mine + total >= goal:
            return 1.0
        if solution.advise(f"{mine},{theirs},{total}").best.action == "hold":
            return 0.0
        return sum(this_turn(total + face) for face in range(2, 7)) / 6

    @lru_cache(maxsize=None)
    def busts(total):
        if mine + total >= goal or solution.advise(f"{mine},{theirs},{total}").best.action == "hold":
            return 0.0
        return 1 / 6 + sum(busts(total + face) for face in range(2, 7)) / 6

    why = ds.explain(game, f"{mine},{theirs},{now}")
    for option in why.options:
        assert sum(option.breakdown.values()) == pytest.approx(option.value, abs=1e-12)
        assert option.sd == pytest.approx(math.sqrt(option.value * (1 - option.value)), abs=1e-12)
    throw = next(o for o in why.options if o.action == "throw")
    assert throw.breakdown["win_this_turn"] == pytest.approx(sum(this_turn(now + f) for f in range(2, 7)) / 6,
                                                             abs=1e-12)
    assert throw.chances["bust_this_turn"] == pytest.approx(1 / 6 + sum(busts(now + f) for f in range(2, 7)) / 6,
                                                            abs=1e-12)
    hold = next(o for o in why.options if o.action == "hold")
    assert hold.breakdown["win_this_turn"] == (1.0 if mine + now >= goal else 0.0)
    assert hold.chances["bust_this_turn"] == 0.0 and why.chances["bust_this_turn"] == pytest.approx(
        max(throw, hold, key=lambda o: o.value).chances["bust_this_turn"], abs=1e-12)
    assert why.breakdown["win_this_turn"] == pytest.approx(max(throw, hold, key=lambda o: o.value)
                                                           .breakdown["win_this_turn"], abs=1e-12)


def test_a_race_explained_on_the_command_line(capsys):
    code, out, err = run(capsys, "advise", "pig", "60,85,18", "--explain")
    assert code == 0, err
    assert "winning this turn" in out and "winning later" in out and " over " in out
    code, out, err = run(capsys, "advise", "pig", "60,85,18", "--chances")
    assert code == 0 and "busting" in out and "66%" in out, err  # the header may wrap at 80 columns


def test_the_chances_of_the_prizes_are_the_exact_distributions():
    """Each prize's chance, from the breakdown (its expected points over its fixed amount), is the chance the
    exact score distribution gives it (a forward pass over every state, computed apart): the upper bonus and
    each box of fixed points, at a game's start; and every option's lie in [0, 1]."""
    from dicesolver.core.why import chance_words
    from dicesolver.scorecard.solitaire.distribution import score_distribution
    from dicesolver.scorecard.solitaire.table import load_or_solve

    game = ds.load_game("yacht-dice")
    solution, _ = load_or_solve(game)
    dist = score_distribution(solution)
    start = ds.explain("yacht-dice", "/-/3")
    assert start.chances["upper_bonus"] == pytest.approx(dist.bonus_probability, abs=1e-5)
    boxes = {c.name: k for k, c in enumerate(game.categories) if c.fixed_points}
    assert boxes and all(start.chances[name] == pytest.approx(dist.category_probabilities[k], abs=1e-5)
                         for name, k in boxes.items())
    why = ds.explain("yacht-dice", "/12346/1")
    assert all(0 <= p <= 1 for o in why.options for p in o.chances.values())
    assert why.reason.startswith(f"{why.best} beats {why.versus} by ") and why.reason.endswith(".")
    assert [chance_words(p) for p in (0.0, 0.34, 0.037, 1.0)] == ["0%", "34%", "about 1 in 27", "100%"]


def test_the_command_line_shows_the_reason_first_and_the_chances_on_asking(capsys):
    code, out, err = run(capsys, "advise", "yacht-dice", "/23466/2", "--chances", "--top", "3")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[1].startswith("keep 66 beats keep 466 by 1.66 points, mostly on the upper bonus: a chance of 69%")
    assert "the chance of each prize" in out and "Large Straight" in out and "(69%)" in out
