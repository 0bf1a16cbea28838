"""Goals on the final score (``core.aims``): one table of needs answers any utility u of the final score; a
blind field's utility against brute force, its tables against a slow recursion that applies u itself (no
table, no cut-off), and the goal reached from the library and the command line."""

from __future__ import annotations

import itertools
import json
from functools import lru_cache

import numpy as np
import pytest
from reference import counted_throws, final_score_bonus
from tinygames import BONUS_GAME, PAIRS_GAME, SET_BONUS_GAME, tiny

import dicesolver as ds
from dicesolver.core import aims, registry
from dicesolver.core.errors import InputError
from dicesolver.scorecard.solitaire.table import SolitaireModel, TurnState


def brute_force_field(p: np.ndarray, players: int, x: int) -> float:
    """The chance that x is the top score of ``players`` when the others draw from ``p``, a tie for the top
    shared evenly: every draw of the others enumerated."""
    total = 0.0
    for others in itertools.product(range(len(p)), repeat=players - 1):
        chance = float(np.prod([p[s] for s in others]))
        if max(others, default=-1) > x:
            continue
        total += chance / (1 + sum(s == x for s in others))
    return total


@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_fields_utility_is_the_brute_force_chance_of_the_top_score(players):
    rng = np.random.default_rng(players)
    p = rng.random(7) * (rng.random(7) > 0.3)  # some scores nobody makes
    p[2] = 0.5
    field = aims.Field(players).against(p, "a test")
    scores = np.arange(-2, 10)
    want = [brute_force_field(p / p.sum(), players, int(x)) if x >= 0 else 0.0 for x in scores]
    assert field.utility(scores) == pytest.approx(want, abs=1e-12)
    assert field.aim() == np.nonzero(p)[0][-1] + 1 or field.utility(np.array([field.aim()]))[0] >= 1 - 1e-7


def test_a_field_of_two_is_the_score_to_beat_averaged_over_the_others():
    p = np.array([0.1, 0.0, 0.3, 0.4, 0.2])
    field = aims.Field(2).against(p, "a test")
    x = np.arange(8)
    averaged = sum(p[s] * aims.Beat(s).utility(x) for s in range(len(p)))
    assert field.utility(x) == pytest.approx(averaged, abs=1e-15)


def goal_reference(game, utility):
    """value(boxes)[s]: the best expected utility of the final score with s points so far (bonuses paid at
    the end), by memoised recursion over the rules, every s at once; ``after_roll`` looks inside a turn."""
    n = game.n_dice
    top = int(game.max_scores.sum()) + 100  # past any total, bonuses included
    so_far = np.arange(top + 1)

    def shifted(v, points):  # the value with s points so far after scoring ``points`` more
        return np.concatenate((v[points:], np.full(points, np.nan)))  # past ``top``: never reached

    @lru_cache(maxsize=None)
    def throws(k):
        shown, counts = zip(*counted_throws(game.faces, k))
        return shown, np.array(counts) / game.faces**k

    def expected(outcome, k):
        return throws(k)[1] @ np.array([outcome(t) for t in throws(k)[0]])

    @lru_cache(maxsize=None)
    def value(boxes, paid=0):
        if all(v is not None for v in boxes):
            return utility(so_far + final_score_bonus(game, boxes))
        return expected(lambda t: after_roll(boxes, t, game.rolls - 1, paid), n)

    @lru_cache(maxsize=None)
    def after_roll(boxes, dice, left, paid=0):
        if left == 0:
            return np.fmax.reduce([shifted(value(boxes[:c] + (pts,) + boxes[c + 1:], paid + (extra > 0)), pts + extra)
                                   for c, pts, extra in game.legal_scores(boxes, dice, paid)])
        kept = {tuple(dice[i] for i in range(n) if mask >> i & 1) for mask in range(1 << n)}
        return np.fmax.reduce([expected(lambda t, k=k: after_roll(boxes, tuple(sorted(k + t)), left - 1, paid),
                                        n - len(k)) for k in kept])

    value.after_roll = after_roll
    return value


@pytest.mark.parametrize("definition,players", [(PAIRS_GAME, 3), (BONUS_GAME, 2), (BONUS_GAME, 10)])
def test_the_best_chance_of_winning_a_field_is_the_reference(definition, players):
    """Against the game's own mean-players (their exact distribution), through ``ds.solve``: the start's chance
    and every option of a turn as the recursion over the true utility (no table, no cut-off) has them."""
    game = tiny(definition)
    solution = ds.solve(game, goal=aims.Field(players))
    field = solution.final_goal
    assert isinstance(field, aims.Field) and field.source == "players who play for the mean"
    mean_players = registry.family_of(game).distribution(game).probabilities
    p = np.zeros(max(mean_players) + 1)
    p[list(mean_players)] = list(mean_players.values())
    assert field.others == pytest.approx(tuple(p), abs=1e-12)
    reference = goal_reference(game, field.utility)
    assert solution.root_value == pytest.approx(reference((None,) * game.n_categories)[0], abs=1e-6)
    # the mean-players' own chance of the top score is 1/players; the field's strategy does no worse
    theirs = float(p @ field.utility(np.arange(len(p))))
    assert theirs == pytest.approx(1 / players, abs=1e-9) and solution.root_value > theirs + 1e-3
    boxes = (None,) * game.n_categories
    for dice in [tuple(int(d) for d in roll) for roll in game.dice.rolls[::4]]:
        for left in (0, 1):
            advice = ds.advise(game, type(game.start())(game, game.start().cards, dice, (), left), goal=field)
            assert advice.unit == "p_target" and advice.details["field"] == players
            assert advice.best.value == pytest.approx(reference.after_roll(boxes, dice, left)[0], abs=1e-6)


