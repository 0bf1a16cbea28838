"""Write data/golden_advice.json.gz (see golden.py), the cases named or those it does not hold yet: run with the code to be recorded on the path, e.g.
``PYTHONPATH=<that tree>/src:tests python tests/record_golden.py``."""

from __future__ import annotations

import gzip
import json
import sys
import time
import zlib

from golden import CASES, FIXTURE, read, sample_states


def main(names: list[str]) -> None:
    out = read() if FIXTURE.exists() else {}
    for name, (make, count) in CASES.items():
        if name in out if not names else name not in names:
            continue
        began = time.perf_counter()
        solution, start = make()
        states = sample_states(start, count, seed=zlib.crc32(name.encode()))
        rows = []
        for state in states:
            options = [] if state.is_chance() else [[str(a), v] for a, v in solution.action_values(state)]
            rows.append([str(state), solution.value(state), options])
        out[name] = rows
        write(out)
        print(f"{name}: {len(rows)} situations in {time.perf_counter() - began:.1f} s", flush=True)


def write(cases: dict) -> None:
    FIXTURE.parent.mkdir(exist_ok=True)
    with gzip.open(FIXTURE, "wt") as f:
        json.dump(cases, f, separators=(",", ":"))


if __name__ == "__main__":
    main(sys.argv[1:])
