"""The web app's test client, addressed as a browser on this machine addresses it (``http://localhost``):
the server answers only to the names it serves (``web.access.Hosts``), and Starlette's default,
``testserver``, is not one of them."""

import contextlib
import inspect
from collections.abc import Iterator

import fastapi.testclient

# Starlette's TestClient takes the client's address from 0.37.2 on; fastapi's floor (0.110) brings 0.36
TAKES_CLIENT = "client" in inspect.signature(fastapi.testclient.TestClient.__init__).parameters


class FromAddress:
    """The app, its requests coming from ``client`` (for a TestClient that cannot say so itself); everything
    else (``state``, ``routes``) is the app's."""

    def __init__(self, app, client: tuple[str, int]):
        self._app, self._client = app, client

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            scope = {**scope, "client": self._client}
        await self._app(scope, receive, send)

    def __getattr__(self, name):
        return getattr(self._app, name)


class TestClient(fastapi.testclient.TestClient):
    __test__ = False  # not a test class

    made = 0

    def __init__(self, app, base_url: str = "http://localhost", **kwargs):
        # each client from an address of its own, as separate programs or machines: the server mints at most a
        # few browser ids a minute for one address (web.access.Browsers)
        TestClient.made += 1
        client = kwargs.pop("client", (f"127.1.{TestClient.made // 250 % 250}.{TestClient.made % 250 + 1}", 50000))
        if TAKES_CLIENT:
            kwargs["client"] = client
        else:
            app = FromAddress(app, client)
        super().__init__(app, base_url=base_url, **kwargs)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def served(app, **config) -> Iterator[int]:
    """``app`` under uvicorn in a thread on a free loopback port (yielded) until the block ends."""
    import threading
    import time

    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", **config))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)
