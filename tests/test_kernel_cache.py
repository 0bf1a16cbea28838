"""The kernels' on-disk cache is keyed by every kernel source: an edited helper in another module is
compiled again, never served stale from numba's cache (numba alone keys a function by its own file)."""

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from dicesolver.core import jit

PACKAGE = Path(jit.__file__).resolve().parent.parent

RUN = "import kpkg.k_main as m; print(m.compute(), sum(m.compute.stats.cache_hits.values()))"


def _run(tmp_path: Path) -> tuple[int, int]:
    out = subprocess.run([sys.executable, "-c", RUN], cwd=tmp_path, capture_output=True, text=True, check=True,
                         # no bytecode: a helper rewritten within the second of its first write, at the same
                         # size, would be read back from a stale .pyc (Python checks mtime in seconds)
                         env={"KBASE": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin",
                              "PYTHONDONTWRITEBYTECODE": "1"})
    value, hits = out.stdout.split()
    return int(value), int(hits)


def test_an_edited_helper_in_another_module_is_compiled_again(tmp_path):
    pkg = tmp_path / "kpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent("""
        import os
        from pathlib import Path
        from dicesolver.core.jit import use_kernel_cache
        use_kernel_cache(sorted(Path(__file__).parent.glob("k_*.py")), base=Path(os.environ["KBASE"]))
    """))
    helper = pkg / "k_helper.py"
    helper.write_text("from numba import njit\n\n@njit(cache=True)\ndef helper():\n    return 1\n")
    (pkg / "k_main.py").write_text("from numba import njit\nfrom .k_helper import helper\n\n"
                                   "@njit(cache=True)\ndef compute():\n    return helper() + 10\n")
    assert _run(tmp_path) == (11, 0)  # compiled
    assert _run(tmp_path) == (11, 1)  # loaded from the cache
    helper.write_text("from numba import njit\n\n@njit(cache=True)\ndef helper():\n    return 2\n")
    assert _run(tmp_path) == (12, 0)  # the caller is compiled again with the new helper
    assert len(list((tmp_path / "cache").glob(f"{jit.PREFIX}*"))) == 2


def test_two_processes_that_need_a_kernel_at_once_compile_it_once(tmp_path):
    """Two processes reach the same kernel together (two test workers, two server processes on a first run):
    one compiles it while the other waits, then loads it from the cache instead of compiling it too."""
    import time

    from filelock import FileLock

    pkg = tmp_path / "kpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent("""
        import os
        from pathlib import Path
        from dicesolver.core.jit import use_kernel_cache
        use_kernel_cache(sorted(Path(__file__).parent.glob("k_*.py")), base=Path(os.environ["KBASE"]))
    """))
    (pkg / "k_main.py").write_text("from dicesolver.core.jit import njit\n\n"
                                   "@njit(cache=True)\ndef compute(x):\n    return x + 10\n")
    cache = jit.kernel_cache_dir(sorted(pkg.glob("k_*.py")), tmp_path / "cache")
    lock = jit.compile_lock_path("kpkg.k_main.compute", "(int64,)", cache)
    lock.parent.mkdir(parents=True)
    script = ("import kpkg.k_main as m; print('ready', flush=True); m.compute(1); "
              "print(sum(m.compute.stats.cache_misses.values()), sum(m.compute.stats.cache_hits.values()))")
    env = {"KBASE": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"}
    with FileLock(lock):  # as if a third process were compiling it: both get to the lock and wait there
        both = [subprocess.Popen([sys.executable, "-c", script], cwd=tmp_path, env=env, text=True,
                                 stdout=subprocess.PIPE) for _ in range(2)]
        assert [p.stdout.readline().strip() for p in both] == ["ready", "ready"]
        time.sleep(1.0)
        assert [p.poll() for p in both] == [None, None]  # waiting for the compile
    outs = sorted(p.communicate(timeout=120)[0].split() for p in both)
    assert outs == [["0", "1"], ["1", "0"]]  # one compiled it (a miss); the other loaded it (a hit)


def test_every_module_with_kernels_keys_the_cache():
    with_kernels = {p.resolve() for p in PACKAGE.rglob("*.py") if "@njit" in p.read_text(encoding="utf-8")}
    assert with_kernels, "no kernels found"
    assert with_kernels <= set(jit.kernel_sources())
    for path in with_kernels:  # and each takes njit from core.jit, so the cache is set up before it decorates
        text = path.read_text(encoding="utf-8")
        assert re.search(r"^from \.+core\.jit import [^\n]*\bnjit\b", text, re.MULTILINE), path


def test_the_cache_directory_follows_the_sources(tmp_path):
    a = tmp_path / "a.py"
    a.write_text("x = 1\n")
    first = jit.kernel_cache_dir([a], base=tmp_path)
    a.write_text("x = 2\n")
    assert jit.kernel_cache_dir([a], base=tmp_path) != first
    assert first.parent == tmp_path and first.name.startswith(jit.PREFIX)


def test_a_first_run_is_told_that_kernels_compile_first(tmp_path):
    """The command line says 'compiling the solver kernels first' until any kernel was compiled here."""
    from dicesolver.core.kernel_cache import never_compiled

    assert never_compiled(tmp_path)
    (tmp_path / "dicesolver-0123").mkdir()
    (tmp_path / "dicesolver-0123" / "other.txt").write_text("")
    assert never_compiled(tmp_path)
    index = tmp_path / "dicesolver-0123" / "dicesolver" / "kernel.solve-12.py311.nbi"
    index.parent.mkdir(parents=True)
    index.write_bytes(b"")
    assert not never_compiled(tmp_path)


def test_the_kernels_load_without_importing_scipy_and_leave_it_working():
    """numba's BLAS probe (an import of scipy.linalg, 90 ms) is skipped while the registries load; scipy
    and numba's own linear algebra still work afterwards in the same process."""
    pytest.importorskip("scipy")
    code = textwrap.dedent("""
        import sys
        import numpy as np
        from numba import njit
        from dicesolver.scorecard.turn.kernels.widget import chunk_bounds
        chunk_bounds(10, 2)  # a first dispatch: numba loads its registries by now
        before = "scipy.linalg" in sys.modules
        import scipy.linalg
        a = np.arange(4.0).reshape(2, 2)
        dot = njit(lambda x, y: np.dot(x, y))
        print(before, np.allclose(dot(a, a), a @ a), np.allclose(scipy.linalg.inv(np.eye(2)), np.eye(2)))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "True"]


def test_a_second_copy_of_the_package_loads_the_kernels_the_first_compiled(tmp_path):
    """A fresh clone or a reinstall elsewhere on the machine, with the same kernel sources, compiles nothing:
    the kernels are filed by their place in the package, not by their file's absolute path or time."""
    import shutil

    probe = ("import numpy as np\n"
             "from dicesolver.scorecard.turn.kernels.stream import draw_rand\n"
             "draw_rand(1, 0, np.zeros((2, 3, 2), dtype=np.int64))\n"
             "print(sum(draw_rand.stats.cache_hits.values()), sum(draw_rand.stats.cache_misses.values()))\n")
    copies = []
    for name in ("first", "second"):
        shutil.copytree(PACKAGE, tmp_path / name / "dicesolver", ignore=shutil.ignore_patterns("__pycache__"))
        copies.append(tmp_path / name)
    seen = []
    for copy in copies:
        out = subprocess.run([sys.executable, "-c", probe], cwd=copy, capture_output=True, text=True, check=True,
                             env={"DICESOLVER_KERNEL_CACHE": str(tmp_path / "kernels"), "PATH": "/usr/bin:/bin",
                                  "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"})
        seen.append(tuple(int(x) for x in out.stdout.split()))
    assert seen == [(0, 1), (1, 0)]  # compiled by the first copy, loaded by the second


KERNEL = "from dicesolver.core.jit import njit\n\n@njit(cache=True)\ndef add_one(x):\n    return x + 1\n"
USE = ("import warnings; warnings.simplefilter('always'); from dicesolver.core import jit; import kmod; "
       "print(kmod.add_one(1), jit.CACHE_DIR, sum(kmod.add_one.stats.cache_hits.values()))")


def test_a_kernel_cache_that_cannot_be_written_falls_back_to_a_private_folder_then_to_memory(tmp_path):
    """A read-only home or cache (here a file where the folder should be: root writes anywhere) compiles the
    kernels into the user's own folder in the temporary folder, kept for the next process; where that cannot
    be made either, in memory. Each time one warning names the variable to set, and the kernel answers."""
    import os

    (tmp_path / "kmod.py").write_text(KERNEL)
    blocked = tmp_path / "blocked"
    blocked.write_text("")
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {"PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1", "DICESOLVER_KERNEL_CACHE": str(blocked),
           "TMPDIR": str(temp)}

    def run() -> tuple[list[str], str]:
        done = subprocess.run([sys.executable, "-c", USE], cwd=tmp_path, env=env, capture_output=True, text=True,
                              check=True)
        return done.stdout.split(), done.stderr

    (value, folder, hits), said = run()
    private = temp / f"dicesolver-kernels-{os.getuid()}"
    assert value == "2" and Path(folder).parent == private and hits == "0"
    assert said.count("CacheWarning") == 1 and "DICESOLVER_KERNEL_CACHE" in said and f"compiled into {private}" in said
    assert oct(private.stat().st_mode & 0o777) == "0o700"
    assert run()[0] == ["2", folder, "1"]  # the next process loads it
    for made in (p for p in private.rglob("*") if p.is_file()):
        made.unlink()
    private.chmod(0o777)  # a folder others could write to: not trusted with pickles
    (value, folder, hits), said = run()
    assert value == "2" and folder == "None" and "compiled in memory" in said and said.count("CacheWarning") == 1


def test_the_command_line_answers_with_no_cache_it_can_write_and_says_so_in_one_line_each(tmp_path):
    """``advise`` with neither cache writable: the answer, exit 0, one warning line for the kernels and one
    for the table (never a traceback, never a silent solve), and a progress label that promises nothing kept."""
    blocked = tmp_path / "blocked"
    blocked.write_text("")
    temp = tmp_path / "tmp"
    temp.mkdir()
    (temp / f"dicesolver-kernels-{__import__('os').getuid()}").write_text("")  # no private folder either
    done = subprocess.run([sys.executable, "-m", "dicesolver", "advise", "pig", "10,20,5"], capture_output=True,
                          text=True, timeout=300, env={"PATH": "/usr/bin:/bin", "DICESOLVER_KERNEL_CACHE": str(blocked),
                                                       "DICESOLVER_CACHE_DIR": str(blocked), "TMPDIR": str(temp),
                                                       "COLUMNS": "200"})
    assert done.returncode == 0 and "throw" in done.stdout and "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    warned = [line for line in lines if line.startswith("warning: ")]
    assert len(warned) == 2, lines
    assert "compiled in memory" in warned[0] and "DICESOLVER_KERNEL_CACHE" in warned[0]
    assert "could not save the table" in warned[1] and "DICESOLVER_CACHE_DIR" in warned[1]
    for line in set(lines) - set(warned):  # progress, the wait being seconds long
        assert line.startswith("solving pig (not kept) + compiling kernels:"), line


LOOP = """
import sys, time
import dicesolver as ds
from dicesolver.core import registry

positions = ["/13456/2", "/11234/1", "aces=3/22345/2", "/66666/0", "chance=20,sixes=24/12356/1"]
numpy_first = registry.solve("yacht")._numpy_first
first = [ds.advise("yacht", p).value for p in positions]
began, n = time.monotonic(), 0
while not numpy_first.ready and time.monotonic() - began < 280:
    ds.advise("yacht", positions[n % 5])
    n += 1
    if n % 500 == 0:
        time.sleep(0.05)  # a loop that also does other things
after = [ds.advise("yacht", p).value for p in positions]
print(numpy_first.ready, n, after == first, bool(numpy_first.kernel().signatures))
"""


@pytest.mark.essay  # the answer kernel compiled from nothing: about a minute of a core
def test_a_long_loop_of_single_answers_takes_up_the_kernel_compiled_in_the_background(tmp_path):
    """From an empty kernel cache, a process that keeps answering single positions starts a warm-up of its own
    in the background and switches to the compiled kernel once it is in the cache, with the same answers;
    it never waits for the compile (it answers in numpy all the while)."""
    import os

    env = {**os.environ, "DICESOLVER_KERNEL_CACHE": str(tmp_path / "kernels"), "DICESOLVER_COMPILE_IN_BACKGROUND": "1"}
    done = subprocess.run([sys.executable, "-c", LOOP], capture_output=True, text=True, timeout=330, env=env)
    assert done.returncode == 0, done.stderr
    ready, answered, same, compiled = done.stdout.split()
    assert ready == "True" and same == "True" and compiled == "True", done.stdout
    assert int(answered) > 32  # numpy answered until the kernel was there


def test_numpy_answers_start_one_compile_elsewhere_and_switch_when_it_is_in(monkeypatch):
    """NumpyFirst: single answers in numpy; at its first look the kernel is not compiled, so one background
    warm-up is started (never a second), numpy goes on answering, and at a later look the kernel found
    compiled answers from then on. One-shot use (a few answers) starts nothing."""
    from dicesolver.core import answers

    started = []
    monkeypatch.setattr(jit, "compile_elsewhere", started.append)
    in_cache = []
    monkeypatch.setattr(jit, "compiled", lambda kernel: bool(in_cache))
    first = answers.NumpyFirst(lambda: "the kernel", "yacht")
    assert all(first.takes(1) for _ in range(answers.NUMPY_FIRST)) and started == []  # a one-shot's answers
    assert first.takes(1) and started == ["yacht"]  # the first look: not compiled; compiled elsewhere
    assert all(first.takes(1) for _ in range(3 * answers.NUMPY_RECHECK)) and started == ["yacht"]
    in_cache.append(True)
    took = [first.takes(1) for _ in range(answers.NUMPY_RECHECK + 1)]
    assert took[-1] is False and first.ready and started == ["yacht"]


def test_no_background_compile_without_a_cache_to_keep_it_or_when_turned_off(monkeypatch, tmp_path):
    monkeypatch.setenv("DICESOLVER_COMPILE_IN_BACKGROUND", "0")
    monkeypatch.setattr(jit, "CACHE_DIR", tmp_path)
    assert jit.compile_elsewhere("yacht") is None
    monkeypatch.setenv("DICESOLVER_COMPILE_IN_BACKGROUND", "1")
    monkeypatch.setattr(jit, "CACHE_DIR", None)
    assert jit.compile_elsewhere("yacht") is None
