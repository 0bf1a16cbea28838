import os

import pytest

# a test answering many single positions starts no background compile (``jit.compile_elsewhere``): the suite
# compiles what it needs itself, and its processes are not shared with warm-ups of every game it touches;
# test_kernel_cache.py turns it on where it is the subject
os.environ["DICESOLVER_COMPILE_IN_BACKGROUND"] = "0"


@pytest.fixture(scope="session", autouse=True)
def isolated_cache(tmp_path_factory):
    """Every test run solves into its own cache directory, shared by its workers (tables are written
    atomically under a lock: a table one worker solves, the others load, where each worker solving its own
    cost the suite a Farkle solve per worker)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):  # the run's folder, shared by its workers
        path = tmp_path_factory.getbasetemp().parent / "cache"
        path.mkdir(exist_ok=True)
    else:
        path = tmp_path_factory.mktemp("cache")
    os.environ["DICESOLVER_CACHE_DIR"] = str(path)
    # games, records and training kept by the tests go there too, never into the user's own data
    os.environ["XDG_DATA_HOME"] = str(path / "data")
    yield path


@pytest.fixture()
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(tmp_path))
    return tmp_path


@pytest.fixture(autouse=True, scope="module")
def no_job_outlives_its_module():
    """No web app's background job (a table it builds) runs on after the module that started it: one left
    running keeps a core and the shared threads busy under every test after it (a Generala table built
    for a fuzzed review once made a tiny two-person solve in the next module wait 50 s). An app stops its
    jobs when it stops: leaving a ``with TestClient(...)`` block, or a served app's shutdown."""
    yield
    import sys
    import threading

    solutions = sys.modules.get("dicesolver.web.solutions")  # not imported: no app ran
    if solutions is None:
        return
    left = [t for t in threading.enumerate() if t.name.startswith(solutions.JOB_THREAD)]
    for thread in left:
        thread.join(5)  # one finishing a load from disk
    assert not [t for t in left if t.is_alive()], [t.name for t in left if t.is_alive()]


def pytest_configure(config):
    """``DICESOLVER_COMPILE_LOG=FILE``: every kernel numba compiles in the run, with its signature, the test
    that asked for it and the seconds it took, one JSON line each (both workers append): where a cold
    suite's time goes (``python scripts/compile_report.py FILE``)."""
    log = os.environ.get("DICESOLVER_COMPILE_LOG")
    if log:
        from dicesolver.core.jit import log_compiles

        log_compiles(log, lambda: {"test": os.environ.get("PYTEST_CURRENT_TEST", ""),
                                   "worker": os.environ.get("PYTEST_XDIST_WORKER", "")})
