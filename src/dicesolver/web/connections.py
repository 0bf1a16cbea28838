"""Bounds on connections, before any request reaches the app: a slow client cannot hold the server.

uvicorn closes a connection idle after a response (its keep-alive timeout) but waits for ever for the
headers of a request that trickle in a byte at a time, and accepts connections until the process runs out
of file descriptors, logging a traceback for each one refused then. ``GuardedH11`` is uvicorn's HTTP/1.1
protocol with both bounded: a request's headers must come within ``HEADER_SECONDS`` of the connection (or
of the previous response), and at ``MAX_CONNECTIONS`` open ones (or ``MAX_PER_ADDRESS`` from one address) the
one that has waited longest for its headers (at ``MAX_CONNECTIONS``, or for the rest of its body) is closed to
make room: clients at many addresses trickling bodies hold no slot another needs, and a connection just
opened is the last to go; one address past its share is refused instead of closing its requests in the app;
only when every one of them has a request the app is answering does a new one get 503, told on
stderr at most once a minute. ``watch_parent`` ends a worker process whose parent died.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import time

import h11
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
    # half the files the process may open, at most 1000: tables, records, threads and the log have the rest
    MAX_CONNECTIONS = max(16, min(1000, _open_file_limit() // 2))
    MAX_PER_ADDRESS = 100  # one machine's share: a phone opens a handful; past this, its own oldest go first
    _told = 0.0  # when the last refusal was told (one line a minute at most, for the whole process)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._header_timer: asyncio.TimerHandle | None = None
        self._waiting_since: float | None = None  # since when it waits for a request's headers
        self._body_since: float | None = None  # since when it waits for the rest of a request's body
        address = (transport.get_extra_info("peername") or ("?",))[0]
        mine = [c for c in self.connections if isinstance(c, GuardedH11) and c.client and c.client[0] == address]
        if len(mine) >= self.MAX_PER_ADDRESS:
            self._make_room(mine)
        elif len(self.connections) >= self.MAX_CONNECTIONS:
            self._make_room(self.connections, bodies=True)
        self._refused = (len(self.connections) >= self.MAX_CONNECTIONS
                         or sum(1 for c in mine if c in self.connections) >= self.MAX_PER_ADDRESS)
        if self._refused:
            transport.write(BUSY)
            transport.close()
            now = time.monotonic()
            if now - GuardedH11._told >= 60:
                GuardedH11._told = now
                print(f"dicesolver: {len(self.connections)} connections open ({len(mine)} from {address}), the most "
                      "this server keeps: new ones get 503 (told once a minute)", file=sys.stderr, flush=True)
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
            if self.conn.their_state is h11.SEND_BODY:
                # its body still coming: as a connection waiting for headers, it may be closed to make room
                # (the app's own limit, BodyLimit, answers 408 to a body too slow when there is room)
                if self._header_timer is not None:  # the headers came in time
                    self._header_timer.cancel()
                    self._header_timer = None
                if self._body_since is None:
                    self._body_since = self._waiting_since or time.monotonic()
                self._waiting_since = None
            else:
                self._disarm()  # the whole request is in: the app has it

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request's headers, if any, in time too

    def _make_room(self, among, bodies: bool = False) -> None:
        """At a cap, the connection (``among`` those it counts) that has waited longest for a request's headers
        is closed for the new one (a client holding connections open without asking for anything loses them
        first; one whose request is being answered keeps it); ``bodies``: or for the rest of its body, whichever
        has waited longer (a connection just opened, its request not read yet, is the last to go)."""
        def since(c) -> float | None:
            return c._waiting_since if c._waiting_since is not None or not bodies else c._body_since

        waiting = [c for c in among if isinstance(c, GuardedH11) and since(c) is not None
                   and not c.transport.is_closing()]
        if waiting:
            oldest = min(waiting, key=lambda c: since(c) or 0.0)
            oldest._disarm()
            oldest.transport.close()
            self.connections.discard(oldest)

    def _arm(self) -> None:
        self._disarm()
        self._waiting_since = time.monotonic()
        self._header_timer = self.loop.call_later(self.HEADER_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        self._waiting_since = self._body_since = None
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
