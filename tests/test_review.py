import json

import numpy as np
import pytest
from records_v1 import write_v1
from test_cli import run

from dicesolver import load_game
from dicesolver.core import registry
from dicesolver.core.errors import InputError
from dicesolver.core.review import LABELS, label
from dicesolver.scorecard.bots.players import make_player
from dicesolver.scorecard.bots.selfplay import play_game
from dicesolver.scorecard.game.position import parse_position
from dicesolver.scorecard.game.records import read_record
from dicesolver.scorecard.game.state import Keep


def review(solution, record):
    return solution.review(record.playthrough(), 0)


@pytest.fixture(scope="module")
def yahtzee():
    game = load_game("yahtzee")
    return game, registry.solve(game)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_optimal_play_has_zero_loss_and_telescopes(yahtzee, seed):
    game, solution = yahtzee
    result = review(solution, play_game(game, make_player("optimal", game), seed))
    s = result.summary
    assert s.loss == 0 and all(d.loss == 0 and d.label == "best" for d in result.decisions)
    assert s.complete
    assert s.baseline == pytest.approx(solution.root_value)
    assert s.baseline + s.luck - s.loss == pytest.approx(s.result, abs=1e-6)


def test_weak_play_has_losses_and_labels(yahtzee):
    game, solution = yahtzee
    result = review(solution, play_game(game, make_player("greedy", game), 5))
    s = result.summary
    assert s.loss > 5 and s.decisions_with_choice > 20
    assert all(d.loss >= 0 and d.skill <= 0 for d in result.decisions)
    assert all(d.loss == 0 or d.chosen != d.best for d in result.decisions)
    assert s.baseline + s.luck - s.loss == pytest.approx(s.result, abs=1e-6)
    assert sum(s.labels.values()) == s.decisions


def test_label_thresholds():
    assert [b for b, _ in LABELS["points"]] == [1.0, 4.0, 10.0, float("inf")]
    assert label(0) == "best" and label(0.5) == "inaccuracy" and label(1.0) == "mistake"
    assert label(3.99) == "mistake" and label(4) == "blunder" and label(10) == "massive blunder"


def test_luck_averages_to_zero(yahtzee):
    game, solution = yahtzee
    pos = parse_position(game, "aces=3,full_house=25/13456/2")
    state = game.parse_state("aces=3,full_house=25/13456/2")
    assert state.position == pos
    for keep in [(), (3, 4, 5), (1, 3, 4, 5, 6), (6,)]:
        held = state.apply(Keep(keep))
        before = solution.value(held)
        outcomes = np.array([(p, solution.value(held.apply(o)) - before) for o, p in held.chance_outcomes()])
        assert np.dot(outcomes[:, 0], outcomes[:, 1]) == pytest.approx(0, abs=1e-9)


def test_record_round_trip(tmp_path, yahtzee):
    game, _ = yahtzee
    record = play_game(game, make_player("greedy", game), 3)
    path = tmp_path / "g.jsonl"
    write_v1(path, record)
    again = read_record(path)
    assert again.game.canonical == "yahtzee" and again.seed == 3 and again.players == ["greedy"]
    assert again.events == record.events
    write_v1(tmp_path / "h.jsonl", again)
    assert (tmp_path / "h.jsonl").read_text() == path.read_text()


def test_half_written_last_line_is_ignored(tmp_path, yahtzee):
    game, _ = yahtzee
    path = tmp_path / "g.jsonl"
    write_v1(path, play_game(game, make_player("greedy", game), 3))
    text = path.read_text()
    path.write_text(text + '{"type": "roll", "pla')
    warnings = []
    assert len(read_record(path, warnings).events) == text.count("\n") - 1
    assert warnings and "half-written" in warnings[0]


def _record_lines(*events):
    header = {"type": "game", "format": 1, "game": "yahtzee", "seed": None, "players": ["me"]}
    return "\n".join(json.dumps(x) for x in (header, *events)) + "\n"


