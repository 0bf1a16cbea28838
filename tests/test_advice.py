from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tinygames import PAIRS_GAME, tiny

from dicesolver import load_game
from dicesolver.core import registry
from dicesolver.core.dice import dice_space
from dicesolver.core.errors import InputError
from dicesolver.scorecard.turn.odds import exact_turn_value, one_turn_odds, turn_values
from dicesolver.scorecard.game.position import (
    Position,
    boxes_for_extra_yachts,
    format_position,
    parse_position,
    start_position,
)


def advise(game, position: str):
    """The advice at a position (its text), from the game's solution."""
    return registry.solve(game).advise(position)


# -- one-turn odds (the Yacht Dice notebook and Heled's Generala essay) ------------------------------------------------

SEED_002 = {
    "ones": 2.1065, "twos": 4.2130, "threes": 6.3194, "fours": 8.4259, "fives": 10.5324, "sixes": 12.6389,
    "choice": 23.3333, "four_of_a_kind": 5.6113, "full_house": 7.0136, "small_straight": 9.2316,
    "large_straight": 7.8329, "yacht": 2.3014,
}
SEED_002_MAX = {"small_straight": 0.615442, "large_straight": 0.261095, "yacht": 0.046029}


def test_seed_002_single_category_table():
    rows = {r.category: r for r in one_turn_odds(load_game("yacht-dice"))}
    for name, expected in SEED_002.items():
        assert round(rows[name].expected_points, 4) == expected, name
    for name in ["ones", "twos", "threes", "fours", "fives", "sixes", "choice", "four_of_a_kind", "full_house"]:
        assert round(rows[name].p_max, 6) == 0.013272, name
    for name, expected in SEED_002_MAX.items():
        assert round(rows[name].p_max, 6) == expected, name


def test_generala_one_turn_probabilities_exactly():
    rows = {r.category: r for r in one_turn_odds(load_game("generala"), exact=True)}
    assert Fraction(rows["generala"].p_max_exact) == Fraction(2783176, 6**10)
    assert Fraction(rows["poker"].p_max_exact) == Fraction(17583176, 6**10)
    assert rows["generala"].p_max == pytest.approx(2783176 / 6**10, abs=1e-12)
    assert rows["poker"].p_max == pytest.approx(17583176 / 6**10, abs=1e-12)
    assert round(rows["full"].p_max, 3) == 0.366
    assert round(rows["escalera"].p_max, 3) == 0.261


@pytest.mark.parametrize("n,faces,rolls", [(2, 3, 2), (3, 3, 3), (3, 2, 2), (2, 4, 3)])
def test_widget_equals_exact_reference(n, faces, rolls):
    space = dice_space(n, faces)
    rng = np.random.default_rng(n * 100 + faces)
    final = rng.integers(0, 20, size=(space.n_rolls, 3)).astype(float)
    fast = turn_values(space, rolls, final)
    for lane in range(3):
        exact = exact_turn_value(space, rolls, [Fraction(int(v)) for v in final[:, lane]])
        assert fast[lane] == pytest.approx(float(exact), abs=1e-12)


# -- Escalera-only keeps (Heled's Generala essay) -------------------------------------------------------------------

ALL_BUT_ESCALERA = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,full=30,poker=40,generala=50"


@pytest.mark.parametrize(
    "dice,keep", [("12266", "2"), ("11466", "4"), ("12236", "23"), ("12245", "1245"), ("24456", "2456")]
)
def test_escalera_only_keeps(dice, keep):
    advice = advise(load_game("generala"), f"{ALL_BUT_ESCALERA}/{dice}/2")
    assert advice.best.option == keep
    assert advice.options[1].cost > 1e-6  # a clear best, not a tie


# -- advice ---------------------------------------------------------------------------------------------


def test_advice_is_ranked_and_costs_are_against_the_best():
    advice = advise(load_game("yahtzee"), "/13456/2")
    # every distinct keep (32, the whole roll included), and standing: scoring now in any of 13 boxes
    assert sum(o.kind == "keep" for o in advice.options) == 32 and sum(o.kind == "score" for o in advice.options) == 13
    values = [o.value for o in advice.options]
    assert values == sorted(values, reverse=True)
    assert advice.options[0].cost == 0
    for o in advice.options:
        assert o.cost == pytest.approx(values[0] - o.value)
    assert advice.best.option == "3456"


def test_turn_start_value_equals_mean_over_first_rolls():
    game = load_game("yacht-dice")
    start = advise(game, format_position(game, start_position(game)))
    assert start.value == pytest.approx(191.77436918834172, abs=1e-9)
    mean = sum(
        p * advise(game, format_position(game, Position((None,) * 12, roll, 2))).value
        for roll, p in zip(game.dice.rolls, game.dice.roll_probabilities)
    )
    assert mean == pytest.approx(start.value, abs=1e-9)


