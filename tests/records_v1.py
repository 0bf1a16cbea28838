"""Records of format 1 (each family's own events), written as the families saved games until 2026-11-28: the
product still reads them (``Family.read_record``) but writes one step a line (``core.records``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dicesolver.scorecard.game.records import GameRecord


def write_v1(path: str | Path, record: Any) -> Path:
    """``record``'s header and events, a JSON line each (a scorecard event says itself in its game's terms)."""
    scorecard = isinstance(record, GameRecord)
    events = [e.to_json(record.game) if scorecard else e.to_json() for e in record.events]
    path = Path(path)
    path.write_text("".join(json.dumps(line) + "\n" for line in [record.header(), *events]), encoding="utf-8")
    return path
