"""Labelled datasets (``dicesolver label``): every row is the engine's answer to its situation, the same seed
writes the same rows in both formats, the sources play differently, games of every family can be labelled,
and bad requests are refused with nothing written."""

from __future__ import annotations

import json

import numpy as np
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dicesolver as ds
from dicesolver.core import registry
from test_cli import run


def parquet_rows(path):
    table = pq.read_table(path)
    about = json.loads(table.schema.metadata[b"dicesolver"])
    return table.to_pylist(), about


def test_a_yahtzee_dataset_holds_the_engines_answers(tmp_path, capsys):
    path = tmp_path / "yahtzee.parquet"
    code, out, _ = run(capsys, "label", "yahtzee", "-n", "3000", "--seed", "4", "--out", str(path))
    assert code == 0 and "3,000 situations" in out and "optimal play" in out
    rows, about = parquet_rows(path)
    assert len(rows) == 3000 and about["game"] == "yahtzee" and about["judge"] == "points"
    assert about["source"] == "optimal" and len(about["actions"]) == 45 and "held" in about["situation"]
    solution = ds.solve("yahtzee")
    keys = list(about["situation"])
    situations = {k: np.array([r[k] for r in rows], dtype=np.int64) for k in keys}
    situations["cards"] = situations["cards"].reshape(len(rows), 1, -1)
    answers = solution.answer(situations)
    for i, row in enumerate(rows):
        n = int(answers.counts[i])
        assert row["codes"] == answers.codes[i, :n].tolist()
        # (answered in other batches: keeps summed in another order, to 1e-13)
        assert row["values"] == pytest.approx(answers.values[i, :n].tolist(), rel=1e-13)
        assert row["value"] == pytest.approx(answers.value[i], rel=1e-13)
        assert min(row["costs"]) == 0.0 and all(c >= 0 for c in row["costs"])
    # whole games from their first throw: decisions numbered 0, 1, ... within each game
    first = [r for r in rows if r["decision"] == 0]
    assert first and all(r["cards"] == [-1] * 13 and r["rolls_left"] == [2] for r in first)
    assert not (tmp_path / "yahtzee.parquet.tmp").exists()
    # snappy for every column but the options' floats, which it hardly shrinks
    group = pq.ParquetFile(path).metadata.row_group(0)
    codecs = {group.column(j).path_in_schema.split(".")[0]: group.column(j).compression
              for j in range(group.num_columns)}
    assert codecs.pop("values") == codecs.pop("costs") == "UNCOMPRESSED"
    assert set(codecs.values()) == {"SNAPPY"} and {"codes", "cards", "value"} <= set(codecs)


def test_the_same_seed_writes_the_same_rows_in_both_formats(tmp_path, capsys):
    a, b = tmp_path / "a.parquet", tmp_path / "b.jsonl"
    for path in (a, b):
        code, _, _ = run(capsys, "label", "yacht-dice", "-n", "500", "--source", "perturbed", "--perturb", "0.3",
                         "--seed", "9", "--out", str(path))
        assert code == 0
    rows, about = parquet_rows(a)
    lines = [json.loads(line) for line in b.read_text().splitlines()]
    assert about["perturb"] == 0.3 and len(lines) == 500
    for row, line in zip(rows, lines):
        assert line["game"] == "yacht-dice" and line["source"] == "perturbed"
        assert (line["index"], line["decision"], line["dice"]) == (row["index"], row["decision"], row["dice"])
        assert [o["code"] for o in line["options"]] == row["codes"]
        assert [o["value"] for o in line["options"]] == row["values"]
        assert all(o["action"] == about["actions"][o["code"]] for o in line["options"])


def test_the_sources_play_differently(tmp_path, capsys):
    """Optimal play keeps its expected score; uniform play throws it away."""
    def dataset(source):
        path = tmp_path / f"{source}.parquet"
        assert run(capsys, "label", "yacht-dice", "-n", "2000", "--source", source, "--out", str(path))[0] == 0
        return parquet_rows(path)[0]

    optimal, uniform = dataset("optimal"), dataset("uniform")
    assert max(r["decision"] for r in optimal) >= 20  # whole games, not only their openings
    # the values of the situations an optimal player meets stay near the start's (191.77 expected); a
    # uniform player's fall as it scratches boxes
    assert np.mean([r["value"] for r in optimal]) > np.mean([r["value"] for r in uniform]) + 30


