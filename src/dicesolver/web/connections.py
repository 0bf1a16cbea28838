"""Bounds on connections, before any request reaches the app: a slow client cannot hold the server.

uvicorn closes a connection idle after a response (its keep-alive timeout) but waits for ever for the
headers of a request that trickle in a byte at a time, and accepts connections until the process runs out
of file descriptors, logging a traceback for each one refused then. ``GuardedH11`` is uvicorn's HTTP/1.1
protocol with both bounded: a request's headers must come within ``HEADER_SECONDS`` of the connection (or
of the previous response), and beyond ``MAX_CONNECTIONS`` open ones a new connection gets 503 at once,
told on stderr at most once a minute. ``watch_parent`` ends a worker process whose parent died.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import time

from uvicorn.protocols.http.h11_impl import H11Protocol

BUSY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: 33\r\n"
        b"connection: close\r\n\r\ntoo many connections: try again\r\n")


def _open_file_limit() -> int:
    """The soft limit on open files, raised to the hard one where it is lower (each connection holds one)."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return 8192
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft if soft != resource.RLIM_INFINITY else 65536


class GuardedH11(H11Protocol):
    HEADER_SECONDS = 10.0
    MAX_CONNECTIONS = max(16, min(1000, _open_file_limit() - 200))  # files besides: tables, records, the log
    _told = 0.0  # when the last refusal was told (one line a minute at most, for the whole process)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._header_timer: asyncio.TimerHandle | None = None
        self._refused = len(self.connections) >= self.MAX_CONNECTIONS
        if self._refused:
            transport.write(BUSY)
            transport.close()
            now = time.monotonic()
            if now - GuardedH11._told >= 60:
                GuardedH11._told = now
                print(f"dicesolver: {len(self.connections)} connections open, the most this server keeps: new ones "
                      "get 503 (told once a minute)", file=sys.stderr, flush=True)
            return
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._refused:
            return
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        super().data_received(data)
        if self.cycle is not None and not self.cycle.response_complete:
            self._disarm()  # a request's headers are in: the app has it

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request's headers, if any, in time too

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.HEADER_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()


def watch_parent(interval: float = 0.5) -> None:
    """Ends this process (as Ctrl-C would, then for good after 10 s) once its parent is gone: a worker of
    ``serve --workers N`` whose server was killed must not go on holding the port."""
    import signal

    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(10)
        os._exit(1)

    threading.Thread(target=watch, name="dicesolver-parent-watch", daemon=True).start()
