import itertools
import random

import pytest
from reference import final_score_bonus, solve_reference
from tinygames import BONUS_GAME, ESSAY_TOY, PAIRS_GAME, tiny

from dicesolver import load_game
from dicesolver.scorecard.solitaire import SolitaireModel, TurnState, load_or_solve

TINY_CASES = [
    (ESSAY_TOY, {}),
    (PAIRS_GAME, {}),
    (BONUS_GAME, {"joker": "forced"}),
    (BONUS_GAME, {"joker": "free"}),
    (BONUS_GAME, {"joker": "none"}),
    (BONUS_GAME, {"order": "forced"}),
]


def all_cards(game):
    """Every scorecard of a tiny game: each box open or holding one of its possible scores."""
    options = [[None] + game.possible_scores(c) for c in range(game.n_categories)]
    return itertools.product(*options)


@pytest.mark.parametrize("definition,choices", TINY_CASES)
def test_kernel_equals_slow_reference(definition, choices):
    game = tiny(definition, **choices)
    model = SolitaireModel(game)
    values = model.solve()
    reference = solve_reference(game)
    cards = [c for c in all_cards(game) if not all(v is not None for v in c)]
    if game.forced_order:
        cards = [c for c in cards if all(c[i] is not None or c[i + 1] is None for i in range(len(c) - 1))]
    random.Random(1).shuffle(cards)
    for card in cards[:300] + [(None,) * game.n_categories]:
        used = sum(1 << c for c, v in enumerate(card) if v is not None)
        upper = sum(v for c, v in enumerate(card) if v is not None and game.categories[c].is_upper)
        flag = bool(game.extra_yacht and card[game.extra_yacht.category])
        ours = values[model.index(TurnState(used, upper, flag))]
        # the reference pays the upper bonus at the end; ours when it is reached
        already = final_score_bonus(game, tuple(v or 0 for v in card)) if game.has_upper_bonus else 0
        assert ours + already == pytest.approx(reference(card), abs=1e-9), card


def test_reachable_upper_lanes_only():
    model = SolitaireModel(load_game("yahtzee"))
    aces_only = 1 << 0
    assert model.n_upper_lanes[0] == 1  # nothing used yet: total 0
    assert model.n_upper_lanes[aces_only] == 6  # 0..5
    assert model.n_upper_lanes[0b111111] == 1  # all upper boxes used: the bonus is settled
    assert model.n_groups[1 << 11] == 2  # yahtzee box used: flag matters


@pytest.mark.parametrize(
    "game,expected,places",
    [
        ("yacht-dice", 191.77436918834172, 9),  # seed 002, its final bot
        ("yazy", 165.76, 2),  # seed 004
        ("yahtzee(joker=free)", 254.5896, 4),  # Verhoeff 1999, Glenn 2006
        # the PyPI peer yatzy-solver 1.0.0 (variants american+forced-joker, yatzy-scandinavian,
        # american+no-bonus) computed on this machine: agreement to 1e-9
        ("yahtzee", 254.58772873449593, 9),
        ("yatzy", 248.4399893778553, 9),
        ("yahtzee(yahtzee_bonus=off)", 245.87077451411164, 9),
    ],
)
def test_published_expected_scores(game, expected, places):
    solution, _ = load_or_solve(load_game(game))
    assert round(solution.root_value, places) == round(expected, places)
    assert solution.root_value == pytest.approx(expected, abs=0.5 * 10**-places + 1e-12)


def test_every_preset_solves_to_a_sane_value():
    for name in ["crag", "generala", "yacht", "yatzy(forced)", "yahtzee(upper_bonus=off)"]:
        game = load_game(name)
        solution, _ = load_or_solve(game)
        assert 0 < solution.root_value < sum(game.max_scores) + (game.upper_points or 0)


def test_variants_order_as_expected():
    value = {g: load_or_solve(load_game(g))[0].root_value for g in
             ["yahtzee", "yahtzee(joker=free)", "yahtzee(yahtzee_bonus=off)", "yahtzee(upper_bonus=off)",
              "yatzy", "yatzy(fh5,tp4)", "yatzy(forced)"]}
    assert value["yahtzee(joker=free)"] > value["yahtzee"] > value["yahtzee(yahtzee_bonus=off)"]
    assert value["yahtzee"] > value["yahtzee(upper_bonus=off)"]
    assert value["yatzy(fh5,tp4)"] > value["yatzy"] > value["yatzy(forced)"]