@pytest.mark.parametrize("spec, players", [("pig", None), ("despirala", None), ("yacht", 3)])
def test_games_of_every_family_are_labelled(spec, players, tmp_path):
    """Through the protocol: each row's position reads back to the advice it carries."""
    from dicesolver.analysis import label_files, labels

    game = registry.load(spec, players)
    solution = registry.solve(game)
    path = tmp_path / "rows.jsonl"
    about = label_files.metadata(solution, "uniform", 0.1, 1)
    assert label_files.write(path, solution, labels.sample(solution, 300, "uniform", 0.1, 1), about) == 300
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    for line in lines[::37]:
        state = game.parse_state(line["position"])
        pairs = solution.action_values(state)
        assert sorted(v for _, v in pairs) == pytest.approx(sorted(o["value"] for o in line["options"]), abs=1e-12)
        assert line["judge"] == solution.judge


@pytest.mark.parametrize("argv, words", [
    (["yahtzee", "-n", "5", "--out", "x.csv"], ".parquet or a .jsonl"),
    (["yahtzee", "-n", "5", "--source", "greedy", "--out", "x.jsonl"], "the source is one of"),
    (["yahtzee", "-n", "5", "--perturb", "1.5", "--out", "x.jsonl"], "--perturb"),
    (["yahtzee", "-n", "0", "--out", "x.jsonl"], "-n"),
    (["yahtzee", "-n", "5", "--out", "no/such/dir/x.jsonl"], "no such directory"),
    (["nosuchgame", "-n", "5", "--out", "x.jsonl"], "nosuchgame"),
])
def test_bad_requests_write_nothing(argv, words, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "label", *argv)
    assert code == 2 and words in err, err
    assert list(tmp_path.iterdir()) == []


def test_a_write_that_fails_midway_leaves_nothing(tmp_path, capsys, monkeypatch):
    """The writer's thread meets a full disk at its second row group: one line, exit 2, no file left (not
    even the half-written one), and the sampling stops."""
    import errno

    writes = []

    def full_disk(self, table, *args, **kwargs):
        writes.append(table.num_rows)
        if len(writes) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        return original(self, table, *args, **kwargs)

    original = pq.ParquetWriter.write_table
    monkeypatch.setattr(pq.ParquetWriter, "write_table", full_disk)
    code, _, err = run(capsys, "label", "yahtzee", "-n", "20000", "--out", str(tmp_path / "y.parquet"))
    assert code == 2 and "No space left on device" in err, err
    assert len(writes) == 2 and list(tmp_path.iterdir()) == []


def test_a_json_lines_write_that_fails_midway_leaves_nothing(tmp_path, capsys, monkeypatch):
    """The same for JSON Lines, whose chunks are also written on the writer's thread: the disk is full at the
    second chunk (the command's warm-up lays out a first one, written nowhere)."""
    import errno

    from dicesolver.analysis.label_jsonl import LineLayout

    texts = []

    def full_disk(self, chunk):
        texts.append(len(chunk))
        if len(texts) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        return original(self, chunk)

    original = LineLayout.text
    monkeypatch.setattr(LineLayout, "text", full_disk)
    code, _, err = run(capsys, "label", "yahtzee", "-n", "20000", "--out", str(tmp_path / "y.jsonl"))
    assert code == 2 and "No space left on device" in err, err
    assert len(texts) == 3 and list(tmp_path.iterdir()) == []


