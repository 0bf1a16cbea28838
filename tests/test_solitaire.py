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


def unfinished_cards(game):
    """Every card of a tiny game with a box still open (filled in order, where the order is forced)."""
    cards = [c for c in all_cards(game) if not all(v is not None for v in c)]
    if game.forced_order:
        cards = [c for c in cards if all(c[i] is not None or c[i + 1] is None for i in range(len(c) - 1))]
    return cards


@pytest.mark.parametrize("definition,choices", TINY_CASES)
def test_kernel_equals_slow_reference(definition, choices):
    game = tiny(definition, **choices)
    model = SolitaireModel(game)
    values = model.solve()
    reference = solve_reference(game)
    cards = unfinished_cards(game)
    random.Random(1).shuffle(cards)
    for card in cards[:300] + [(None,) * game.n_categories]:
        used = sum(1 << c for c, v in enumerate(card) if v is not None)
        upper = sum(v for c, v in enumerate(card) if v is not None and game.categories[c].is_upper)
        flag = bool(game.extra_yacht and card[game.extra_yacht.category])
        ours = values[model.index(TurnState(used, upper, flag))]
        # the reference pays the upper bonus at the end; ours when it is reached
        already = final_score_bonus(game, tuple(v or 0 for v in card)) if game.has_upper_bonus else 0
        assert ours + already == pytest.approx(reference(card), abs=1e-9), card


@pytest.mark.parametrize("definition,choices", TINY_CASES)
def test_one_positions_turn_in_numpy_equals_slow_reference(definition, choices):
    """Advice's numpy path (final_values, keep_values): every box and every keep of random positions."""
    game = tiny(definition, **choices)
    model = SolitaireModel(game)
    values = model.solve()
    reference = solve_reference(game)
    dice = game.dice
    rng = random.Random(2)
    cards = unfinished_cards(game)
    rng.shuffle(cards)
    for card in cards[:40] + [(None,) * game.n_categories]:
        used = sum(1 << c for c, v in enumerate(card) if v is not None)
        upper = sum(v for c, v in enumerate(card) if v is not None and game.categories[c].is_upper)
        state = TurnState(used, upper, bool(game.extra_yacht and card[game.extra_yacht.category]))
        already = final_score_bonus(game, tuple(v or 0 for v in card)) if game.has_upper_bonus else 0
        roll = rng.choice(dice.rolls)
        value, _ = model.category_values(values, state, dice.roll_index(roll))
        legal = game.legal_scores(card, roll)
        for c, pts, extra in legal:
            after = card[:c] + (pts,) + card[c + 1:]
            bonus = final_score_bonus(game, after) if all(v is not None for v in after) else 0
            assert value[c] + already == pytest.approx(pts + extra + bonus + reference(after), abs=1e-9)
        assert sum(v > -float("inf") for v in value) == len(legal)
        for rerolls in range(1, game.rolls):
            keeps = model.keep_values(values, state, rerolls)
            for kept in dice.sub_keeps(roll):
                throws = list(itertools.product(range(1, game.faces + 1), repeat=game.n_dice - len(kept)))
                want = sum(reference.after_roll(card, tuple(sorted(kept + t)), rerolls - 1) for t in throws)
                assert keeps[dice.keep_index(kept)] + already == pytest.approx(want / len(throws), abs=1e-9)
        assert model.keep_values(values, state, game.rolls)[0] == pytest.approx(values[model.index(state)], abs=1e-9)


@pytest.mark.parametrize("spec", ["yahtzee", "yahtzee(joker=free)", "yatzy(forced=on)", "generala", "crag"])
def test_one_positions_turn_in_numpy_equals_the_solve(spec, fresh_cache):
    """The numpy turn of a real game's positions gives back the solve kernel's turn-start values."""
    game = load_game(spec)
    solution, _ = load_or_solve(game)
    model, values = solution.model, solution.values
    rng = random.Random(3)
    sets = [u for level in model.levels() for u in level.tolist() if u != model.full]
    for u in rng.sample(sets, min(25, len(sets))) + [0]:
        lanes = int(model.n_upper_lanes[u])
        for flag in {False, bool(model.n_groups[u] == 2)}:
            state = TurnState(u, rng.randrange(lanes) if model.threshold else 0, flag)
            assert model.keep_values(values, state, game.rolls)[0] == pytest.approx(values[model.index(state)],
                                                                                  rel=1e-12)


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
