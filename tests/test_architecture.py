"""The architecture holds: import-linter's contracts (pyproject.toml, [tool.importlinter]) and mypy."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    path = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed (it is in the dev group: make install, or uv pip install --group dev)")
    return path


def test_import_contracts_are_kept():
    done = subprocess.run([_tool("lint-imports"), "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    assert f"{len(contracts)} kept, 0 broken" in done.stdout
    assert any(c.get("containers") == ["dicesolver.scorecard"] for c in contracts), "the scorecard family's layers"


def test_the_package_type_checks():
    """mypy over the package, with its incremental cache in a user cache folder of the tests' own (not the one
    ``dicesolver cache`` lists): a later run, from this clone or another, checks again only what changed and
    what depends on it (about 20 s of CPU from nothing, most of it the libraries' stubs; under 2 s after)."""
    import platformdirs

    cache = Path(platformdirs.user_cache_dir("dicesolver-tests")) / "mypy"
    done = subprocess.run([_tool("mypy"), "--cache-dir", str(cache)], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_front_ends_never_ask_for_a_family():
    """No comparison with a family's name in the front ends and the layers that serve them (they cannot import
    a family's classes at all: the contracts above forbid it, so no ``isinstance`` on them either)."""
    from dicesolver.core import registry

    families = {family.name for family in registry.families()}
    assert {"scorecard", "pushluck", "despirala", "farkle"} <= families
    package = ROOT / "src" / "dicesolver"
    outside = [p for p in package.iterdir() if p.is_dir() and p.name not in families | {"core", "__pycache__"}]
    assert {"cli", "web", "analysis", "rl"} <= {p.name for p in outside}
    offenders = []
    for folder in outside:
        for path in folder.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Compare):
                    names = [n.value for n in [node.left, *node.comparators] if isinstance(n, ast.Constant)]
                    if families & set(names):
                        offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not offenders, offenders


def test_each_judge_is_one_object_its_answer_engine_and_its_solved_game():
    """Every judge's class derives from its family's answer engine, then from ``SolvedGame``: one object answers
    (the engine's ``answer``, not a forward) and values, advises, reviews and explains. The engine alone is a
    class of its own, for the places that answer without a solved game."""
    import importlib
    import pkgutil

    import dicesolver
    from dicesolver.core.solved import SolvedGame

    for module in pkgutil.walk_packages(dicesolver.__path__, "dicesolver."):
        if module.name.rsplit(".", 1)[-1] in {"solution", "solutions"}:
            importlib.import_module(module.name)

    def concrete(cls: type) -> list[type]:
        below = [c for sub in cls.__subclasses__() for c in concrete(sub)]
        return below + ([cls] if not getattr(cls, "__abstractmethods__", None) else [])

    judges = {cls.__name__: cls for cls in concrete(SolvedGame) if cls.__module__.startswith("dicesolver.")}
    assert set(judges) == {"ExpectedScore", "ScorecardCertaintyEquivalent", "ScorecardTargetChance", "DuelEquity", "MindfulModel",
                           "ExpectedFinalScore", "DespiralaCertaintyEquivalent",
                           "DespiralaTargetChance", "WinProbability", "FarkleWinProbability"}
    for name, judge in judges.items():
        engine = next(c for c in judge.__mro__ if "answer" in vars(c))
        assert not issubclass(engine, SolvedGame), f"{name} answers through {engine.__name__}, not an engine"
        assert judge.__mro__.index(engine) < judge.__mro__.index(SolvedGame), name
        assert "engine" not in vars(judge) and "engine" not in getattr(judge, "__annotations__", {}), name
        protocol = set().union(*(vars(c) for c in judge.__mro__ if issubclass(c, SolvedGame)))
        called = {"memo_for", "numpy_form", "answer_positions"}  # the engine's parts that others call
        engines = {n for n in dir(judge) if not n.startswith("_")} - protocol - called
        assert not engines, f"{name} shows its engine's {sorted(engines)}: they are the engine's own (private)"


def test_the_published_extras_are_for_users_and_the_projects_own_tools_are_groups():
    """The package's metadata offers only what a user installs; tests, benchmarks and training examples are
    dependency groups of the repository (PEP 735), not extras anyone could ``pip install dicesolver[dev]``."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    extras = project["project"]["optional-dependencies"]
    assert set(extras) == {"plot", "web", "rl", "dask", "parquet", "notebook", "all"}
    assert {"dev", "bench", "train"} <= set(project["dependency-groups"])


def test_the_readme_idioms_type_check_strictly_in_a_users_program(tmp_path):
    """A user's program under ``mypy --strict``: the best option's cost, a game's name from ``games()``, the
    one-turn odds and a solution's value read as what they are, no Optional or Any to work around."""
    import platformdirs

    (tmp_path / "user.py").write_text(
        "import dicesolver as ds\n\n"
        "advice = ds.advise('yacht-dice', '/13456/2')\n"
        "cost: float = advice.best.cost\n"
        "name: str = ds.games()[0]['name']\n"
        "expected: float = ds.one_turn_odds('yacht')[0].expected_points\n"
        "solution = ds.solve('yacht')\n"
        "value: float = solution.value(solution.game.start())\n")
    cache = Path(platformdirs.user_cache_dir("dicesolver-tests")) / "mypy-strict"
    done = subprocess.run([_tool("mypy"), "--strict", "--cache-dir", str(cache), "user.py"], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_docstrings_name_modules_that_exist():
    """A ``dotted.path`` in the package's text that starts with one of its packages' or modules' names names a
    module (or a module's attribute) that exists: the ten stale paths found on 2026-12-07 stay fixed."""
    import importlib
    import re

    src = ROOT / "src" / "dicesolver"
    modules = {".".join(p.relative_to(src.parent).with_suffix("").parts).removesuffix(".__init__")
               for p in src.rglob("*.py")}
    by_tail: dict[str, set[str]] = {}
    for module in modules:
        parts = module.split(".")
        for i in range(1, len(parts)):
            by_tail.setdefault(".".join(parts[i:]), set()).add(module)
    heads = {tail.split(".")[0] for tail in by_tail}

    def names_something(ref: str) -> bool:
        parts = ref.split(".")
        for k in range(len(parts), 0, -1):
            for module in by_tail.get(".".join(parts[:k]), set()):
                try:
                    found = importlib.import_module(module)
                    for name in parts[k:]:
                        found = getattr(found, name)
                    return True
                except (ImportError, AttributeError):
                    continue
        return False

    stale = [(str(path.relative_to(ROOT)), ref) for path in sorted(src.rglob("*.py"))
             for ref in sorted(set(re.findall(r"``([a-z_]+(?:\.[A-Za-z_]+)+)``", path.read_text())))
             if ref.split(".")[0] in heads and not ref.endswith(".py") and not names_something(ref)]
    assert stale == []