def test_a_field_of_known_scores_is_exact_and_read_from_a_file(tmp_path, capsys):
    """--field-scores: the others' scores from a file; past the best of them the win is certain, so the table
    needs no cut-off; bad files and bad fields are one clear line and exit 2."""
    from test_cli import run

    game = tiny(BONUS_GAME)
    rules = tmp_path / "bonus.toml"
    from tinygames import rules_file
    rules_file(BONUS_GAME, rules)
    scores = tmp_path / "league.txt"
    scores.write_text("# our league\n12, 15 15\n\n20 9\n")
    field = aims.Field(4).against(aims.read_field_scores(scores), "the league")
    assert field.aim() == 21 and field.utility(np.array([21]))[0] == 1.0
    reference = goal_reference(game, field.utility)((None,) * game.n_categories)[0]
    code, out, err = run(capsys, "solve", str(rules), "--field", "4", "--field-scores", str(scores), "--json")
    assert code == 0, err
    info = json.loads(out)
    assert info["unit"] == "p_target" and info["details"] == {"field": 4}
    assert info["value"] == pytest.approx(reference, abs=1e-6)
    code, out, _ = run(capsys, "advise", str(rules), "/123/1", "--field-scores", str(scores), "--top", "1")
    assert code == 0 and "winning a blind field of 2 against players who scored as in" in " ".join(out.split())
    bad = tmp_path / "bad.txt"
    for text, words in (("12 x3\n", "line 1: 'x3' is not a score"), ("# none\n", "holds no scores"),
                        ("-4\n", "'-4' is not a score"), ("99999\n", "is not a score")):
        bad.write_text(text)
        code, _, err = run(capsys, "solve", str(rules), "--field-scores", str(bad))
        assert code == 2 and words in err, (text, err)
    for args, words in ((["--field", "0"], "a field is 2 to"), (["--field", "1"], "a field is 2 to"),
                        (["--field", "3", "--theta", "0.1"], "different goals"),
                        (["--field-scores", str(tmp_path / "missing.txt")], "cannot read the field's scores")):
        code, _, err = run(capsys, "solve", str(rules), *args)
        assert code == 2 and words in err, (args, err)
    code, _, err = run(capsys, "solve", "pig", "--field", "3")
    assert code == 2 and "not for pig" in err


def test_goals_are_typed_as_text_and_refused_in_one_line():
    assert aims.parse_goal("mean") == aims.Mean() and aims.parse_goal("theta:0") == aims.Mean()
    assert aims.parse_goal(" Field:10 ") == aims.Field(10) and aims.parse_goal("beat:250") == aims.Beat(250)
    assert aims.parse_goal("target:300") == aims.AtLeast(300)
    assert aims.parse_goal("theta:-0.02") == aims.RiskAppetite(-0.02)
    for text in ("field:", "field:1", "beat:x", "median", "theta:5", "target:0"):
        with pytest.raises(InputError):
            aims.parse_goal(text)
    for goal in (aims.AtLeast(300), aims.Beat(250), aims.Field(10), aims.RiskAppetite(0.05)):
        assert aims.parse_goal(goal.text()) == goal
    with pytest.raises(InputError, match="theta or a goal"):
        ds.solve("yacht", theta=0.1, goal="field:3")


def test_a_target_through_the_goal_is_the_target_table():
    """AtLeast and Beat keep the target tables they always had (the same cache key, the same chances)."""
    game = tiny(PAIRS_GAME)
    by_goal = ds.solve(game, goal="target:20")
    by_target = registry.family_of(game).target_solution(game, 20)
    assert by_goal.root_value == by_target.root_value
    assert by_goal.info.table_dir == by_target.info.table_dir
    assert by_goal.table.chance(TurnState(0), 20) == by_goal.root_value