@pytest.mark.parametrize(
    "events,message",
    [
        ([{"type": "keep", "turn": 1, "keep": "1"}], "keep needs"),
        ([{"type": "roll", "turn": 1, "dice": "11111"}, {"type": "keep", "turn": 1, "keep": "2"}], "cannot keep"),
        ([{"type": "roll", "turn": 1, "dice": "11111"}, {"type": "keep", "turn": 1, "keep": "11"},
          {"type": "roll", "turn": 1, "dice": "22222"}], "changed a held die"),
        ([{"type": "roll", "turn": 1, "dice": "11111"}, {"type": "roll", "turn": 1, "dice": "11111"}], "must follow a keep"),
        ([{"type": "roll", "turn": 1, "dice": "1111"}], "5 dice"),
        ([{"type": "roll", "turn": 1, "dice": "11119"}], "not a face"),
        ([{"type": "roll", "turn": 1, "dice": "11111"}, {"type": "score", "turn": 1, "category": "aces", "points": 4}],
         "scores 5 here"),
        ([{"type": "roll", "turn": 1, "dice": "11111"}, {"type": "score", "turn": 1, "category": "sevens"}], "not a category"),
        ([{"type": "dance", "turn": 1}], "unknown event"),
        ([{"type": "roll", "turn": 1}], "needs 'dice'"),
    ],
)
def test_impossible_records_are_reported(tmp_path, events, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(_record_lines(*events))
    with pytest.raises(InputError, match=message):
        read_record(path)


def test_bad_record_files(tmp_path):
    for text, message in [("", "empty"), ("not json\n", "not valid JSON"), ('{"type": "roll"}\n', "header"),
                          ('{"type": "game", "format": 9, "game": "yahtzee"}\n', "format"),
                          ('{"type": "game", "format": 1, "game": "nosuch"}\n', "unknown game")]:
        path = tmp_path / "r.jsonl"
        path.write_text(text)
        with pytest.raises(Exception, match=message):
            read_record(path)
    with pytest.raises(InputError, match="no game record"):
        read_record(tmp_path / "missing.jsonl")


def test_a_game_is_saved_step_by_step_and_never_overwrites_another(tmp_path):
    from dicesolver.play.session import Session

    path = tmp_path / "w.jsonl"
    session = Session.new(registry.load("yacht"), ["greedy"], seed=1, path=path)
    session.play(session.draw())
    assert registry.read_record(path).steps == session.playthrough.steps and len(session.playthrough.steps) == 1
    saved = path.read_text()
    with pytest.raises(InputError, match="exists already"):
        Session.new(registry.load("yacht"), ["greedy"], seed=2, path=path)
    assert path.read_text() == saved


def test_cli_analyze(capsys, tmp_path, yahtzee):
    game, _ = yahtzee
    path = tmp_path / "g.jsonl"
    write_v1(path, play_game(game, make_player("greedy", game), 5))
    code, out, _ = run(capsys, "analyze", str(path), "--json", "--plot", str(tmp_path / "t.png"))
    data = json.loads(out)
    assert code == 0 and data["summary"]["loss"] > 0 and len(data["luck"]) >= 13
    assert (tmp_path / "t.png").exists()
    code, out, _ = run(capsys, "analyze", str(path))
    assert code == 0 and "baseline" in out and "final score" in out
    path.write_text("garbage\n")
    code, _, err = run(capsys, "analyze", str(path))
    assert code == 2 and "not valid JSON" in err


def test_the_review_plot_is_titled_in_words():
    """The plot's title says where the player started, what the dice and the decisions did, and the result, in
    the unit's own words (it said 'baseline 3.32e-06, luck +3.25, loss 2.27')."""
    from types import SimpleNamespace

    from dicesolver.analysis.plots import review_title

    points = SimpleNamespace(game="yahtzee", player="ann", unit="points", baseline=254.59, luck=3.25, loss=2.27,
                             others=0.0, result=255.57)
    assert review_title(points) == ("yahtzee, ann: 254.6 points expected at the start\n"
                                    "the dice (luck) +3.2 points, the decisions cost 2.3 points; result 255.6 points")
    chance = SimpleNamespace(game="yacht", player="bob", unit="p_win", baseline=0.5, luck=-0.25, loss=0.0000332,
                             others=0.1, result=0.0)
    assert review_title(chance) == ("yacht, bob: 50.0% to win at the start\nthe dice (luck) -25.0%, the decisions "
                                    "cost 0.0033%; the others' turns +10.0%; result 0.0%")