def test_a_growing_file_is_sent_to_disk_as_it_is_written(tmp_path, capsys, monkeypatch):
    """The writer's thread flushes the file after each row group past FLUSH_BYTES (here every one), and the
    file is the same as one written without."""
    import os

    from dicesolver.analysis import label_files

    argv = ("label", "yacht", "-n", "3000", "--seed", "4")
    assert run(capsys, *argv, "--out", str(tmp_path / "plain.parquet"))[0] == 0
    flushed = []
    monkeypatch.setattr(label_files, "FLUSH_BYTES", 1)
    monkeypatch.setattr(os, "fdatasync", lambda fd: flushed.append(os.fstat(fd).st_size))
    assert run(capsys, *argv, "--out", str(tmp_path / "flushed.parquet"))[0] == 0
    assert len(flushed) >= 2 and flushed == sorted(flushed)
    assert pq.read_table(tmp_path / "flushed.parquet").equals(pq.read_table(tmp_path / "plain.parquet"))


def test_unpadding_keeps_each_situations_options_in_order():
    """The writer's kernel against numpy's masked copies: rows of 0 to width options, a refused row (a
    negative count: none), every row or some of them in any order."""
    from dicesolver.analysis.kernels import unpad
    from dicesolver.core.answers import Answers

    rng = np.random.default_rng(5)
    width = 7
    answers = Answers.empty(50, width, "test", "points")
    floats, ints = answers.buffers
    floats[:] = rng.random(floats.shape)
    ints[:, :width] = rng.integers(0, 100, (50, width))
    ints[:, width] = rng.integers(0, width + 1, 50)
    ints[3, width] = -2
    for rows in (np.arange(50), np.array([7, 3, 3, 49, 0]), np.arange(0)):
        offsets, codes, values, costs = unpad(floats, ints, width, rows)
        picked = answers.take(rows)
        counts = np.maximum(picked.counts, 0)
        used = np.arange(width)[None, :] < counts[:, None]
        assert offsets.tolist() == [0, *np.cumsum(counts).tolist()]
        assert codes.dtype == np.int16 and np.array_equal(codes, picked.codes[used])
        assert np.array_equal(values, picked.values[used]) and np.array_equal(costs, picked.costs[used])


def test_parquet_columns_are_required():
    """Every column and list item is declared without nulls (none are written)."""
    from dicesolver.analysis import label_files, labels

    solution = ds.solve("yacht")
    table = label_files._table(next(iter(labels.sample(solution, 200, seed=1))))
    for field in table.schema:
        assert not field.nullable, field
        if hasattr(field.type, "value_field"):
            assert not field.type.value_field.nullable, field


def test_a_batch_steps_into_new_arrays():
    """The writer holds a chunk (its situations, the batch's observations) while the next step is taken: a
    vectorised environment never writes into arrays it has handed out."""
    game = ds.load_game("yacht")
    batch = registry.family_of(game).batch(game, 8, False)
    first, _ = batch.reset(1)
    kept = {k: v.copy() for k, v in first.items()}
    second, *_ = batch.step(np.argmax(first["action_mask"], axis=1))
    for k, v in first.items():
        np.testing.assert_array_equal(v, kept[k])
        assert not np.shares_memory(v, second[k]), k


def test_the_command_writes_its_seeds_rows_after_warming_up(tmp_path, capsys):
    """``label`` runs its first step once before the clock starts (kernels loaded, nothing written): the file
    is the one its seed gives without that."""
    from dicesolver.analysis import label_files, labels

    argv = ("label", "yacht", "-n", "3000", "--seed", "4", "--source", "perturbed", "--perturb", "0.3")
    assert run(capsys, *argv, "--out", str(tmp_path / "command.parquet"))[0] == 0
    solution = ds.solve("yacht")
    label_files.write(tmp_path / "alone.parquet", solution, labels.sample(solution, 3000, "perturbed", 0.3, 4),
                      label_files.metadata(solution, "perturbed", 0.3, 4))
    assert pq.read_table(tmp_path / "command.parquet").equals(pq.read_table(tmp_path / "alone.parquet"))


