"""``make bench`` writes each benchmark's output into its own section of BENCHMARKS.md (benchmarks/publish.py)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("publish", ROOT / "benchmarks" / "publish.py")
publish = importlib.util.module_from_spec(spec)
spec.loader.exec_module(publish)


def test_a_section_is_replaced_and_the_rest_kept():
    report = ("# B\n\n<!-- bench: a.py -->\nold a\n<!-- /bench: a.py -->\n\nhand\n\n"
              "<!-- bench: b.py -->\nold b\n<!-- /bench: b.py -->\n")
    new = publish.replace_section(report, "a.py", "## A\n| x |\n")
    assert "old a" not in new and "## A\n| x |\n<!-- /bench: a.py -->" in new
    assert "hand" in new and "old b" in new
    assert publish.replace_section(new, "a.py", "## A\n| x |\n") == new  # the same output: the same file


def test_a_new_benchmark_gets_a_section_at_the_end():
    new = publish.replace_section("# B\n", "c.py", "figures")
    assert new.endswith("<!-- bench: c.py -->\nfigures\n<!-- /bench: c.py -->\n")


def test_every_section_of_the_report_names_a_benchmark_that_make_bench_runs():
    report = (ROOT / "BENCHMARKS.md").read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    names = re.findall(r"<!-- bench: (\S+) -->", report)
    assert names and names == re.findall(r"<!-- /bench: (\S+) -->", report)
    for name in names:
        assert (ROOT / "benchmarks" / name).is_file() and name in makefile, name


def test_a_published_section_says_when_and_how_it_ran_and_keeps_the_reports_headings_above_it():
    text = publish.dated("bench_x.py", ["--n", "10"], "## Its title\n\n| a |\n")
    first, _, rest = text.partition("\n\n")
    assert first.startswith("Measured ") and first.endswith("by `python benchmarks/bench_x.py --n 10`.")
    assert rest.startswith("### Its title")


def test_every_benchmark_and_script_parses():
    """They run outside the suite (make bench), where a broken line went unseen until the next full run."""
    import ast

    for path in sorted((ROOT / "benchmarks").glob("*.py")) + sorted((ROOT / "scripts").glob("*.py")):
        ast.parse(path.read_text(encoding="utf-8"), str(path))
