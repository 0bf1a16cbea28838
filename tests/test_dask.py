"""The two-person level sweep on dask.distributed (issue 18): the same bytes as the single-machine solve,
recovered when a worker dies mid-level, resumed when the driver is killed."""

from __future__ import annotations

import functools
import os
from pathlib import Path

import numpy as np
import pytest
from tinygames import PAIRS_GAME, tiny

from dicesolver.cli.app import main
from dicesolver.core import distributed, registry, tables
from dicesolver.core.errors import InputError
from dicesolver.scorecard.duel import table as duel
from dicesolver.scorecard.game.rules import build_game

# Generala's dice with six of its boxes: 40 thousand pairs, several blocks per level
REDUCED_GENERALA = {
    "name": "generala6",
    "dice": 5,
    "faces": 6,
    "rolls": 3,
    "categories": [
        {"name": "ones", "kind": "upper", "face": 1},
        {"name": "fives", "kind": "upper", "face": 5},
        {"name": "sixes", "kind": "upper", "face": 6},
        {"name": "full", "kind": "full_house", "points": 30},
        {"name": "poker", "kind": "n_of_a_kind", "n": 4, "points": 40},
        {"name": "generala", "kind": "yacht", "points": 50},
    ],
}


@pytest.fixture(scope="module")
def client():
    with distributed.connect(distributed.parse_cluster("local:2")) as c:
        yield c


def in_memory(game) -> np.ndarray:
    return duel.DuelModel(game).solve()


def test_local_cluster_is_bit_identical_to_one_machine(fresh_cache, client, monkeypatch):
    game = build_game(REDUCED_GENERALA, {}, "generala6")
    calls = []
    monkeypatch.setattr(distributed, "connect", lambda spec: _reuse(client, calls))
    solution, _, built = duel.load_or_solve(game, cluster=distributed.parse_cluster("local:2"))
    assert built and calls == ["local:2"]
    values = np.asarray(solution.values)
    assert np.array_equal(values, in_memory(game))  # every float32 the same
    manifest = tables.load(duel.table_key(game)).manifest
    assert manifest["cluster"] == "local:2"
    partial = duel.table_key(game).directory.with_name(".partial-" + duel.table_key(game).directory.name)
    assert not partial.exists() and not any(duel.table_key(game).directory.glob("dask-*"))  # nothing left over


def test_a_running_scheduler_with_shared_storage(fresh_cache, client, tmp_path):
    """tcp://: a new client of a running scheduler; the blocks on the storage given, cleaned up after."""
    game = tiny(PAIRS_GAME)
    storage = tmp_path / "shared"
    cluster = distributed.parse_cluster(client.scheduler.address, storage)
    assert cluster.address and cluster.storage == storage.resolve()
    solution, _, built = duel.load_or_solve(game, cluster=cluster)
    assert built and np.array_equal(np.asarray(solution.values), in_memory(game))
    assert storage.exists() and not any(storage.iterdir())


def crash_once(marker: str, crash_pair: int, *args):
    """A block task whose worker dies (the process exits) the first time it reaches ``crash_pair``."""
    game, first_pair = args[0], args[1]
    if first_pair == crash_pair and not os.path.exists(marker):
        Path(marker).touch()
        os._exit(1)
    return duel.solve_block(*args)


