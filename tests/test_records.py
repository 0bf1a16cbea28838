"""One record format for every game (core/records.py): a header, then one step text a line, read and replayed
by core; the records each family wrote before (format 1) are still read, to the same steps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dicesolver.core import records, registry
from dicesolver.core.errors import InputError
from dicesolver.core.playthrough import Playthrough
from fuzzing import playthrough

OLD = Path(__file__).parent / "data" / "records_v1"
GAMES = [("yacht", None), ("yahtzee", 2), ("generala", 3), ("pig(goal=30)", None), ("skunk", None),
         ("big-pig(goal=40)", None), ("despirala", 2), ("despirala(misere)", None),
         ("farkle(goal=1000,floor=-500)", None)]


def write(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def random_game(spec: str, players: int | None, seed: int) -> Playthrough:
    states, taken = playthrough(spec, seed, players)
    game = states[0].game
    names = [f"player {i}" for i in range(game.n_players)]
    return Playthrough(game, names, list(taken), first=game.n_players - 1, seed=seed,
                       details={"bots": {"1": "optimal"}})


def finished_game(spec: str) -> Playthrough:
    """A game played to its end: random legal actions, outcomes by their odds."""
    states, steps = playthrough(spec, 7, to_end=True)
    return Playthrough(states[0].game, ["a", "b"], steps)


@pytest.mark.parametrize("spec, players", GAMES)
def test_every_game_reads_back_its_steps(tmp_path, spec, players):
    for seed in (1, 2, 3):
        played = random_game(spec, players, seed)
        lines = records.lines(played)
        assert lines[0]["format"] == records.STEP_FORMAT and all(line["type"] == "step" for line in lines[1:])
        assert [line["step"] for line in lines[1:]] == [str(step) for step in played.steps]
        back = registry.read_record(write(tmp_path / f"{seed}.jsonl", lines))
        assert back.game.canonical == played.game.canonical and back.game.n_players == played.game.n_players
        assert back.steps == played.steps and back.final == played.final
        assert (back.players, back.first, back.seed) == (played.players, played.first, played.seed)
        assert back.details["bots"] == {"1": "optimal"} and back.details["manual_dice"] is False


@pytest.mark.parametrize("name", sorted(p.name for p in OLD.glob("*.jsonl")))
def test_records_of_format_1_are_still_read_and_say_the_same_in_format_2(tmp_path, name):
    old = registry.read_record(OLD / name)
    assert old.steps, name
    again = registry.read_record(write(tmp_path / name, records.lines(old)))
    assert again.steps == old.steps and again.final == old.final
    assert (again.players, again.first, again.seed) == (old.players, old.first, old.seed)


def test_a_record_that_breaks_the_rules_is_refused_at_its_line(tmp_path):
    played = random_game("yahtzee", 2, 2)
    lines = records.lines(played)
    first_keep = next(i for i, line in enumerate(lines) if i and line["step"].startswith("keep"))
    cases = {
        "a step the rules refuse": (first_keep, {**lines[first_keep], "step": "keep 777"}),
        "another player's step": (first_keep, {**lines[first_keep], "player": 1 - lines[first_keep]["player"]}),
        "not a step line": (1, {"type": "roll", "player": 0, "dice": "12345"}),
        "a step that is not text": (1, {**lines[1], "step": 12345}),
    }
    for what, (i, bad) in cases.items():
        broken = lines[:i] + [bad] + lines[i + 1:]
        with pytest.raises(InputError, match=f"line {i + 1}:"):
            registry.read_record(write(tmp_path / "bad.jsonl", broken))
    over = records.lines(finished_game("pig(goal=30)"))
    assert registry.read_record(write(tmp_path / "pig.jsonl", over)).is_over()
    with pytest.raises(InputError, match=f"line {len(over) + 1}: the game is already over"):
        registry.read_record(write(tmp_path / "pig.jsonl", over + [over[-1]]))


@pytest.mark.parametrize("header, words", [
    ({"players": []}, "'players' must list"),
    ({"players": ["x" * 41]}, "'players' must list"),
    ({"first": 5}, "'first' must be"),
    ({"first": True}, "'first' must be"),
    ({"seed": "seven"}, "'seed' must be"),
    ({"players": ["a", "b", "c"], "game": "pig"}, "line 1:"),
])
def test_a_bad_header_is_one_clear_error(tmp_path, header, words):
    line = {"type": "game", "format": 2, "game": "yacht", "seed": 1, "players": ["a"], "first": 0, **header}
    with pytest.raises(InputError, match=words):
        registry.read_record(write(tmp_path / "h.jsonl", [line]))
