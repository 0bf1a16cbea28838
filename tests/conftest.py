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