def test_a_worker_killed_mid_level_is_recovered(fresh_cache, client, monkeypatch, tmp_path):
    game = build_game(REDUCED_GENERALA, {}, "generala6")
    model = duel.DuelModel(game)
    middle = model.segments[len(model.segments) // 2]
    marker = tmp_path / "crashed"
    monkeypatch.setattr(duel, "solve_block", functools.partial(crash_once, str(marker), middle.first_pair))
    monkeypatch.setattr(distributed, "connect", lambda spec: _reuse(client, []))
    workers_before = set(client.scheduler_info()["workers"])
    solution, _, _ = duel.load_or_solve(game, cluster=distributed.parse_cluster("local:2"))
    assert marker.exists()  # a worker did die in the middle level
    assert set(client.scheduler_info()["workers"]) != workers_before  # and a new one took its place
    assert np.array_equal(np.asarray(solution.values), in_memory(game))


class Killed(Exception):
    pass


def test_a_killed_driver_resumes_at_its_level(fresh_cache, client, monkeypatch):
    game = tiny(PAIRS_GAME)
    monkeypatch.setattr(distributed, "connect", lambda spec: _reuse(client, []))
    seen = []

    def kill_in_level_six(done, total):
        seen.append(done)
        if done >= duel.DuelModel(game).segments[5].start and done > 0:
            raise Killed

    with pytest.raises(Killed):
        duel.load_or_solve(game, progress=kill_in_level_six, cluster=distributed.parse_cluster("local:2"))
    key = duel.table_key(game)
    partial = key.directory.with_name(".partial-" + key.directory.name)
    assert partial.exists()
    resumed_at = []
    solution, _, built = duel.load_or_solve(game, progress=lambda d, t: resumed_at.append(d),
                                            cluster=distributed.parse_cluster("local:2"))
    assert built and resumed_at[0] > 0  # the levels checkpointed before the kill were kept
    assert np.array_equal(np.asarray(solution.values), in_memory(game))
    assert tables.load(key).manifest["resumed"] is True


def test_the_cli_builds_on_a_local_cluster(fresh_cache, capsys):
    game = tiny(PAIRS_GAME)
    path = fresh_cache / "pairs.toml"
    path.write_text(_toml(PAIRS_GAME))
    with pytest.raises(SystemExit) as done:
        main(["solve", str(path), "--players", "2", "--dask", "local:2", "--json"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert '"solved_now": true' in out
    loaded = registry.solve(str(path), players=2, judge="exact")
    assert abs(loaded.info.value - float(in_memory(game)[duel.DuelModel(game).index(duel.DuelPosition(0, 0, 0))])) < 1e-7


@pytest.mark.parametrize("args, message", [
    (["solve", "generala", "--players", "2", "--dask", "local:0"], "1 to 256 workers"),
    (["solve", "generala", "--players", "2", "--dask", "yarn"], "expected 'local:N'"),
    (["solve", "generala", "--players", "2", "--dask", "tcp://10.0.0.1:8786"], "needs --dask-storage"),
    (["solve", "generala", "--players", "2", "--dask-storage", "/tmp"], "goes with --dask"),
    (["solve", "pig", "--dask", "local:2"], "is solved on this machine"),
    (["solve", "yahtzee", "--players", "2", "--dask", "local:2"], "score difference alone"),
])
def test_bad_cluster_requests_are_one_line(fresh_cache, capsys, args, message):
    with pytest.raises(SystemExit) as done:
        main(args)
    err = capsys.readouterr().err
    assert done.value.code == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_no_scheduler_at_the_address_is_one_line(tmp_path):
    spec = distributed.parse_cluster("tcp://127.0.0.1:9", tmp_path)
    with pytest.raises(InputError, match="no scheduler answers"):
        with distributed.connect(spec, timeout=1.0):
            pass


def test_split_keeps_blocks_under_the_limit():
    weights = np.array([5, 5, 5, 20, 1, 1, 1])
    assert distributed.split(0, 7, weights, 10) == [(0, 2), (2, 3), (3, 4), (4, 7)]
    assert distributed.split(2, 2, weights, 10) == []


def _reuse(client, calls):
    """distributed.connect, answered with the module's running LocalCluster (starting one costs seconds)."""
    import contextlib

    @contextlib.contextmanager
    def cm():
        calls.append("local:2")
        yield client
    return cm()


def _toml(definition) -> str:
    lines = [f'{k} = {v!r}'.replace("'", '"') for k, v in definition.items() if k != "categories"]
    for c in definition["categories"]:
        lines.append("[[categories]]")
        lines += [f'{k} = {v!r}'.replace("'", '"').replace("True", "true").replace("False", "false")
                  for k, v in c.items()]
    return "\n".join(lines) + "\n"


def test_the_table_sizes_quoted_in_the_docs():
    """dicesolver/docs/DASK.md's cells per game, from the rules alone, agree with the layouts the solver builds."""
    for name, cells, largest in (("generala", 86_767_645, 15_621_984), ("yacht", 1_560_089_401, 256_132_800),
                                 ("crag", 4_914_283_011, 776_709_648), ("yatzy", 97_675_562_726, 14_352_437_385)):
        per_level = duel.level_cells(registry.load(name, 1))
        assert (sum(per_level.values()), max(per_level.values())) == (cells, largest), name
    generala = duel.DuelModel(registry.load("generala", 1))
    assert {s.level: s.cells for s in generala.segments} == duel.level_cells(generala.game)
    with pytest.raises(InputError, match="9.77e\\+10 positions"):
        duel.check_duel_game(_fifteen_boxes())


def _fifteen_boxes():
    """Yatzy's fifteen boxes without its upper bonus."""
    from dicesolver.scorecard.game.presets import preset_definition

    definition = {k: v for k, v in preset_definition("yatzy").items() if k not in ("upper_bonus", "variants")}
    return build_game(definition, {}, "yatzy-without-bonus")
