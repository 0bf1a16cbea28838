"""The two-person table solved out of core (issue 18): level by level into a file, resumable after a kill,
refused when the disk lacks the room, checksummed when written and on demand."""

from __future__ import annotations

import numpy as np
import pytest
from tinygames import PAIRS_GAME, tiny

from dicesolver.cli.app import main
from dicesolver.core import inplace, tables
from dicesolver.core.errors import TableError
from dicesolver.scorecard.duel import table as duel


@pytest.fixture()
def game():
    return tiny(PAIRS_GAME)  # five boxes of three three-sided dice: 40 thousand cells, solved in a moment


def test_the_levels_on_disk_are_the_table_in_memory(fresh_cache, game):
    model = duel.DuelModel(game)
    in_memory = model.solve()
    solution, _, built = duel.load_or_solve(game)
    assert built and np.array_equal(np.asarray(solution.values), in_memory)  # bit-identical
    assert [s.level for s in model.segments] == list(range(2 * game.n_categories - 1, -1, -1))
    assert model.segments[0].start == 0 and model.segments[-1].stop == model.size
    assert all(a.stop == b.start for a, b in zip(model.segments, model.segments[1:]))  # contiguous levels
    again, _, built = duel.load_or_solve(game)
    assert not built and again.first_player_equity() == solution.first_player_equity()


class Killed(Exception):
    pass


def test_a_killed_solve_resumes_at_its_level(fresh_cache, game):
    model = duel.DuelModel(game)
    levels_seen = []

    def kill_after_four(done, total):
        levels_seen.append(done)
        if len(levels_seen) == 5:  # the start, then four levels written and checkpointed
            raise Killed

    with pytest.raises(Killed):
        duel.load_or_solve(game, progress=kill_after_four)
    partial = duel.table_key(game).directory.with_name(".partial-" + duel.table_key(game).directory.name)
    assert partial.exists() and not duel.table_key(game).directory.exists()

    resumed_from = []
    solution, _, built = duel.load_or_solve(game, progress=lambda done, total: resumed_from.append(done))
    assert built and resumed_from[0] == levels_seen[4]  # the four levels were not solved again
    assert np.array_equal(np.asarray(solution.values), model.solve())
    manifest = tables.load(duel.table_key(game)).manifest
    assert manifest["resumed"] is True and not partial.exists()


def test_a_partial_table_of_other_rules_is_not_resumed(fresh_cache, game):
    key = duel.table_key(game)
    build = inplace.open_build(key, {"values": (duel.DuelModel(game).size, "float32")})
    build.checkpoint("level 9", [])
    other = tables.TableKey(key.kind, key.game, "0" * 64)
    assert not inplace._resumable(build.directory, other, build.specs)
    fresh = inplace.open_build(key, {"values": (7, "float32")})  # another size: started afresh
    assert fresh.done == set()


def test_no_room_on_the_disk_is_said_before_starting(capsys, fresh_cache, monkeypatch):
    import shutil
    from collections import namedtuple

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(10**9, 10**9 - 1000, 1000))
    with pytest.raises(SystemExit) as done:
        main(["solve", "generala", "--players", "2"])
    err = capsys.readouterr().err
    assert done.value.code == 2 and "not enough disk space" in err and "347" in err, err
    assert len(err.strip().splitlines()) == 1
    assert not any((fresh_cache / duel.TABLE_KIND).rglob("*.npy"))  # nothing started


def test_big_tables_are_checksummed_when_written_and_on_demand(fresh_cache, game, monkeypatch):
    solution, _, _ = duel.load_or_solve(game)
    key = duel.table_key(game)
    path = key.directory / "values.npy"
    data = bytearray(path.read_bytes())
    data[-3] ^= 0xFF
    path.write_bytes(bytes(data))
    monkeypatch.setattr(tables, "VERIFY_LIMIT", 0)  # as if the table were big: loads check sizes only
    assert tables.load(key).arrays["values"].shape == (solution.model.size,)
    with pytest.raises(TableError, match="checksum"):
        tables.load(key, verify=True)
    assert "corrupt" in tables.verify_files(key.directory)
    problems = []
    duel.load_or_solve(game, verify=True, on_problem=problems.append)  # found, and solved again
    assert problems and tables.verify_files(key.directory) is None


def test_games_with_bonuses_are_refused_with_the_size_they_would_need(capsys):
    with pytest.raises(SystemExit) as done:
        main(["solve", "yahtzee", "--players", "2", "--judge", "exact"])
    err = capsys.readouterr().err
    assert done.value.code == 2 and len(err.strip().splitlines()) == 1, err
    assert "score difference alone" in err and "upper bonus and an extra-yacht bonus" in err and "TB" in err


def test_solve_builds_a_two_player_table_when_asked(capsys, fresh_cache, tmp_path):
    rules = tmp_path / "mini.toml"
    rules.write_text("name = 'mini'\ndice = 3\nfaces = 4\nrolls = 2\n"
                     + "".join(f"[[categories]]\nname = 'u{f}'\nkind = 'upper'\nface = {f}\n" for f in (1, 2, 4))
                     + "[[categories]]\nname = 'c'\nkind = 'chance'\n")
    with pytest.raises(SystemExit) as done:
        main(["solve", str(rules), "--players", "2", "--judge", "exact", "--json"])
    assert done.value.code in (0, None)
    import json

    info = json.loads(capsys.readouterr().out)
    assert info["unit"] == "equity" and info["solved_now"] and -1 < info["value"] < 1
    assert "duel-equity-levels" in info["table_dir"]


@pytest.mark.big
def test_two_person_yacht(monkeypatch):
    """The full table, out of core (make test-big: about an hour on 2 cores). Uses the user's table cache,
    so that a table already solved is checked (checksums included) rather than solved again."""
    from dicesolver import load_game

    monkeypatch.delenv("DICESOLVER_CACHE_DIR")  # the session's own cache would solve it anew

    solution, _, _ = duel.load_or_solve(load_game("yacht"), verify=True)
    assert round(solution.first_player_equity(), 9) == pytest.approx(-0.0122870, abs=5e-8)
    assert solution.model.size == 1_560_089_401
