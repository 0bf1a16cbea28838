"""The core install: with every optional part missing (matplotlib, fastapi, uvicorn, segno, gymnasium,
pettingzoo, distributed, pyarrow), the commands of the core work, and a command that needs an extra stops
with one line naming it (exit 2), never a traceback. The missing parts are hidden by an import hook in a
fresh interpreter (what pip's core install leaves out)."""

import subprocess
import sys
import textwrap

import pytest

HIDDEN = ["matplotlib", "fastapi", "starlette", "uvicorn", "segno", "gymnasium", "pettingzoo", "distributed", "dask",
          "pyarrow"]

RUN_WITHOUT_EXTRAS = textwrap.dedent(f"""
    import importlib.abc, sys

    class Missing(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name.split(".")[0] in {HIDDEN!r}:
                raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)

    sys.meta_path.insert(0, Missing())
    from dicesolver.cli import main
    main(sys.argv[1:])
""")


def dicesolver(*args: str, tmp_path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", RUN_WITHOUT_EXTRAS, *args], capture_output=True, text=True,
                          timeout=600, cwd=tmp_path)


@pytest.mark.parametrize("args", [["rules", "yacht"], ["advise", "pig", "0,0,0"], ["chart", "pig(goal=20)", "--me", "0"],
                                  ["simulate", "yacht", "-n", "200"], ["odds", "yacht"], ["solve", "skunk"]])
def test_the_core_commands_work_without_any_extra(args, tmp_path):
    done = dicesolver(*args, tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("args,extra", [
    (["simulate", "yacht", "-n", "200", "--plot", "out.png"], "plot"),
    (["chart", "pig(goal=20)", "--png", "chart.png"], "plot"),
    (["serve"], "web"),
    (["label", "pig(goal=20)", "-n", "10", "--out", "x.parquet"], "parquet"),
    (["solve", "yacht", "--players", "2", "--dask", "local:2"], "dask"),
    (["distribution", "yacht", "--plot", "d.png"], "plot"),
])
def test_a_command_that_needs_an_extra_names_it(args, extra, tmp_path):
    """Before any work: each of these took seconds (a simulation, kernels compiled) before it said so; now the
    one line is all (no progress line: nothing was solved or compiled first)."""
    done = dicesolver(*args, tmp_path=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"pip install 'dicesolver[{extra}]'" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_learning_environments_name_their_extra(tmp_path):
    code = RUN_WITHOUT_EXTRAS.replace("from dicesolver.cli import main\nmain(sys.argv[1:])",
                                      "import dicesolver.rl")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode != 0 and "pip install 'dicesolver[rl]'" in done.stderr
