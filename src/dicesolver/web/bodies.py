"""Request bodies bounded (ASGI middleware): what a client may send, and for how long, whatever it announces."""

from __future__ import annotations

import asyncio

from fastapi import HTTPException
from fastapi.responses import JSONResponse, Response

MAX_BODY_BYTES = 2 * 2**20
BODY_SECONDS = 30.0  # the most a request's body may take to arrive


class BodyLimit:
    """ASGI middleware: a body longer than MAX_BODY_BYTES is refused with 413: at once when its length is
    announced, else (chunked) as soon as the bytes counted while it streams in pass the limit, so memory
    stays flat whatever a client sends; and one still coming BODY_SECONDS after the request began gets 408."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
            await _too_large()(scope, receive, send)
            return
        received, started = 0, False
        deadline = asyncio.get_running_loop().time() + BODY_SECONDS

        async def counted() -> dict:
            nonlocal received
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - asyncio.get_running_loop().time()))
            except asyncio.TimeoutError:
                raise HTTPException(408, f"a request's body must come within {BODY_SECONDS:.0f} s") from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > MAX_BODY_BYTES:
                    raise _TooLarge()
            return message

        async def watched(message: dict) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except _TooLarge:
            if not started:
                await _too_large()(scope, receive, send)


class _TooLarge(HTTPException):
    """Raised while a body is read (FastAPI passes an HTTPException through as it is): it is too long."""

    def __init__(self) -> None:
        super().__init__(413, f"requests are limited to {MAX_BODY_BYTES // 2**20} MiB")


def _too_large() -> Response:
    return JSONResponse({"detail": f"requests are limited to {MAX_BODY_BYTES // 2**20} MiB"}, status_code=413)