def test_category_choice_includes_bonuses_and_joker():
    game = load_game("yahtzee")
    # forced joker: fives open, so five 5s must go there (+100 bonus)
    advice = advise(game, "aces=3,yahtzee=50/55555/0")
    assert [o.option for o in advice.options] == ["fives"]
    assert advice.best.points == 125
    # fives filled: any open lower box, straights at full value
    advice = advise(game, "aces=3,fives=25,yahtzee=50/55555/0")
    points = {o.option: o.points for o in advice.options}
    assert points["large_straight"] == 140 and points["small_straight"] == 130
    assert "twos" not in points
    # reaching the upper bonus pays it at once
    advice = advise(game, "aces=3,twos=6,threes=9,fours=12,fives=15/66666/0")
    assert {o.option: o.points for o in advice.options}["sixes"] == 30 + 35


def test_final_roll_value_equals_score_plus_future():
    game = tiny(PAIRS_GAME)
    solution = registry.solve(game)
    advice = solution.advise("pair=4/223/0")
    for o in advice.options:
        c = game.category_index(o.option)
        boxes = [None] * game.n_categories
        boxes[0] = 4
        boxes[c] = o.points
        after = Position(tuple(boxes), None, game.rolls)
        assert o.value == pytest.approx(solution.value(format_position(game, after)), abs=1e-9)


# -- position notation ----------------------------------------------------------------------------------


@st.composite
def positions(draw, game_name):
    game = load_game(game_name)
    boxes = []
    for c in range(game.n_categories):
        boxes.append(draw(st.one_of(st.none(), st.sampled_from(game.possible_scores(c)))))
    if all(b is not None for b in boxes):
        boxes[draw(st.integers(0, game.n_categories - 1))] = None
    x = game.extra_yacht
    extra = 0
    if x and boxes[x.category]:
        filled = sum(b is not None for b in boxes)  # every extra yacht needs a box it could have scored in
        extra = x.points * draw(st.integers(0, min(filled - 1, boxes_for_extra_yachts(game, tuple(boxes)))))
    if draw(st.booleans()):
        return game, Position(tuple(boxes), None, game.rolls, extra)
    dice = tuple(sorted(draw(st.lists(st.integers(1, game.faces), min_size=game.n_dice, max_size=game.n_dice))))
    return game, Position(tuple(boxes), dice, draw(st.integers(0, game.rolls - 1)), extra)


@settings(max_examples=200)
@given(st.sampled_from(["yahtzee", "yatzy", "crag", "generala"]).flatmap(positions))
def test_position_round_trip(case):
    game, position = case
    text = format_position(game, position)
    assert parse_position(game, text) == position
    assert format_position(game, parse_position(game, text)) == text


def test_position_forgiving_forms():
    game = load_game("yahtzee")
    a = parse_position(game, "fh=25, Aces:3/53141/1")
    assert format_position(game, a) == "aces=3,full_house=25/11345/1"
    assert parse_position(game, "none/-") == parse_position(game, "/-/3") == start_position(game)


@pytest.mark.parametrize(
    "text,message",
    [
        ("aces=6/11111/0", "not a possible score"),
        ("aces=3/1111/0", "5 dice"),
        ("/11117/0", "not a face"),
        ("/11111/3", "rolls left must be 0..2"),
        ("/11111", "how many rolls"),
        ("/-/2", "before the first roll"),
        ("sevens=3/11111/0", "not a category"),
        ("aces=3,aces=2/11111/0", "twice"),
        ("aces/11111/0", "name=points"),
        ("aces=x/11111/0", "whole number"),
        ("bonus=100/11111/0", "needs points in the yahtzee box"),
        ("yahtzee=50,bonus=150/11111/0", "multiple of 100"),
        ("yahtzee=40/11111/0", "not a possible score"),
        ("11111", "CARD/DICE/ROLLS"),
        ("", "no position"),
        ("aces=1,twos=2,threes=3,fours=4,fives=5,sixes=6,3k=0,4k=0,fh=0,ss=0,ls=0,yahtzee=0,chance=5/11111/0",
         "game is over"),
    ],
)
def test_bad_positions(text, message):
    with pytest.raises(InputError, match=message):
        parse_position(load_game("yahtzee"), text)


def test_forced_order_positions():
    game = load_game("yatzy(forced)")
    parse_position(game, "ones=3,twos=4/11111/0")
    with pytest.raises(InputError, match="card order"):
        parse_position(game, "twos=4/11111/0")


