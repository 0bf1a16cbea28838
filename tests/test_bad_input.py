"""Issue 17's reproducers: bad input gets one clear line and exit 2 (the CLI) or a 4xx (the web), never a
traceback. Each case is one the audit found crashing, or one of its class."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from dicesolver.cli.app import main
from dicesolver.core.errors import InputError
from dicesolver.core.numbers import parse_int

LONG = "9" * 5_000  # beyond Python's 4,300-digit limit for int()

CASES = [
    # rich markup in user text (printed escaped, not interpreted)
    (["rules", "[/x]"], "[/x]"),
    (["advise", "yahtzee", "[/x]=3/-/3"], "[/x]"),
    (["advise", "pig", "[/x]"], "[/x]"),
    (["odds", "yahtzee", "-c", "[/x]"], "[/x]"),
    # numbers: superscripts, doubled signs, too many digits, non-ASCII digits
    (["advise", "yahtzee", "aces=²/-/3"], "whole number"),
    (["advise", "yahtzee", "/13456/--1"], "whole number"),
    (["advise", "yahtzee", "bonus=--100/-/3"], "whole number"),
    (["advise", "yahtzee", f"/13456/{LONG}"], "whole number"),
    (["advise", "yacht", "/1²345/2"], "not a die"),
    (["advise", "despirala", "none;0;²²²²²²"], "faces 1-6"),
    (["advise", "despirala", f"none;{LONG};123456"], "whole number"),
    (["advise", "skunk", "٣,٣,٣"], "position"),
    (["solve", "pig(goal=²)"], "whole number"),
    (["advise", "generala", "aces=1/123;45/2"], "not a die"),  # a ';' after the first '/'
    (["rules", "~nouser/x.toml"], "no home directory"),
    (["solve", "despirala(misere,normal)"], "played one way"),  # the last option used to win silently
    (["solve", "despirala(misere,play=misere)"], "played one way"),
    # impossible scorecards: the extra Yahtzees must fit the boxes (forced joker, and the free joker)
    (["advise", "yahtzee", "yahtzee=50,aces=3,bonus=100/-/3"], "do not fit"),
    (["advise", "yahtzee", "yahtzee=50,chance=7,bonus=100/-/3"], "do not fit"),
    (["advise", "yahtzee", "yahtzee=50,small_straight=30,bonus=100/-/3"], "do not fit"),
    (["advise", "yahtzee(joker=free)", "yahtzee=50,small_straight=30,bonus=100/-/3"], "do not fit"),
]


@pytest.mark.parametrize("argv, words", CASES, ids=[" ".join(a)[:40] for a, _ in CASES])
def test_one_line_and_exit_2(capsys, argv, words):
    with pytest.raises(SystemExit) as done:
        main(argv)
    out, err = capsys.readouterr()
    assert done.value.code == 2, (out, err)
    assert err.startswith("error: ") and words in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err


def test_numbers_are_read_one_way():
    assert parse_int(" 12 ", "x") == 12 and parse_int("-3", "x") == -3
    for bad in ["²", "--3", "+3", "1e3", "٣", "", "-", LONG, "3.0"]:
        with pytest.raises(InputError, match="whole number"):
            parse_int(bad, "x")
    with pytest.raises(InputError, match="from 0 to 5"):
        parse_int("6", "x", 0, 5)


@pytest.mark.parametrize("game, position", [
    ("yahtzee", "aces=²/-/3"), ("yahtzee", "/13456/--1"), ("yahtzee", f"/13456/{LONG[:150]}"),
    ("despirala", "none;0;²²²²²²"), ("generala", "aces=1/123;45/2"), ("pig", "[/x]"),
])
def test_the_web_answers_400(game, position):
    from dicesolver.web.app import create_app

    with TestClient(create_app()) as client:
        r = client.post("/api/advice", json={"game": game, "position": position})
    assert r.status_code == 400 and r.json()["detail"]


@pytest.mark.parametrize("game, position, typed", [
    ("skunk", "0,0,0", "²"),  # a throw typed at `play skunk --manual-dice`
    ("skunk", "0,0,0", LONG),
    ("despirala", "none;5;113456", "four of a kind " + LONG),  # a move typed at `play despirala`
    ("yacht", "/11345/2", "keep ²"),
])
def test_typed_steps_are_refused_with_one_error(game, position, typed):
    import dicesolver as ds

    state = ds.parse_state(game, position)
    if game == "skunk":
        state = state.apply(state.parse_step("throw")) if not state.is_chance() else state
    with pytest.raises(InputError):
        state.parse_step(typed)


@pytest.mark.parametrize("card", ["yahtzee=50,aces=5,bonus=100", "yahtzee=50,sixes=30,chance=30,bonus=200",
                                  "yahtzee=50,fives=25,small_straight=30,bonus=200",
                                  "yahtzee=50,aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,"
                                  "large_straight=40,bonus=100"])
def test_cards_where_the_extra_yahtzees_fit_are_accepted(card):
    import dicesolver as ds

    assert str(ds.parse_state("yahtzee", f"{card}/-/3"))
    # the free joker: a five of a kind of twos in the small straight scores 0 while the twos are open
    assert str(ds.parse_state("yahtzee(joker=free)", "yahtzee=50,aces=5,twos=10,small_straight=0,bonus=200/-/3"))



def test_a_full_disk_still_gives_the_solved_value(capsys, fresh_cache, monkeypatch):
    import errno

    from dicesolver.core import tables

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tables, "save", full)
    with pytest.raises(SystemExit) as done:
        main(["solve", "yacht-dice"])
    out, err = capsys.readouterr()
    assert done.value.code in (0, None) and "191.774369" in out
    assert "could not save the table" in err and "No space left on device" in err and "Traceback" not in err
    assert not any(fresh_cache.rglob("manifest.json"))  # nothing half-written


def test_deeply_nested_files_are_refused_in_one_line(capsys, tmp_path):
    rules = tmp_path / "deep.toml"
    rules.write_text("x = " + "[" * 20_000 + "]" * 20_000 + "\n")
    record = tmp_path / "deep.jsonl"
    record.write_text("[" * 50_000 + "\n")
    for argv, words in [(["rules", str(rules)], "nested too deeply"), (["analyze", str(record)], "nested too deeply")]:
        with pytest.raises(SystemExit) as done:
            main(argv)
        err = capsys.readouterr().err
        assert done.value.code == 2 and words in err and len(err.strip().splitlines()) == 1, err


def test_the_web_refuses_a_deeply_nested_record():
    from dicesolver.web.app import create_app

    with TestClient(create_app()) as client:
        r = client.post("/api/review", json={"record": "[" * 50_000})
    assert r.status_code == 400 and "nested too deeply" in r.json()["detail"]
