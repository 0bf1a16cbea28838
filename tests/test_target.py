"""Playing for a target score: the table's best chances against a slow, obviously correct recursion on tiny
games (every rule variant with bonuses and jokers), and against the expected-score strategy's own exact
distribution (a target strategy never does worse, and does better somewhere)."""

from functools import lru_cache

import numpy as np
import pytest
from reference import counted_throws, final_score_bonus
from tinygames import BONUS_GAME, PAIRS_GAME, SET_BONUS_GAME, tiny

from dicesolver.core import aims
from dicesolver.scorecard.target import table as target


def reference_chances(game, N, tie=1.0, solver=False):
    """The best chance of more than n points, exactly n counting ``tie``, for each n = 0..N (tie 1: P(total
    >= n)), by memoised recursion over the rules, every need at once: value(boxes)[n] is the best chance for
    n more points (the upper bonus paid at the end). ``solver``: the recursion itself, to look inside a turn."""
    n = game.n_dice
    needs = np.arange(N + 1)

    def shifted(v, points):  # the chance for need n after scoring ``points`` now
        return np.concatenate((np.ones(min(points, N + 1)), v[: max(N + 1 - points, 0)]))

    @lru_cache(maxsize=None)
    def throws(k):  # each throw of k dice, sorted, and its probability (every ordered throw counted)
        shown, counts = zip(*counted_throws(game.faces, k))
        return shown, np.array(counts) / game.faces**k

    def expected(outcome, shown):  # the mean over a throw's outcomes of each one's chances
        return throws(shown)[1] @ np.array([outcome(t) for t in throws(shown)[0]])

    @lru_cache(maxsize=None)
    def value(boxes, paid=0):  # paid: the extra-yacht bonuses earned (they matter where their number is limited)
        if all(v is not None for v in boxes):
            bonus = final_score_bonus(game, boxes)
            return np.where(needs < bonus, 1.0, np.where(needs == bonus, tie, 0.0))
        return expected(lambda t: after_roll(boxes, t, game.rolls - 1, paid), n)

    @lru_cache(maxsize=None)
    def after_roll(boxes, dice, left, paid=0):
        if left == 0:
            return np.max([shifted(value(boxes[:c] + (pts,) + boxes[c + 1:], paid + (extra > 0)), pts + extra)
                           for c, pts, extra in game.legal_scores(boxes, dice, paid)], axis=0)
        best = np.zeros(N + 1)
        for kept in {tuple(dice[i] for i in range(n) if mask >> i & 1) for mask in range(1 << n)}:
            best = np.maximum(best, after_keep(boxes, kept, left, paid))
        return best

    @lru_cache(maxsize=None)
    def after_keep(boxes, kept, left, paid=0):  # keeping ``kept`` (sorted), the others thrown: many throws keep it
        return expected(lambda t: after_roll(boxes, tuple(sorted(kept + t)), left - 1, paid), n - len(kept))

    value.after_roll = after_roll
    return value if solver else value((None,) * game.n_categories)


@pytest.mark.parametrize("definition,choices", [(PAIRS_GAME, {}), (BONUS_GAME, {}), (BONUS_GAME, {"joker": "free"}),
                                                (BONUS_GAME, {"joker": "none"}), (BONUS_GAME, {"order": "forced"}),
                                                (SET_BONUS_GAME, {}), (SET_BONUS_GAME, {"times": "2", "upper": "off"})])
def test_best_chances_are_the_reference(definition, choices):
    game = tiny(definition, **choices)
    N = int(game.max_scores.sum()) + 25  # past the most a game can score, bonuses included
    got = target.build(game, N).curve()
    want = reference_chances(game, N)
    assert got == pytest.approx(want, abs=1e-6)
    assert got[0] == 1.0 and np.all(np.diff(got) <= 1e-7)  # certain to reach 0, never easier to reach more


@pytest.mark.parametrize("definition,choices", [(PAIRS_GAME, {}), (BONUS_GAME, {"joker": "free"})])
def test_chances_to_beat_a_score_are_the_reference(definition, choices):
    """More than S wins, exactly S counts half: its own best play, not the mean of two targets' best plays."""
    game = tiny(definition, **choices)
    N = int(game.max_scores.sum()) + 25
    got = target.build(game, N, tie=aims.BEAT).curve()
    want = reference_chances(game, N, tie=0.5)
    assert got == pytest.approx(want, abs=1e-6)
    at_least = target.build(game, N).curve()
    assert np.all(got[:N] <= (at_least[:-1] + at_least[1:]) / 2 + 1e-6)  # one strategy is not better than both


