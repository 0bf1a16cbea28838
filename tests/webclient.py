"""The web app's test client, addressed as a browser on this machine addresses it (``http://localhost``):
the server answers only to the names it serves (``web.access.Hosts``), and Starlette's default,
``testserver``, is not one of them."""

import fastapi.testclient


class TestClient(fastapi.testclient.TestClient):
    __test__ = False  # not a test class

    def __init__(self, app, base_url: str = "http://localhost", **kwargs):
        super().__init__(app, base_url=base_url, **kwargs)
