"""scripts/floors.py (``make test-floors``) reads the index's version lists as pip does: an old upload whose
version is not one by today's rules is passed over, not a crash before any test runs."""

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "floors.py"


def test_versions_that_are_not_versions_today_are_passed_over():
    spec = importlib.util.spec_from_file_location("floors", SCRIPT)
    floors = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(floors)
    listed = " 2024.1.0, 2023.12.1rc1, 1.6.1.linux-x86_64, 2023.12.1, 1.0".split(",")
    assert [str(v) for v in floors.released(listed)] == ["2024.1.0", "2023.12.1", "1.0"]
    assert "notebook" in floors.EXTRAS and "tests/test_notebook.py" in floors.SMOKE