def test_the_field_player_wins_as_often_as_its_table_says(fresh_cache):
    """``field:N`` plays many games in the kernels from its table: its share of fields won (the mean of the
    field's utility over its final scores) agrees with the table's exact chance, and beats the mean-player's
    1/N on the same dice."""
    from dicesolver.scorecard.bots.simulate import simulate

    game = tiny(BONUS_GAME)
    runs = simulate(game, ["optimal", "field:3"], n=40_000, seed=5)
    optimal, field = (run.facts for run in runs)
    assert runs[1].player == "field:3" and field["goal"] == optimal["goal"] == "field:3" and field["target"] is None
    chance, rate = field["target_chance"], field["target_rate"]
    sd = (chance * (1 - chance) / 40_000) ** 0.5
    assert abs(rate - chance) < 4 * sd
    assert optimal["target_rate"] == pytest.approx(1 / 3, abs=4 * sd)
    assert chance > 1 / 3 + 1e-3
    assert "field:N" in registry.family_of(game).players(game)


@pytest.mark.parametrize("q", [5.0, 50.0, 95.0])
def test_the_highest_percentile_is_the_last_target_likely_enough(q):
    """percentile:Q plays for the target T whose best chance is the last above 1 - Q/100 (the recursion's
    curve), which is at least the mean-player's own Q-th percentile."""
    from test_target import reference_chances

    game = tiny(BONUS_GAME)
    curve = reference_chances(game, 250)
    assert curve[-1] == 0.0  # past the most the game scores (its extra-yacht bonuses included)
    want = int(np.nonzero(curve > 1 - q / 100 + 1e-9)[0][-1])
    solution = ds.solve(game, goal=f"percentile:{q:g}")
    assert solution.info.details == {"percentile": q, "target": want}
    assert solution.root_value == pytest.approx(curve[want], abs=1e-6) and solution.root_value > 1 - q / 100
    mean_player = registry.family_of(game).distribution(game)
    assert want >= mean_player.percentiles[str(int(q))] if str(int(q)) in mean_player.percentiles else True
    assert f"the highest {q:g}th percentile" in solution.headline()
    with pytest.raises(InputError, match="between 0 and 100"):
        aims.parse_goal("percentile:100")


def reached_totals(game, model):
    """{table row: the most points any game has at that turn start}, by walking every game: each final roll's
    legal boxes from every card reached (what ``target.table.most_points`` finds forward over the rows)."""
    from dicesolver.scorecard.game.position import Position

    rolls = [tuple(int(d) for d in roll) for roll in game.dice.rolls]
    most: dict[int, int] = {}
    frontier = {((None,) * game.n_categories, 0, 0)}  # (boxes, extra bonuses paid, their points)
    while frontier:
        following = set()
        for boxes, paid, extra_points in frontier:
            card = Position(boxes, None, game.rolls, extra_points)
            key = model.index(TurnState.of(game, card))
            most[key] = max(most.get(key, -1), card.total(game))
            for dice in rolls if None in boxes else ():
                for c, pts, extra in game.legal_scores(boxes, dice, paid):
                    following.add((boxes[:c] + (pts,) + boxes[c + 1:], paid + (extra > 0), extra_points + extra))
        frontier = following
    return most


@pytest.mark.parametrize("definition", [BONUS_GAME, SET_BONUS_GAME])
def test_the_most_points_at_each_turn_start_are_those_of_every_game_walked(definition):
    from dicesolver.scorecard.target.table import most_points

    game = tiny(definition)
    model = SolitaireModel(game)
    most = most_points(model)
    walked = reached_totals(game, model)
    assert {int(row): int(most[row]) for row in np.nonzero(most >= 0)[0]} == walked


def test_a_goal_table_solves_only_the_needs_games_reach_and_they_are_every_needs_bits(monkeypatch):
    """A goal's aim is fixed, so a row needs only the needs aim - points for the points games have there: those
    entries are the bits of a table solved for every need, and a turn start with more points than games have
    there is refused."""
    from dicesolver.scorecard.target import table as target

    game = tiny(BONUS_GAME)
    scores = registry.family_of(game).distribution(game).probabilities
    p = np.zeros(max(scores) + 1)
    p[list(scores)] = list(scores.values())
    field = aims.Field(3).against(p, "a test")
    N = field.needs()
    windowed = target.build(game, N, row=field.full_card_row())
    model = windowed.model
    monkeypatch.setattr(target, "most_points", lambda model: np.full(model.size, N, dtype=np.int32))
    everything = target.build(game, N, row=field.full_card_row())
    width = N + 1
    first = np.where(windowed.most >= 0, np.clip(N - windowed.most, 0, N), width)
    solved = np.arange(width)[None, :] >= first[:, None]
    assert solved.sum() < 0.6 * solved.size  # a window, not the whole table
    old, new = everything.V.reshape(-1, width), windowed.V.reshape(-1, width)
    assert np.array_equal(old[solved], new[solved])
    assert windowed.chance(TurnState(0), N) == everything.chance(TurnState(0), N)
    with pytest.raises(InputError, match="no game has 5 points with these boxes filled"):
        windowed.chance(TurnState(0), N - 5)  # the parser refuses such cards; the table says why as well