def test_every_option_within_a_turn_is_the_reference():
    """Keeps and boxes ranked for one need by the answer engine from the table, as the recursion ranks them."""
    from dicesolver.scorecard.solitaire.answers import SolitaireEngine
    from dicesolver.scorecard.game.encoding import ScorecardEncoding
    from dicesolver.scorecard.game.state import Keep, Score

    game = tiny(BONUS_GAME)
    N = int(game.max_scores.sum()) + 25
    table = target.build(game, N)
    reference = reference_chances(game, N, solver=True)
    boxes = (None,) * game.n_categories
    start = game.start()
    encoding = ScorecardEncoding(game)
    for need in (1, 7, 15):
        engine = SolitaireEngine(table.model, table.V, aim=(need, N, table.tie))
        for dice in game.dice.rolls[::3]:
            dice = tuple(int(d) for d in dice)
            for left in (0, 1):
                state = type(start)(game, start.cards, dice, (), left)
                answers = engine.answer(encoding.situations([state]))
                options = dict(zip(state.legal_actions(), answers.values[0, : answers.counts[0]]))
                kind = Score if left == 0 else Keep
                best = max(v for a, v in options.items() if isinstance(a, kind))
                assert best == pytest.approx(reference.after_roll(boxes, dice, left)[need], abs=1e-6)


def test_playing_for_the_target_beats_playing_for_points():
    """For every target, the best chance is at least the expected-score strategy's, from that strategy's
    exact final-score distribution, and strictly more for some targets."""
    from dicesolver.scorecard.mindful.future import FutureTable
    from dicesolver.scorecard.mindful.future import build as build_future
    from dicesolver.scorecard.solitaire.table import SolitaireModel, SolitaireTable, TurnState

    game = tiny(BONUS_GAME)
    model = SolitaireModel(game)
    a = build_future(SolitaireTable(game, model.solve()))
    maximus = FutureTable(game, model, a["data"], a["offset"], a["start"], a["length"])
    lo, p = maximus.distribution(TurnState(0))
    N = lo + len(p) + 5
    reach = np.zeros(N + 1)  # the expected-score strategy's P(total >= T)
    for T in range(N + 1):
        reach[T] = p[max(T - lo, 0):].sum()
    best = target.build(game, N).curve()
    assert np.all(best >= reach - 1e-6)
    assert np.any(best > reach + 1e-3)


RULES = """name = "threes"
dice = 3
faces = 3
rolls = 2
[upper_bonus]
threshold = 9
points = 7
[[categories]]
name = "ones"
kind = "upper"
face = 1
[[categories]]
name = "twos"
kind = "upper"
face = 2
[[categories]]
name = "threes"
kind = "upper"
face = 3
[[categories]]
name = "chance"
kind = "chance"
"""


def test_solve_for_a_target_from_the_command_line(capsys, tmp_path, fresh_cache):
    import json

    from test_cli import run

    import dicesolver as ds

    rules = tmp_path / "threes.toml"
    rules.write_text(RULES)
    code, out, _ = run(capsys, "solve", str(rules), "--target", "20", "--json")
    data = json.loads(out)
    want = reference_chances(ds.load_game(str(rules)), 20)[20]
    assert code == 0 and data["unit"] == "p_target" and data["value"] == pytest.approx(want, abs=1e-6)
    assert data["details"] == {"target": 20} and data["solved_now"]
    code, out, _ = run(capsys, "solve", str(rules), "--target", "20")
    assert code == 0 and f"reaching 20 points is {want:.6f}" in " ".join(out.split()) and "loaded from cache" in out
    for args, words in ((["pig", "--target", "50"], "solitaire scorecard games and Despirala"), (["yacht", "--target", "0"], "positive"),
                        (["yacht", "--target", "99999"], "between 1 and"),
                        (["yacht", "--target", "50", "--judge", "exact"], "goes alone")):
        code, _, err = run(capsys, "solve", *args)
        assert code == 2 and words in err