# -- ds.advise: its options made when first read ---------------------------------------------------------

LATE = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,escalera=20,full=30,poker=40"


@pytest.mark.parametrize("game,position", [
    ("yahtzee", "/13456/2"), ("yahtzee", "aces=3,yahtzee=50/66666/0"), ("yacht-dice", "/11111/0"),
    ("generala", f"{LATE};{LATE.replace('sixes=18', 'sixes=24')}/66612/1"), ("skunk", "0,87,32"),
    ("despirala", "none;5;123456"), ("yahtzee", "/-/3")])
def test_an_advice_reads_the_same_whether_its_options_are_made_first_or_last(game, position):
    import copy
    import pickle

    import dicesolver as ds
    from dicesolver.core.results import Advice

    made = ds.advise(game, position)
    made.options  # made now
    if made.options:
        assert ds.advise(game, position).best == made.best == made.options[0]
    else:  # before a throw: no option, and no best one to read by mistake
        with pytest.raises(ds.InputError, match="no option to choose here"):
            ds.advise(game, position).best
    assert ds.advise(game, position) == made and made == ds.advise(game, position)
    assert ds.advise(game, position).model_dump() == made.model_dump()
    assert ds.advise(game, position).model_dump_json() == made.model_dump_json()
    assert Advice.model_validate_json(ds.advise(game, position).model_dump_json()) == made  # every field, in order
    assert repr(ds.advise(game, position)) == repr(made)
    assert pickle.loads(pickle.dumps(ds.advise(game, position))) == made
    assert copy.deepcopy(ds.advise(game, position)) == made and copy.copy(ds.advise(game, position)) == made
    assert dict(ds.advise(game, position))["options"] == made.options
    assert Advice.model_json_schema(mode="serialization") == Advice.model_json_schema()  # one schema, as before


def test_an_advice_read_late_has_its_own_positions_options():
    """An Advice's options made after other positions' advice (the engine reuses a single situation's
    answer buffers once nothing holds them: an Advice waiting to make its options holds them)."""
    import dicesolver as ds

    texts = ["/13456/2", "/11111/0", "aces=3/22334/1", "/66655/2", "chance=20/12345/0"]
    waiting = [ds.advise("yahtzee", t) for t in texts]
    for text, advice in zip(texts, waiting):
        made = ds.advise("yahtzee", text)
        made.options
        assert advice.options == made.options and advice.best == made.best


def test_a_card_read_once_is_checked_with_every_position_it_comes_with():
    """Cards are remembered by their text once read and checked: the dice and throws left of each position
    are still checked, and a refused card is never remembered."""
    game = load_game("yahtzee")
    assert str(game.parse_state("aces=3/11345/1")) == "aces=3/11345/1"
    for text, message in [("aces=3/11111/3", "rolls left must be 0..2"), ("aces=3/1111/0", "5 dice"),
                          ("aces=3/-/2", "before the first roll"), ("aces=6/11111/0", "not a possible score"),
                          ("aces=6/11111/0", "not a possible score")]:
        with pytest.raises(InputError, match=message):
            game.parse_state(text)
    assert "aces=6" not in game.cards_read and "aces=3" in game.cards_read


@pytest.mark.parametrize("spec", ["yahtzee", "yatzy", "yacht-dice", "generala", "set-bonus", "bonus"])
def test_the_best_option_made_alone_is_the_first_of_the_ranked_options(spec):
    """``Advice.best`` makes the best option alone (``action_at``: not every legal action); over the decisions
    of random games, with jokers, set bonuses and extra bonuses, it is the ranked options' first, every field."""
    import numpy as np

    from dicesolver.core import registry
    from dicesolver.core.advice import ranked
    from tinygames import BONUS_GAME, SET_BONUS_GAME, tiny

    game = {"set-bonus": lambda: tiny(SET_BONUS_GAME), "bonus": lambda: tiny(BONUS_GAME)}.get(
        spec, lambda: load_game(spec))().with_players(1)
    solution = registry.solve(game)
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(6):
        state = game.start()
        while not state.is_terminal():
            if state.is_chance():
                outcomes = state.chance_outcomes()
                state = state.apply(outcomes[int(rng.integers(len(outcomes)))][0])
                continue
            answers = solution.answers([state])
            actions = state.legal_actions()
            assert [state.action_at(k) for k in range(len(actions))] == list(actions)
            assert [str(state.action_at(k)) for k in range(len(actions))] == [str(a) for a in actions]
            assert ranked(solution, state, answers, first=1) == ranked(solution, state, answers)[:1]
            checked += 1
            state = state.apply(actions[int(rng.integers(len(actions)))])
    assert checked > 50
