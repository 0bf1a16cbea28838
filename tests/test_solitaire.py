import itertools
import random

import numpy as np
import pytest
from reference import final_score_bonus, solve_reference
from tinygames import BONUS_GAME, ESSAY_TOY, MAXI_LIKE, PAIRS_GAME, SET_BONUS_GAME, tiny

import dicesolver as ds
from dicesolver import load_game
from dicesolver.scorecard.game.position import Position
from dicesolver.scorecard.solitaire.table import SolitaireModel, TurnState, load_or_solve

TINY_CASES = [
    (ESSAY_TOY, {}),
    (PAIRS_GAME, {}),
    (BONUS_GAME, {"joker": "forced"}),
    (BONUS_GAME, {"joker": "free"}),
    (BONUS_GAME, {"joker": "none"}),
    (BONUS_GAME, {"order": "forced"}),
    (MAXI_LIKE, {}),
    (SET_BONUS_GAME, {}),
    (SET_BONUS_GAME, {"times": "2", "joker": "free"}),
    (SET_BONUS_GAME, {"times": "every", "upper": "off"}),
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
    assert_turn_starts_as_reference(game, model, model.solve(), solve_reference(game), 300, seed=1)


def assert_turn_starts_as_reference(game, model, values, reference, n: int, seed: int, rel: float = 0.0) -> None:
    """The table's turn-start values of ``n`` random unfinished cards (and the empty one) against the slow
    reference's, with each number of extra bonuses a card may hold (more than none only where limited)."""
    cards = unfinished_cards(game)
    random.Random(seed).shuffle(cards)
    x = game.extra_yacht
    for card in cards[:n] + [(None,) * game.n_categories]:
        for paid in range(x.times + 1 if x and x.times and card[x.category] else 1):
            position = Position(card, None, game.rolls, paid * (x.points if x else 0))
            ours = values[model.index(TurnState(position.used, position.progress(game), position.group(game)))]
            # the reference pays the set bonuses at the end; ours when they are reached (a sure amount)
            already = final_score_bonus(game, tuple(v or 0 for v in card))
            assert ours + already == pytest.approx(reference(card, paid), rel=rel, abs=1e-9), (card, paid)


def engine_answers(game, model, values, card, roll, rerolls):
    """The answer engine's options at a card (boxes, no extra bonus) with ``roll`` showing: {step text: value}."""
    from dicesolver.scorecard.solitaire.answers import SolitaireEngine
    from dicesolver.scorecard.game.encoding import ScorecardEncoding
    from dicesolver.scorecard.game.position import Position
    from dicesolver.scorecard.game.state import ScorecardState

    state = ScorecardState(game, (Position(card, None, game.rolls),), tuple(roll), (), rerolls)
    answers = SolitaireEngine(model, values).answer(ScorecardEncoding(game).situations([state]))
    return {a: v for a, v in zip(state.legal_actions(), answers.values[0, : answers.counts[0]])}


@pytest.mark.parametrize("definition,choices", TINY_CASES)
def test_the_answer_engine_equals_slow_reference(definition, choices):
    """The batch answer engine (one situation at a time): every box and every keep of random positions,
    against the recursion over the rules."""
    from dicesolver.scorecard.game.state import Keep, Score

    game = tiny(definition, **choices)
    model = SolitaireModel(game)
    values = model.solve()
    reference = solve_reference(game)
    dice = game.dice
    rng = random.Random(2)
    cards = unfinished_cards(game)
    rng.shuffle(cards)
    for card in cards[:40] + [(None,) * game.n_categories]:
        total = sum(v or 0 for v in card)  # the engine's values count the card's points (and a bonus reached)
        roll = rng.choice(dice.rolls)
        for rerolls in range(game.rolls):
            options = engine_answers(game, model, values, card, roll, rerolls)
            scores = {a.category: v for a, v in options.items() if isinstance(a, Score)}
            legal = game.legal_scores(card, roll)
            assert sorted(scores) == sorted(c for c, _, _ in legal)
            for c, pts, extra in legal:
                after = card[:c] + (pts,) + card[c + 1:]
                bonus = final_score_bonus(game, after) if all(v is not None for v in after) else 0
                want = pts + extra + bonus + reference(after, 1 if extra else 0)  # the card held no bonus before
                assert scores[c] - total == pytest.approx(want, abs=1e-9)
            for keep, value in ((a.dice, v) for a, v in options.items() if isinstance(a, Keep)):
                throws = list(itertools.product(range(1, game.faces + 1), repeat=game.n_dice - len(keep)))
                want = sum(reference.after_roll(card, tuple(sorted(keep + t)), rerolls - 1) for t in throws)
                assert value - total == pytest.approx(want / len(throws), abs=1e-9)


@pytest.mark.parametrize("spec", ["yahtzee", "yahtzee(joker=free)", "yatzy(forced=on)", "generala", "crag"])
def test_a_turn_through_the_engine_equals_the_solve(spec, fresh_cache):
    """Every first roll of a turn answered in one batch: their values, weighted by the rolls' chances, give
    back the solve kernel's turn-start value of the same state."""
    from dicesolver.scorecard.solitaire.answers import SolitaireEngine

    game = load_game(spec)
    solution, _ = load_or_solve(game)
    model, values = solution.model, solution.values
    dice = game.dice
    engine = SolitaireEngine(model, values)
    rng = random.Random(3)
    sets = [u for level in model.levels() for u in level.tolist() if u != model.full]
    for u in rng.sample(sets, min(12, len(sets))) + [0]:
        card = [-1] * game.n_categories
        for c in range(game.n_categories):
            if u >> c & 1:
                card[c] = rng.choice(game.possible_scores(c))
        if game.forced_order:
            card = [v if c < bin(u).count("1") else -1 for c, v in enumerate(
                [rng.choice(game.possible_scores(c)) for c in range(game.n_categories)])]
        n = dice.n_rolls
        cards = np.array([[card]] * (n + 1), dtype=np.int64)
        boxes = tuple(None if v < 0 else v for v in card)
        from dicesolver.scorecard.game.position import Position

        total = Position(boxes, None, game.rolls).total(game)
        situations = {"cards": cards, "totals": np.full((n + 1, 1), total, dtype=np.int64),
                      "dice": np.array([list(r) for r in dice.rolls] + [[0] * game.n_dice], dtype=np.int64),
                      "held": np.zeros((n + 1, game.n_dice), dtype=np.int64),
                      "rolls_left": np.array([[game.rolls - 1]] * n + [[game.rolls]], dtype=np.int64)}
        answers = engine.answer(situations)
        assert float(np.dot(dice.roll_probabilities, answers.value[:n])) == pytest.approx(answers.value[n], rel=1e-12)


@pytest.mark.parametrize("definition,choices", [c for c in TINY_CASES if "yahtzee_bonus" in c[0]]
                         + [("yahtzee", {}), ("yahtzee(joker=free)", {})])
def test_a_yacht_kept_with_a_throw_left_is_worth_scoring_it_now(definition, choices):
    """The keep stages price a yacht on a card whose yacht box is filled under the extra-yacht rules from
    the values the first pass over the boxes found; the options priced one by one must agree to the bit:
    keeping every die of a yacht with one throw left is worth exactly its best box now."""
    from dicesolver.scorecard.solitaire.answers import SolitaireEngine
    from dicesolver.scorecard.game.encoding import ScorecardEncoding
    from dicesolver.scorecard.game.position import Position
    from dicesolver.scorecard.game.state import ScorecardState

    if isinstance(definition, str):
        engine = ds.solve(definition)  # the judge is its answer engine
        game = engine.game
    else:
        game = tiny(definition, **choices)
        model = SolitaireModel(game)
        engine = SolitaireEngine(model, model.solve())
    yacht = game.extra_yacht.category
    if isinstance(definition, dict):
        cards = [c for c in unfinished_cards(game) if c[yacht] is not None]
    else:
        rng = random.Random(3)
        cards = []
        while len(cards) < 300:
            card = [rng.choice(game.possible_scores(c)) if rng.random() < 0.6 else None
                    for c in range(game.n_categories)]
            card[yacht] = rng.choice(game.possible_scores(yacht))
            if None in card:
                cards.append(tuple(card))
    states = [ScorecardState(game, (Position(card, None, game.rolls),), (face,) * game.n_dice, (), rerolls)
              for card in cards for face in range(1, game.faces + 1) for rerolls in (1, 0)]
    answers = engine.answer(ScorecardEncoding(game).situations(states))
    assert len(states) >= 2 * game.faces * 20
    for i in range(0, len(states), 2):
        keep_all = answers.values[i, answers.counts[i] - 1]  # keeping every die comes last
        assert keep_all == answers.value[i + 1], states[i]


def test_reachable_upper_lanes_only():
    model = SolitaireModel(load_game("yahtzee"))
    aces_only = 1 << 0
    assert model.n_bonus_lanes[0] == 1  # nothing used yet: total 0
    assert model.n_bonus_lanes[aces_only] == 6  # 0..5
    assert model.n_bonus_lanes[0b111111] == 1  # all upper boxes used: the bonus is settled
    assert model.n_groups[1 << 11] == 2  # yahtzee box used: flag matters


@pytest.mark.parametrize(
    "game,expected,places",
    [
        ("yacht-dice", 191.77436918834172, 9),  # the Yacht Dice notebook, its final bot
        ("yazy", 165.76, 2),  # the Yazy program
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
