"""Issue 17's reproducers: bad input gets one clear line and exit 2 (the CLI) or a 4xx (the web), never a
traceback. Each case is one the audit found crashing, or one of its class."""

from __future__ import annotations

import pytest
from webclient import TestClient

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
    (["rules", "a\nb.toml"], "no rules file"),  # a newline in a path stays in the one line
    (["advise", "yahtzee", "-1000/-/3"], "No such option"),  # click's usage errors are one line too
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


GOOD_HEAD = "name = 'x'\ndice = 5\n"
CHANCE = "[[categories]]\nname = 'a'\nkind = 'chance'\n"
YACHT = "[[categories]]\nname = 'y'\nkind = 'yacht'\n"


@pytest.mark.parametrize("text, words", [
    # issue 17, item 4: wrong types, out of range, a table where a list belongs, a number too big for the kernels
    (GOOD_HEAD + "[yahtzee_bonus]\ncategory = 'y'\njoker_categories = 5\n" + YACHT,
     "yahtzee_bonus.joker_categories: should be a valid list (got 5)"),
    (GOOD_HEAD + "[categories]\nx = 1\n[variants.v]\nvalues.a = { 'categories.x.y' = 1 }\n",
     "categories: should be a valid list"),
    (GOOD_HEAD + "[[categories]]\nname = 'a'\nkind = 'yacht'\npoints = 3000000000\n",
     "categories[0] 'a'.points: should be less than or equal to 10000"),
    (GOOD_HEAD + CHANCE + "[upper_bonus]\nthreshold = 63\npoints = -1\n", "upper_bonus.points"),
    (GOOD_HEAD + CHANCE + "rolls = 2.5\n", "categories[0] 'a'.rolls: unknown key"),
    ("name = 'x'\ndice = 5\nrolls = 2.5\n" + CHANCE, "rolls: should be a valid integer"),
    ("name = 'x'\ndice = true\n" + CHANCE, "dice: should be a valid integer"),
    # item 11: boxes that could never be named, or two boxes one name; flags and faces of the wrong type
    (GOOD_HEAD + "[[categories]]\nname = '!!!'\nkind = 'chance'\n", "categories[0] '!!!'.name: should be a lower-case"),
    (GOOD_HEAD + CHANCE + "aliases = ['y']\n" + YACHT, "'y' would name both 'a' and 'y'"),
    (GOOD_HEAD + CHANCE + "title = 'Y'\n" + YACHT, "would name both"),
    (GOOD_HEAD + "[[categories]]\nname = 's'\nkind = 'straight'\npoints = 20\nfaces = [true, 2]\n",
     "categories[0] 's'.faces[0]: should be a valid integer"),
    (GOOD_HEAD + "[[categories]]\nname = 'c'\nkind = 'sum_equals'\ntotal = 13\npoints = 50\nneeds_pair = 'yes'\n",
     "needs_pair: should be a valid boolean (got 'yes')"),
    (GOOD_HEAD + CHANCE + "[variants.v]\nvalues.a = {}\nvalues.b = { name = 'z' }\n", "cannot change"),
    (GOOD_HEAD + CHANCE + "[variants.v]\nvalues.a = {}\nvalues.b = { 'type' = 'pig' }\n", "cannot change"),
    (GOOD_HEAD + CHANCE + "[variants.v]\ndefault = 'c'\nvalues.a = {}\n", "default 'c' is not one of its values"),
    (GOOD_HEAD + CHANCE + "[variants.v]\nvalues.a = {}\nvalues.b = { 'categories.a.kind' = 'pair' }\n",
     "cannot change"),
    # what the parser itself cannot bear: a key of thousands of parts (quadratic), a file past the size cap
    (".".join(["k"] * 30_000) + " = 1\n", "more than 64 parts"),
    ("summary = '" + "x" * 300_000 + "'\n", "at most 262144 bytes"),
])
def test_rules_files_are_checked_key_by_key(capsys, tmp_path, text, words):
    rules = tmp_path / "bad.toml"
    rules.write_text(text)
    with pytest.raises(SystemExit) as done:
        main(["rules", str(rules)])
    err = capsys.readouterr().err
    assert done.value.code == 2 and words in err and len(err.strip().splitlines()) == 1, err


