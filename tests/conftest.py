import os

import pytest


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
    yield path


@pytest.fixture()
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(tmp_path))
    return tmp_path


def pytest_configure(config):
    """``DICESOLVER_COMPILE_LOG=FILE``: every kernel numba compiles in the run, with its signature, the test
    that asked for it and the seconds it took, one JSON line each (both workers append): where a cold
    suite's time goes (``python scripts/compile_report.py FILE``)."""
    log = os.environ.get("DICESOLVER_COMPILE_LOG")
    if not log:
        return
    import json
    import time

    from numba.core import event

    class Listener(event.Listener):
        started: dict = {}

        def on_start(self, ev):
            self.started[id(ev.data["dispatcher"]), str(ev.data["args"])] = time.perf_counter()

        def on_end(self, ev):
            d, args = ev.data["dispatcher"], str(ev.data["args"])
            took = time.perf_counter() - self.started.pop((id(d), args), time.perf_counter())
            with open(log, "a", encoding="utf-8") as fh:
                fh.write(json.dumps({"kernel": f"{d.py_func.__module__}.{d.py_func.__qualname__}", "signature": args,
                                     "seconds": round(took, 3), "ended": round(time.perf_counter(), 3),
                                     "test": os.environ.get("PYTEST_CURRENT_TEST", ""),
                                     "worker": os.environ.get("PYTEST_XDIST_WORKER", "")}) + "\n")

    event.register("numba:compile", Listener())
