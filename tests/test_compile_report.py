"""The compile report's arithmetic (scripts/compile_report.py): each compile's own seconds are its own,
without those of the compiles that ran inside it, worker by worker."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "compile_report.py"


@pytest.fixture(scope="module")
def report():
    spec = importlib.util.spec_from_file_location("compile_report", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def row(kernel, ended, seconds, worker="gw0", signature="(int64,)", test="t.py::a (call)"):
    return {"kernel": kernel, "signature": signature, "seconds": seconds, "ended": ended, "test": test,
            "worker": worker}


ROWS = [
    row("dicesolver.a.outer", 10.0, 5.0),  # 5..10, holding inner (6..9), which holds innermost (7..8.5)
    row("dicesolver.a.inner", 9.0, 3.0),
    row("dicesolver.a.innermost", 8.5, 1.5),
    row("dicesolver.a.after", 12.0, 1.0),  # 11..12: alone
    row("dicesolver.a.outer", 9.5, 4.0, worker="gw1", signature="(float64,)", test="t.py::b (call)"),
    row("numba.np.arrayobj.ol_raise_with_shape_context_cpu.<locals>.impl", 9.4, 3.5, worker="gw1",
        test="t.py::b (call)"),  # numba's own, inside gw1's outer
]


def test_own_seconds_leave_out_the_compiles_inside(report):
    own = {(r["kernel"], r["worker"]): (round(r["own"], 6), r["outermost"]) for r in report.own_seconds(ROWS)}
    assert own == {("dicesolver.a.outer", "gw0"): (2.0, True), ("dicesolver.a.inner", "gw0"): (1.5, False),
                   ("dicesolver.a.innermost", "gw0"): (1.5, False), ("dicesolver.a.after", "gw0"): (1.0, True),
                   ("dicesolver.a.outer", "gw1"): (0.5, True),
                   ("numba.np.arrayobj.ol_raise_with_shape_context_cpu.<locals>.impl", "gw1"): (3.5, False)}


def test_the_kernels_that_compile_numbas_shape_message_are_named(report):
    assert report.shape_messages(report.own_seconds(ROWS)) == {"dicesolver.a.outer": 3.5}


def test_the_report_names_what_compiled_twice_and_who_waited(tmp_path):
    log = tmp_path / "compiles.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    out = subprocess.run([sys.executable, str(SCRIPT), str(log)], capture_output=True, text=True, check=True).stdout
    assert "| gw0 | 4 | 6 |" in out and "| gw1 | 2 | 4 |" in out  # the outermost compiles' seconds
    assert "shape-mismatch message: 1" in out and "- `a.outer`: 3.5 s" in out
    assert "more than one signature: 1" in out and "`a.outer`:" in out
    assert "| `t.py::a` | 6.0 |" in out and "| `t.py::b` | 4.0 |" in out