@pytest.mark.parametrize("definition", [BONUS_GAME, PAIRS_GAME])
def test_the_target_player_reaches_its_target_as_often_as_the_table_says(definition, fresh_cache):
    """The kernels' games of target:T reach T as often as the table's exact chance, within the interval,
    on the same dice as the expected-score strategy, which reaches it less often."""
    from dicesolver.scorecard.bots.simulate import simulate

    game = tiny(definition)
    T = int(round(0.8 * game.max_scores.sum()))
    n = 200_000
    target_run, optimal_run = simulate(game, [f"target:{T}", "optimal"], n=n, seed=3)
    exact = target_run.facts["target_chance"]
    assert exact == pytest.approx(reference_chances(game, T)[T], abs=1e-6)
    rate = target_run.facts["target_rate"]
    assert abs(rate - exact) < 4 * np.sqrt(exact * (1 - exact) / n)
    assert optimal_run.facts["target"] == T and optimal_run.facts["target_rate"] < rate


def test_the_target_players_decisions_are_the_best_options():
    """Every decision of target:T in play (the kernels, one at a time) is an option the advice (numpy, from
    the same table) ranks best, through whole games of the protocol."""
    from dicesolver.core import registry

    game = tiny(BONUS_GAME)
    T = 30
    family = registry.family_of(game)
    bot = family.player(game, f" Target:{T} ")
    assert bot.name == f"target:{T}"
    advice = family.target_solution(game, T)
    rng = np.random.default_rng(5)
    decisions = 0
    for _ in range(30):
        state = game.start()
        while not state.is_terminal():
            if state.to_move() is None:
                outcomes = state.chance_outcomes()
                pick = rng.choice(len(outcomes), p=[p for _, p in outcomes])
                state = state.apply(outcomes[pick][0])
                continue
            step = bot.choose(state, rng)
            values = dict(advice.action_values(state))
            assert values[step] >= max(values.values()) - 1e-6
            decisions += 1
            state = state.apply(step)
    assert decisions > 30 * 6


def test_a_target_player_in_a_match_plays_as_in_its_simulations():
    """In the match kernel, against players who look at the table (Mindful, Joe), a target player plays its
    own card exactly as the simulator does on the same seat's dice: the same totals, game by game."""
    from dicesolver.scorecard.match.play import MatchSetup, deal_numbers
    from dicesolver.scorecard.target.player import TargetPlayer

    game = tiny(BONUS_GAME)
    setup = MatchSetup(game, ["target:30", "mindful", "joe", "target:25"])
    throws, rand = deal_numbers(game, 40, 4, np.random.default_rng(2))
    perms = setup.rotations()
    totals, _ = setup.play(throws, rand, perms)
    for player, aim in ((0, 30), (3, 25)):
        bot = TargetPlayer.build(game, aim)
        for rot in range(perms.shape[0]):
            seat = int(np.nonzero(perms[rot] == player)[0][0])
            alone = bot.play_many(np.ascontiguousarray(throws[:, seat]), np.ascontiguousarray(rand[:, seat]))[0]
            assert np.array_equal(totals[rot::perms.shape[0], player], alone)


def test_target_players_by_name():
    from dicesolver.core import registry
    from dicesolver.core.errors import InputError

    game = tiny(BONUS_GAME)
    family = registry.family_of(game)
    assert "target:T" in family.players(game)
    for bad in ("target:", "target:-3", "target:0", "target:abc"):
        with pytest.raises(InputError, match="target:T"):
            family.player(game, bad)


