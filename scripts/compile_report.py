"""Where a cold test suite's time goes to numba: a report of the compile log the suite writes with
``DICESOLVER_COMPILE_LOG=FILE`` (``tests/conftest.py``), as `make compile-report` runs it.

Prints each worker's compiling time, the kernels that took longest (their own time, without the kernels
compiled inside them), the kernels compiled for more than one signature, the kernels that compile numba's
shape-mismatch message (an array assigned to a slice: its string formatting costs seconds a process), and
the tests that waited longest.

    python scripts/compile_report.py FILE [--top N]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path


def own_seconds(rows: list[dict]) -> list[dict]:
    """Each compile's own seconds: its time less that of the compiles that ran inside it (same worker,
    inside its span, not inside another one of those)."""
    by_worker: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        row = dict(row, start=row["ended"] - row["seconds"])
        by_worker[row["worker"]].append(row)
    out = []
    for events in by_worker.values():
        events.sort(key=lambda r: (r["start"], -r["ended"]))
        stack: list[dict] = []
        for event in events:  # sorted by start, the longest first: a stack of the spans that contain it
            while stack and stack[-1]["ended"] < event["ended"]:
                stack.pop()
            event["own"] = event["seconds"]
            event["outermost"] = not stack
            event["within"] = next((s["kernel"] for s in reversed(stack) if s["kernel"].startswith("dicesolver.")),
                                   None)  # the innermost of our kernels it was compiled for
            if stack:
                stack[-1]["own"] -= event["seconds"]
            stack.append(event)
            out.append(event)
    return out


SHAPE_MESSAGE = "raise_with_shape_context"


def shape_messages(rows: list[dict]) -> dict[str, float]:
    """Our kernels that compile numba's shape-mismatch message, and its seconds in each (its string
    formatting compiled inside it): an array assigned to a slice (``a[m] = b``) needs it; a loop does not."""
    out: dict[str, float] = defaultdict(float)
    for r in rows:
        if SHAPE_MESSAGE in r["kernel"] and r["within"] is not None:
            out[r["within"]] += r["seconds"]
    return dict(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    rows = own_seconds([json.loads(line) for line in args.log.read_text().splitlines() if line.strip()])
    ours = [r for r in rows if r["kernel"].startswith("dicesolver.")]

    print("| worker | compiles | compiling (s) |\n|---|---:|---:|")
    for worker in sorted({r["worker"] for r in rows}):
        mine = [r for r in rows if r["worker"] == worker]
        print(f"| {worker or 'main'} | {len(mine)} | {sum(r['seconds'] for r in mine if r['outermost']):.0f} |")

    own: dict[str, float] = defaultdict(float)
    signatures: dict[str, set[str]] = defaultdict(set)
    for r in ours:
        own[r["kernel"]] += r["own"]
        signatures[r["kernel"]].add(r["signature"])
    print(f"\n{len(ours)} compiles of {len(own)} dicesolver kernels. The longest (own seconds, both workers):\n")
    print("| kernel | compiles | own seconds |\n|---|---:|---:|")
    for kernel, seconds in sorted(own.items(), key=lambda kv: -kv[1])[:args.top]:
        count = sum(1 for r in ours if r["kernel"] == kernel)
        print(f"| `{kernel.removeprefix('dicesolver.')}` | {count} | {seconds:.1f} |")

    several = {k: s for k, s in signatures.items() if len(s) > 1}
    print(f"\nKernels compiled for more than one signature: {len(several)}\n")
    for kernel, sigs in sorted(several.items()):
        print(f"- `{kernel.removeprefix('dicesolver.')}`:")
        for sig in sorted(sigs):
            print(f"  - `{sig[:300]}`")

    messages = shape_messages(rows)
    print(f"\nKernels that compile numba's shape-mismatch message: {len(messages)}\n")
    for kernel, seconds in sorted(messages.items(), key=lambda kv: -kv[1]):
        print(f"- `{kernel.removeprefix('dicesolver.')}`: {seconds:.1f} s")

    waits: dict[str, float] = defaultdict(float)
    for r in rows:
        if r["outermost"]:
            waits[r["test"].rsplit(" (", 1)[0]] += r["seconds"]
    print("\n| test (the first to ask for the kernels) | compiling (s) |\n|---|---:|")
    for test, seconds in sorted(waits.items(), key=lambda kv: -kv[1])[:args.top]:
        print(f"| `{test}` | {seconds:.1f} |")


if __name__ == "__main__":
    main()