def test_a_variant_is_checked_like_the_file(capsys, tmp_path):
    """A variant may only patch in what the file could have said itself; the message names the choice."""
    rules = tmp_path / "v.toml"
    rules.write_text(GOOD_HEAD + CHANCE + "[variants.v]\nvalues.a = {}\nvalues.b = { rolls = 99 }\n")
    with pytest.raises(SystemExit) as done:
        main(["rules", str(rules)])  # the default variant is a fine game
    assert done.value.code in (0, None) and "v=a|b" in capsys.readouterr().out
    with pytest.raises(SystemExit) as done:
        main(["rules", f"{rules}(v=b)"])
    err = capsys.readouterr().err
    assert done.value.code == 2 and "(v=b): rolls: should be less than or equal to 6 (got 99)" in err, err


def _custom_game(tmp_path, dice, faces, n_categories, threshold=None):
    """A rules file of ``n_categories`` boxes: the upper boxes first, then sums of a given total."""
    boxes = [f"[[categories]]\nname = 'u{f}'\nkind = 'upper'\nface = {f}\n" for f in range(1, faces + 1)]
    boxes += [f"[[categories]]\nname = 's{t}'\nkind = 'sum_equals'\ntotal = {t}\npoints = 10\n"
              for t in range(dice, dice * faces + 1)]
    bonus = f"[upper_bonus]\nthreshold = {threshold}\npoints = 35\n" if threshold else ""
    path = tmp_path / f"g{dice}d{faces}x{n_categories}.toml"
    path.write_text(f"name = 'big'\ndice = {dice}\nfaces = {faces}\n{bonus}" + "".join(boxes[:n_categories]))
    return path


def test_the_state_count_is_the_solvers(tmp_path):
    """size.py counts the table from the rules alone; it must be the table the solver lays out."""
    import dicesolver as ds
    from dicesolver.scorecard.game.size import solve_cost
    from dicesolver.scorecard.solitaire.table import SolitaireModel

    from tinygames import BONUS_GAME, PAIRS_GAME, tiny

    games = [ds.load_game(name) for name in ("yahtzee", "yatzy", "yacht", "generala", "crag", "yacht-dice")]
    games += [tiny(BONUS_GAME), tiny(PAIRS_GAME), ds.load_game(str(_custom_game(tmp_path, 3, 4, 6, threshold=20)))]
    for game in games:
        assert solve_cost(game).states == SolitaireModel(game).size, game.canonical


@pytest.mark.parametrize("command", [["solve"], ["odds", "--exact"], ["advise", "/-/3"]])
def test_a_game_beyond_the_machine_is_refused_with_its_estimate(capsys, tmp_path, fresh_cache, command):
    """Eight twenty-sided dice and sixteen boxes: hours of work. Refused at once, with the figures. (Its
    odds in floating point are within the limit: about two minutes, most of it compiling the dice.)"""
    path = _custom_game(tmp_path, 8, 20, 16)
    with pytest.raises(SystemExit) as done:
        main([command[0], str(path), *command[1:]])
    err = capsys.readouterr().err
    assert done.value.code == 2 and "too big for" in err and "DICESOLVER_ALLOW_BIG=1" in err, err
    assert "h on" in err or "h;" in err or "days" in err, err  # the time estimate is given
    assert len(err.strip().splitlines()) == 1


def test_the_limit_can_be_lifted(monkeypatch, tmp_path):
    import dicesolver as ds
    from dicesolver.scorecard.game.size import check_solvable

    game = ds.load_game(str(_custom_game(tmp_path, 8, 20, 16)))
    with pytest.raises(InputError, match="too big"):
        check_solvable(game)
    monkeypatch.setenv("DICESOLVER_ALLOW_BIG", "1")
    assert check_solvable(game).seconds > 3600


def test_a_huge_record_is_refused_before_it_is_read(capsys, tmp_path):
    record = tmp_path / "huge.jsonl"
    with record.open("wb") as f:  # 1 GB, sparse: nothing is written
        f.truncate(2**30)
    with pytest.raises(SystemExit) as done:
        main(["analyze", str(record)])
    err = capsys.readouterr().err
    assert done.value.code == 2 and "at most" in err and len(err.strip().splitlines()) == 1, err
