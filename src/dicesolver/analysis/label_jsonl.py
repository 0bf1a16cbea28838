"""A chunk of labelled situations as JSON Lines text (``dicesolver label FILE.jsonl``; the layout is in
docs/SCHEMA.md). orjson writes each chunk's numbers as whole arrays, in their shortest text, and the
kernels (``kernels.int_texts``, ``kernels.json_lines``) lay the lines out around them, byte for byte the
lines that orjson writes for each row's object (``test_labels``), at three to four times the speed of
building those objects: a Yahtzee line holds some 35 options, each an object of four keys."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import orjson

from .kernels import int_texts, item_bounds, json_lines, unpad
from .labels import Chunk

HEAD_KEYS = ("game", "judge", "unit", "source")  # what every line repeats from the file's metadata


class LineLayout:
    """What every line of one file shares: the metadata it repeats and each action's option head."""

    def __init__(self, about: dict[str, Any]):
        self.head = orjson.dumps({k: about[k] for k in HEAD_KEYS})[:-1]  # its closing brace left off
        heads = [orjson.dumps({"code": code, "action": action, "value": 0})[: -len(b"0}")]
                 for code, action in enumerate(about["actions"])]
        self.heads = _bytes(b"".join(heads))
        self.head_starts = _starts([len(h) for h in heads])

    def text(self, chunk: Chunk) -> np.ndarray:
        """The chunk's lines, each ending with a newline, as bytes (uint8)."""
        a = chunk.answers
        rows = chunk.answer_rows()
        offsets, codes, values, costs = unpad(*a.buffers, a.width, rows)
        literals = [self.head + b',"index":', b',"decision":', b',"player":']
        pieces = [_ints(x) for x in (chunk.game, chunk.decision, chunk.player)]
        if chunk.positions is not None:
            literals.append(b',"position":')
            pieces.append(_strings(chunk.positions))
        for key, array in chunk.situations.items():
            literals.append(b"," + orjson.dumps(key) + b":")
            pieces.append(_ints(array))
        literals.append(b',"value":')
        value = _numbers(a.value[rows])
        pieces.append((value, *item_bounds(value)))
        literals += [b',"options":', b"}\n"]
        bases = np.cumsum([0] + [len(text) for text, _, _ in pieces])
        return json_lines(_bytes(b"".join(literals)), _starts([len(x) for x in literals]),
                          np.concatenate([text for text, _, _ in pieces]),
                          np.stack([b + base for (_, b, _), base in zip(pieces, bases)]),
                          np.stack([e + base for (_, _, e), base in zip(pieces, bases)]),
                          offsets.astype(np.int64), codes, _numbers(values), _numbers(costs), self.heads,
                          self.head_starts, _bytes(b',"cost":'))


def _bytes(data: bytes) -> np.ndarray:
    return np.frombuffer(data, dtype=np.uint8)


def _starts(lengths: Sequence[int]) -> np.ndarray:
    return np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)]).astype(np.int64)


def _numbers(array: np.ndarray) -> np.ndarray:
    """A float array's JSON list, each number in its shortest text (as orjson writes a Python float)."""
    return _bytes(orjson.dumps(np.ascontiguousarray(array, dtype=np.float64), option=orjson.OPT_SERIALIZE_NUMPY))


def _ints(array: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each row of an integer array as JSON (nested lists of its shape), with where each begins and ends."""
    n = len(array)
    flat = np.ascontiguousarray(array, dtype=np.int64).reshape(n, -1)
    if flat.shape[1] == 0:  # rows with no items: the kernel writes items, so orjson writes these
        return _strings_of([orjson.dumps(row) for row in array.tolist()])
    text, offsets = int_texts(flat, np.array(array.shape[1:], dtype=np.int64))
    return text, offsets[:-1], offsets[1:]


def _strings(strings: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return _strings_of([orjson.dumps(s) for s in strings])


def _strings_of(texts: list[bytes]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    starts = _starts([len(t) for t in texts])
    return _bytes(b"".join(texts)), starts[:-1], starts[1:]
