import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def isolated_cache(tmp_path_factory):
    """Every test session solves into its own cache directory."""
    path = tmp_path_factory.mktemp("cache")
    os.environ["DICESOLVER_CACHE_DIR"] = str(path)
    yield path


@pytest.fixture()
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DICESOLVER_CACHE_DIR", str(tmp_path))
    return tmp_path


# The suite runs on two xdist workers, a file at a time (``--dist loadgroup`` with every test grouped by its
# file, as ``loadfile`` would), except files that compile the same big kernel: those share a worker, so the
# second finds the kernel in numba's cache instead of compiling it again beside the first (the scorecard
# match kernel: about 47 s of compiling).
SHARED_WORKER = {"test_match.py": "match-kernel", "test_target.py": "match-kernel"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        name = item.path.name
        item.add_marker(pytest.mark.xdist_group(SHARED_WORKER.get(name, name)))
