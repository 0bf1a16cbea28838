"""``dicesolver serve``: the web app served by uvicorn, in one process or in ``workers`` processes sharing the
port (``web.processes``), each process's app built and settled for long running."""

from __future__ import annotations

from collections.abc import Sequence

from fastapi import FastAPI

from ..core import registry
from .access import COOKIE_ENV, TOKEN_ENV, Hosts
from .app import MAX_BUILD_MINUTES, MAX_CACHE_GB, MAX_TABLE_GB, create_app


def serve(host: str = "127.0.0.1", port: int = 8000, token: str | None = None, workers: int = 1,
          hosts: Hosts | None = None, max_table_gb: float = MAX_TABLE_GB, warmup: Sequence[str] = (),
          max_build_minutes: float = MAX_BUILD_MINUTES, max_cache_gb: float = MAX_CACHE_GB) -> None:
    """Serve until interrupted: one process, or ``workers`` processes sharing the port, the tables on disk and
    the games (``web.sessions``); each builds its app with ``app_from_environment``. ``hosts``: the names
    the server answers to (``web.access.Hosts``)."""
    import json
    import os

    import uvicorn

    from .connections import GuardedH11

    hosts = hosts or Hosts()
    if workers > 1:
        from .processes import serve_processes

        import secrets

        os.environ[TOKEN_ENV] = token or ""  # the worker processes inherit it
        os.environ[COOKIE_ENV] = secrets.token_hex(32)  # and one secret for this start's cookies
        os.environ[HOSTS_ENV] = json.dumps({"network": hosts.network, "names": sorted(hosts.names),
                                            "max_table_gb": max_table_gb, "warmup": list(warmup),
                                            "max_build_minutes": max_build_minutes, "max_cache_gb": max_cache_gb})
        serve_processes(host, port, workers)
        return
    app = create_app(token=token, hosts=hosts, max_table_gb=max_table_gb, warmup=warmup,
                     max_build_minutes=max_build_minutes, max_cache_gb=max_cache_gb)
    _settle_process()
    uvicorn.run(app, host=host, port=port, log_level="warning", http=GuardedH11)


HOSTS_ENV = "DICESOLVER_WEB_HOSTS"  # how ``serve --workers N`` hands its names and limits to every process


def app_from_environment() -> FastAPI:
    """A worker process's app (``serve --workers N``): the token and names from the environment its parent set."""
    import json
    import os

    given = json.loads(os.environ.get(HOSTS_ENV) or "{}")
    hosts = Hosts(bool(given.get("network")), given.get("names", ()))
    app = create_app(token=os.environ.get(TOKEN_ENV) or None, hosts=hosts,
                     cookie_secret=bytes.fromhex(os.environ.get(COOKIE_ENV) or "") or None,
                     max_table_gb=float(given.get("max_table_gb", MAX_TABLE_GB)),
                     max_build_minutes=float(given.get("max_build_minutes", MAX_BUILD_MINUTES)),
                     max_cache_gb=float(given.get("max_cache_gb", MAX_CACHE_GB)),
                     warmup=given.get("warmup", ()))  # each process starts them: the tables' locks build each once
    _settle_process()
    return app


def _settle_process() -> None:
    """The libraries' long-lived objects (imported now rather than by the first requests) are frozen out of
    the cycle collector, whose full passes over them would otherwise pause requests now and then; the young
    generation is collected less often for the same reason."""
    import gc
    import importlib

    registry.families()
    for module in ("core.advice", "core.review", "analysis.plots"):
        importlib.import_module(f"dicesolver.{module}")
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 50)
