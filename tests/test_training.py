"""The trainer (``dicesolver train``): positions drawn from play by seed, answers judged on the review's scale,
the deck of mistakes asked again until answered right twice, reviewed games joining it, and the history."""

import io
import json

import pytest
from rich.console import Console
from test_cli import run

import dicesolver as ds
from dicesolver.core.training import TrainingRecord, bots_for, sample_positions
from dicesolver.play.session import Session
from dicesolver.terminal.trainer import StopTraining, train


@pytest.fixture(autouse=True)
def own_data(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def session(game, solution, n, seed, answers):
    """A session whose answers are ``answers[i]`` (True: the best, False: the worst) for the i-th question."""
    console = Console(file=io.StringIO(), width=120)
    shown: list = []
    import dicesolver.terminal.trainer as trainer

    original = trainer._read_move

    def read(state, prompt, console_, ask, solution_):
        shown.append(state)
        if len(shown) > len(answers):
            raise StopTraining
        options = solution.advise(state).options
        return state.parse_step((options[0] if answers[len(shown) - 1] else options[-1]).action), False

    trainer._read_move = read
    try:
        result = train(game, solution, console, lambda p: "", n, seed)
    finally:
        trainer._read_move = original
    return result, shown, console.file.getvalue()


def test_the_positions_are_drawn_by_seed_from_the_bots_play():
    game = ds.load_game("yacht-dice")
    solution = ds.solve(game)
    assert bots_for(game) == ["joe", "greedy", "optimal"]
    first = [str(s) for s in sample_positions(game, solution, 8, seed=3)]
    assert first == [str(s) for s in sample_positions(game, solution, 8, seed=3)]
    assert first != [str(s) for s in sample_positions(game, solution, 8, seed=4)]
    assert len(set(first)) == 8
    for text in first:  # each a decision with a choice, read back from its text
        state = game.parse_state(text)
        assert state.to_move() is not None and len(state.legal_actions()) > 1


def test_the_drawn_decisions_matter_more_than_the_bots_average_one():
    """Weighted by the gap to the second option and the bots' own cost: the sample's mean gap is above the
    pool's."""
    game = ds.load_game("yacht-dice")
    solution = ds.solve(game)

    def gap(state):
        options = solution.advise(state).options
        return options[1].cost

    drawn = sample_positions(game, solution, 30, seed=1)
    pool = sample_positions(game, solution, 30, seed=1, bots=["optimal"])  # the optimal player alone errs never
    assert sum(map(gap, drawn)) / 30 > 0.5 and sum(map(gap, drawn)) >= sum(map(gap, pool)) * 0.5


def test_a_session_counts_its_losses_and_asks_the_mistakes_again_until_right_twice():
    game = ds.load_game("yacht-dice")
    solution = ds.solve(game)
    result, shown, text = session(game, solution, 4, seed=2, answers=[True, False, True, False])
    assert result is not None and result.decisions == 4
    costs = [solution.advise(s).options[-1].cost for s in shown[1::2]]
    assert result.mean_loss == pytest.approx(sum(costs) / 4, abs=1e-9)
    assert result.labels.get("best", 0) == 2 and "the best is" in text and " beats " in text  # the why, in a sentence
    assert "ahead of" in text and "sd of the final score" in text  # a right answer's margin; the spreads
    assert result.source == "trainer: new positions"
    deck = set(TrainingRecord.load(game).mistakes)
    assert deck == {str(s) for s in shown[1::2]}
    for round_ in range(2):  # asked first in the next sessions; answered right twice, they leave the deck
        result, shown, text = session(game, solution, 4, seed=10 + round_, answers=[True] * 4)
        assert {str(s) for s in shown[:2]} == deck and "here before" in text
        assert result.source == "trainer: 2 from the deck, 2 new"
    assert TrainingRecord.load(game).mistakes == {}
    assert [s.decisions for s in TrainingRecord.load(game).sessions] == [4, 4, 4]


def test_a_stopped_session_keeps_what_was_answered():
    game = ds.load_game("pig")
    solution = ds.solve(game)
    result, shown, text = session(game, solution, 5, seed=1, answers=[False])
    assert result.decisions == 1 and len(shown) == 2  # the second question was stopped
    assert "the best is" in text  # a game without a split shows the best options instead of the why
    assert len(TrainingRecord.load(game).sessions) == 1


def test_a_reviewed_game_joins_the_deck_and_the_history(capsys, tmp_path):
    game = ds.load_game("yacht")
    record = tmp_path / "mine.jsonl"
    played = Session.new(game, [], seed=5, path=str(record))
    solution = ds.solve(game)
    while not (state := played.state).is_terminal():  # a poor player: always the worst option
        if state.is_chance():
            played.play(played.draw())
        else:
            played.play(state.parse_step(solution.advise(state).options[-1].action))
    code, out, err = run(capsys, "train", "yacht", "--from", str(record), "--history", "--json")
    assert code == 0, err
    history = json.loads(out)
    assert len(history) == 1 and history[0]["source"] == "mine.jsonl" and history[0]["mean_loss"] > 1
    lost = sum(n for name, n in history[0]["labels"].items() if name != "best")
    assert lost > 0 and len(TrainingRecord.load(game).mistakes) == lost
    code, out, _ = run(capsys, "train", "yacht", "--history", "--plot", str(tmp_path / "p.png"))
    assert code == 0 and (tmp_path / "p.png").stat().st_size > 5000 and "mean loss" in out
    code, _, err = run(capsys, "train", "yacht", "--plot", str(tmp_path / "q.png"))
    assert code == 2 and "--history" in err
    code, _, err = run(capsys, "train", "yacht", "--from", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "error" in err


def test_train_on_the_command_line_reads_moves_from_standard_input(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("keep 9\nquit\n"))
    code, out, err = run(capsys, "train", "yacht-dice", "-n", "2", "--seed", "4")
    assert code == 0, err
    assert "question 1 of 2" in out and "question 2" not in out  # a bad move is asked again; quit stops


@pytest.mark.parametrize("name,content", [("sessions.jsonl", "garbage{"), ("mistakes.json", "[1, 2]"),
                                          ("mistakes.json", '{"/1/0": {"position": "/1/0", "loss": "much"}}'),
                                          ("sessions.jsonl", '{"decisions": "x"}')])
def test_a_damaged_training_record_is_one_clear_line(capsys, name, content):
    game = ds.load_game("yacht")
    folder = TrainingRecord(game.canonical).folder(game)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(content)
    code, _, err = run(capsys, "train", "yacht", "--history")
    assert code == 2 and "cannot be read" in err and "Traceback" not in err


def test_the_deck_comes_first_whatever_its_size():
    """A deck larger than a session: every question comes from it, the costliest first (the docs' promise;
    up to half of them did before), and the session is labelled as the deck's in the history."""
    game = ds.load_game("yacht-dice")
    solution = ds.solve(game)
    session(game, solution, 6, seed=2, answers=[False] * 6)
    deck = TrainingRecord.load(game).mistakes
    assert len(deck) >= 3
    result, shown, _ = session(game, solution, 3, seed=9, answers=[True] * 3)
    costliest = sorted(deck.values(), key=lambda m: -m.loss)[:3]
    assert [str(s) for s in shown] == [m.position for m in costliest]
    assert result.source == "trainer: the deck"


def test_a_hint_in_training_shows_the_best_options_and_the_answer_is_not_counted(capsys, monkeypatch):
    """'hint' at a question: the best three options (not "'hint' is not an open box"); the move then typed
    is judged but not counted, in the session or the deck."""
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\nquit\n"))
    code, out, err = run(capsys, "train", "yacht-dice", "-n", "2", "--seed", "4")
    assert code == 0, err
    assert "hint: the best three" in out and "is not an open box" not in out
    import dicesolver.terminal.trainer as trainer

    game = ds.load_game("yacht-dice")
    solution = ds.solve(game)
    worst = lambda state, prompt, console, ask, solution_: (  # noqa: E731 - a hinted, wrong answer
        state.parse_step(solution.advise(state).options[-1].action), True)
    monkeypatch.setattr(trainer, "_read_move", worst)
    console = Console(file=io.StringIO(), width=120)
    assert train(game, solution, console, lambda p: "", 2, 4) is None  # nothing counted
    assert "after a hint: not counted" in console.file.getvalue()
    assert TrainingRecord.load(game).mistakes == {} and TrainingRecord.load(game).sessions == []