def _reference_lines(chunk, about) -> bytes:
    """JSON Lines as the writer's contract states them: each row's object, written by orjson."""
    import orjson

    head = {k: about[k] for k in ("game", "judge", "unit", "source")}
    a = chunk.answers if chunk.rows is None else chunk.answers.take(chunk.rows)
    lines = []
    for i in range(len(chunk)):
        row = head | {"index": int(chunk.game[i]), "decision": int(chunk.decision[i]), "player": int(chunk.player[i])}
        if chunk.positions is not None:
            row["position"] = chunk.positions[i]
        row |= {k: v[i].tolist() for k, v in chunk.situations.items()}
        row["value"] = float(a.value[i])
        row["options"] = [{"code": c, "action": about["actions"][c], "value": v, "cost": k} for c, v, k in a.options(i)]
        lines.append(orjson.dumps(row) + b"\n")
    return b"".join(lines)


@pytest.mark.parametrize("game, players", [("yahtzee", None), ("pig", None), ("yacht", 2), ("farkle(goal=1000,floor=-500)", None)])
def test_json_lines_are_each_rows_object_as_orjson_writes_it(game, players):
    """The kernels' lines against orjson's dumps of each row's object, byte for byte: the vectorised games
    (chunks that pick live rows of a step) and games played through the protocol (positions, cards of two
    players)."""
    from dicesolver.analysis import label_files, labels
    from dicesolver.analysis.label_jsonl import LineLayout

    solution = registry.solve(registry.load(game, players))
    about = label_files.metadata(solution, "perturbed", 0.3, 2)
    layout = LineLayout(about)
    chunks = list(labels.sample(solution, 1500, "perturbed", 0.3, 2))
    assert any(c.rows is not None for c in chunks) or chunks[0].positions is not None
    for chunk in chunks:
        assert layout.text(chunk).tobytes() == _reference_lines(chunk, about)


@given(st.lists(st.integers(0, 4), min_size=0, max_size=3), st.data())
@settings(max_examples=60, deadline=None)
def test_integer_rows_are_written_as_orjson_writes_them(shape, data):
    """Any row shape, including empty ones, negative numbers and the largest int64s."""
    import orjson

    from dicesolver.analysis.label_jsonl import _ints

    n = data.draw(st.integers(1, 4))
    size = int(np.prod(shape, dtype=np.int64)) * n
    items = data.draw(st.lists(st.integers(-(2**63) + 1, 2**63 - 1), min_size=size, max_size=size))
    array = np.array(items, dtype=np.int64).reshape([n, *shape])
    text, begins, ends = _ints(array)
    written = text.tobytes()
    assert [written[b:e] for b, e in zip(begins, ends)] == [orjson.dumps(row) for row in array.tolist()]


def test_a_small_dataset_is_played_through_the_protocol_with_the_same_columns(tmp_path, capsys):
    """FEW_ROWS or fewer rows of a one-player game: played through the protocol a game at a time, each
    decision answered alone (in numpy on a fresh install: nothing to compile), whole games from their first
    throw, and the same columns as a dataset from the vectorised environment. The numpy form answers each
    row to the bit as the kernel does, so a seed writes the same rows whether the kernel is compiled yet or
    not (a run that began in numpy and ended in the kernel once wrote values 3e-14 apart)."""
    from dicesolver.analysis import labels

    solution = ds.solve("yacht")
    chunks = list(labels.sample(solution, labels.FEW_ROWS, "perturbed", 0.3, 5))
    assert sum(len(c) for c in chunks) == labels.FEW_ROWS and all(c.positions is None for c in chunks)
    numpy_form = solution.numpy_form
    for chunk in chunks:
        situation = {k: v.copy() for k, v in chunk.situations.items()}
        kernel = solution.answer(situation, memo=solution.memo_for(1))  # a memo: the kernel
        for again in (numpy_form.answer(situation), kernel):
            assert np.array_equal(again.codes, chunk.answers.codes)
            assert np.array_equal(again.values, chunk.answers.values, equal_nan=True)
    small, large = tmp_path / "small.parquet", tmp_path / "large.parquet"
    for path, n in ((small, labels.FEW_ROWS), (large, labels.FEW_ROWS + 1)):
        assert run(capsys, "label", "yacht", "-n", str(n), "--out", str(path))[0] == 0
    assert pq.read_table(small).schema.equals(pq.read_table(large).schema)
    rows, _ = parquet_rows(small)
    assert rows[0]["decision"] == 0 and rows[0]["cards"] == [-1] * 12