def test_targets_from_the_command_line(capsys, tmp_path, fresh_cache):
    """advise --target/--beat rank by the chance (the reference's, within a turn), distribution
    --target-curve draws both curves, and target:T plays in simulate and match."""
    import json

    from test_cli import run

    import dicesolver as ds

    rules = tmp_path / "threes.toml"
    rules.write_text(RULES)
    game = ds.load_game(str(rules))
    reference = reference_chances(game, 20, solver=True)
    code, out, _ = run(capsys, "advise", str(rules), "/123/1", "--target", "20", "--json")
    data = json.loads(out)
    assert code == 0 and data["unit"] == "p_target" and data["details"]["need"] == 20
    assert data["value"] == pytest.approx(reference.after_roll((None,) * 4, (1, 2, 3), 1)[20], abs=1e-6)
    assert data["options"][0]["cost"] == 0 and data["options"][-1]["cost"] > 0
    code, out, _ = run(capsys, "advise", str(rules), "ones=3/333/0", "--beat", "14", "--json")
    data = json.loads(out)
    beat = reference_chances(game, 20, tie=0.5, solver=True)
    assert code == 0 and data["details"] == {"beat": 14, "score_so_far": 3, "need": 11}
    assert data["value"] == pytest.approx(beat.after_roll((3, None, None, None), (3, 3, 3), 0)[11], abs=1e-6)
    code, _, err = run(capsys, "advise", str(rules), "/123/1", "--target", "20", "--beat", "3")
    assert code == 2 and "give one" in err

    picture = tmp_path / "curve.png"
    code, out, _ = run(capsys, "distribution", str(rules), "--target-curve", "--up-to", "20", "--plot", str(picture),
                       "--json")
    curve = json.loads(out)
    assert code == 0 and picture.stat().st_size > 10_000
    assert curve["best"] == pytest.approx(list(reference_chances(game, 20)), abs=1e-6)
    assert all(b >= e - 1e-6 for b, e in zip(curve["best"], curve["expected_score_strategy"]))
    assert curve["largest_gain"] > 0 and curve["targets"] == list(range(21))
    code, _, err = run(capsys, "distribution", "pig", "--target-curve")
    assert code == 2 and "solitaire scorecard" in err

    code, out, _ = run(capsys, "simulate", str(rules), "-p", "target:20", "-p", "optimal", "-n", "4000", "--json")
    runs = json.loads(out)
    assert code == 0 and [r["target"] for r in runs] == [20, 20]
    assert runs[0]["target_chance"] == pytest.approx(curve["best"][20], abs=1e-6)
    code, out, _ = run(capsys, "match", str(rules), "target:20", "optimal", "-n", "2000", "--json")
    assert code == 0 and json.loads(out)["games"] == 2000
    code, out, _ = run(capsys, "match", str(rules), "target:20", "mindful", "joe", "target:15", "-n", "300", "--json")
    assert code == 0 and json.loads(out)["games"] == 300


@pytest.mark.parametrize("players", [2, 3])
def test_the_last_players_final_turn_is_already_played_to_beat_the_known_score(players):
    """When every other card is full, the score to beat is known. Mindful (and, with two players, Malina's
    exact table) values every option of that last turn as n * P(beat it, a tie counting half) - 1: the
    chances of 'advise --beat S', so they already play it as the beat table does (with one leader to beat;
    with several tied leaders their result, a three-way tie worth a third, is the exact one)."""
    from dicesolver.core import registry

    game = tiny(PAIRS_GAME)  # no bonuses: Malina can play it
    family = registry.family_of(game)
    many = game.with_players(players)
    judges = [family.solve(many, judge="mindful")] + ([family.solve(many, judge="exact")] if players == 2 else [])
    rng = np.random.default_rng(7)
    names = [c.name for c in game.categories]
    possible = [sorted(game.possible_scores(c)) for c in range(game.n_categories)]

    def card(boxes):
        return {names[c]: int(rng.choice(possible[c])) for c in range(boxes)}

    checked = 0
    for _ in range(12):
        mine = card(len(names) - 1)  # one box open: the last turn
        theirs = [card(len(names)) for _ in range(players - 1)]
        if len({sum(t.values()) for t in theirs}) < len(theirs) and players > 2:
            continue  # tied leaders: the result is a three-way share, not a half
        dice = "".join(str(d) for d in sorted(rng.integers(1, 4, size=3)))
        cards = ";".join(",".join(f"{k}={v}" for k, v in card.items()) for card in [mine, *theirs])
        state = many.parse_state(f"{cards}/{dice}/1")
        best_other = max(sum(t.values()) for t in theirs)
        beat = family.target_solution(game, best_other, beat=True)
        chances = dict(beat.action_values(state))
        for judge in judges:
            for step, value in judge.action_values(state):
                assert value == pytest.approx(players * chances[step] - 1, abs=1e-6)
                checked += 1
    assert checked > 50
