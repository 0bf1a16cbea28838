import json
import multiprocessing
import os

import numpy as np
import pytest

from dicesolver import load_game
from dicesolver.core import tables
from dicesolver.core.errors import TableError
from dicesolver.scorecard.solitaire.table import load_or_solve, table_key

GAME = "yacht"  # small and quick to solve


def solve_once():
    solution, info = load_or_solve(load_game(GAME))
    return solution.root_value, info.built


def test_solve_caches_and_reuses(fresh_cache):
    value, built = solve_once()
    assert built
    value2, built2 = solve_once()
    assert not built2 and value2 == value
    directory = table_key(load_game(GAME)).directory
    manifest = json.loads((directory / "manifest.json").read_text())
    assert manifest["root_value"] == pytest.approx(value)
    assert manifest["game"] == GAME and manifest["format_version"] == tables.FORMAT_VERSION
    assert str(directory).startswith(str(fresh_cache))


def _damage(path, how):
    if how == "flip":
        data = bytearray(path.read_bytes())
        data[-5] ^= 0xFF
        path.write_bytes(bytes(data))
    elif how == "truncate":
        path.write_bytes(path.read_bytes()[:-16])
    elif how == "delete":
        path.unlink()


@pytest.mark.parametrize("how", ["flip", "truncate", "delete"])
def test_damaged_values_are_detected_and_rebuilt(fresh_cache, how):
    value, _ = solve_once()
    key = table_key(load_game(GAME))
    _damage(key.directory / "values.npy", how)
    with pytest.raises(TableError):
        tables.load(key)
    problems = []
    solution, info = load_or_solve(load_game(GAME), on_problem=problems.append)
    assert info.built and solution.root_value == value
    assert problems and "rebuilding" in problems[0]


@pytest.mark.parametrize(
    "edit,message",
    [
        (lambda m: m.update(format_version=0), "stale"),
        (lambda m: m.update(fingerprint="0" * 64), "foreign"),
        (lambda m: m.update(kind="other"), "foreign"),
        (lambda m: m.update(arrays={}), "malformed"),
    ],
)
def test_bad_manifests_are_rejected(fresh_cache, edit, message):
    solve_once()
    key = table_key(load_game(GAME))
    path = key.directory / "manifest.json"
    manifest = json.loads(path.read_text())
    edit(manifest)
    path.write_text(json.dumps(manifest))
    with pytest.raises(TableError, match=message):
        tables.load(key)
    _, info = load_or_solve(load_game(GAME))
    assert info.built


def test_garbage_manifest_and_wrong_root_value(fresh_cache):
    solve_once()
    key = table_key(load_game(GAME))
    (key.directory / "manifest.json").write_text("{not json")
    with pytest.raises(TableError, match="unreadable manifest"):
        tables.load(key)
    solve_once()
    # a table whose contents pass the checksum but not the semantic root-value check
    manifest = json.loads((key.directory / "manifest.json").read_text())
    manifest["root_value"] += 1.0
    (key.directory / "manifest.json").write_text(json.dumps(manifest))
    _, info = load_or_solve(load_game(GAME))
    assert info.built


def test_tables_are_read_only_memory_maps(fresh_cache):
    solve_once()
    solution, _ = load_or_solve(load_game(GAME))
    assert isinstance(solution.values, np.memmap) or not solution.values.flags.writeable


def _worker(cache, queue):
    os.environ["DICESOLVER_CACHE_DIR"] = cache
    queue.put(solve_once())


def test_concurrent_solves_do_not_corrupt(fresh_cache):
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(str(fresh_cache), queue)) for _ in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    results = [queue.get() for _ in procs]
    assert len({v for v, _ in results}) == 1
    assert sum(built for _, built in results) == 1  # the lock: one solves, the others load
    tables.load(table_key(load_game(GAME)))  # sound
    leftovers = [p.name for p in table_key(load_game(GAME)).directory.parent.iterdir() if p.name.startswith(".")]
    assert leftovers == []


def test_a_library_call_with_a_cache_it_cannot_write_warns_once_and_answers(tmp_path, monkeypatch):
    """``ds.solve`` with no writable table cache: the solution, and one CacheWarning that says it is not kept
    and names the variable to set (the command line shows it as one line)."""
    import warnings

    import dicesolver as ds
    from dicesolver.core.errors import CacheWarning

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(blocker / "cache"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        solution = ds.solve("pig(goal=27)")  # a game no other test solves (a process keeps what it solved)
    said = [str(w.message) for w in caught if issubclass(w.category, CacheWarning)]
    assert len(said) == 1 and "solved again next time" in said[0] and "DICESOLVER_CACHE_DIR" in said[0]
    assert 0.5 < solution.value(solution.game.start()) < 0.6
