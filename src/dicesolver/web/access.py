"""Who may use the web app, and whose games are whose.

Served beyond this machine (``dicesolver serve --lan``, or any ``--host`` that is not loopback), every
request must carry the server's secret token, as Jupyter does: it comes once in the address the terminal
prints (``/?token=...``, also drawn there as a QR code for a phone), the server answers with a cookie that
holds it, and the page is then used without it. Programs may send it as ``Authorization: token <token>``
(or ``Bearer``). A request without it gets 401 and no data: a short page asking for the token for a
browser, one JSON line for the API.

Every browser also gets an id of its own in a cookie. A game started in the web app is stored with that
id (``<record>.owner``, beside the record), and the lists of games, their reviews and their continuation
are each browser's own: two phones at one table each see their own games.
"""

from __future__ import annotations

import html
import ipaddress
import re
import secrets
import socket
from pathlib import Path

from fastapi import Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

TOKEN_COOKIE = "dicesolver-token"
BROWSER_COOKIE = "dicesolver-browser"
TOKEN_ENV = "DICESOLVER_WEB_TOKEN"  # how ``serve --workers N`` hands its token to every process
COOKIE_SECONDS = 400 * 24 * 3600  # browsers cap a cookie's life at 400 days
BROWSER_ID = re.compile(r"^[0-9a-f]{32}$")
OWNER_SUFFIX = ".owner"
# what a phone fetches to add the app to its home screen, without the page's cookies; no data in any of them
PUBLIC_PATHS = frozenset({"/manifest.webmanifest", "/static/icon.svg", "/static/icon-192.png", "/static/icon-512.png"})


def is_loopback(host: str) -> bool:
    """Whether ``host`` serves this machine only (``localhost``, 127.x, ::1)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def new_token() -> str:
    return secrets.token_urlsafe(24)


def lan_address() -> str:
    """This machine's address on the local network (the one its default route leaves from), for the URL a
    phone opens; no packet is sent."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return probe.getsockname()[0]
        except OSError:
            pass
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:  # no network at all: the machine's name is the best there is
        return socket.gethostname()


def visit_url(host: str, port: int, token: str | None) -> str:
    """The address to open: this machine's network address where the server listens on every interface."""
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


def qr_text(url: str) -> str:
    """The URL as a QR code drawn with block characters, to be scanned from the terminal by a phone."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


class Guard:
    """ASGI middleware: checks the token (when the server has one) and gives each browser its id (in
    ``request.state.browser``). Plain ASGI rather than ``@app.middleware``: it costs every request
    microseconds, not a task and a wrapped response."""

    def __init__(self, app: ASGIApp, token: str | None):
        self.app = app
        self.token = token

    def _token_of(self, request: Request) -> str | None:
        header = request.headers.get("authorization", "")
        scheme, _, value = header.partition(" ")
        if scheme.lower() in ("token", "bearer") and value:
            return value.strip()
        return request.query_params.get("token") or request.cookies.get(TOKEN_COOKIE)

    def _valid(self, supplied: str | None) -> bool:
        return bool(supplied) and secrets.compare_digest(str(supplied).encode(), str(self.token).encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        cookies: list[str] = []  # Set-Cookie headers to add to the response
        if self.token is not None and request.url.path not in PUBLIC_PATHS:
            supplied = self._token_of(request)
            if not self._valid(supplied):
                await _refused(request, supplied is not None)(scope, receive, send)
                return
            if request.cookies.get(TOKEN_COOKIE) != self.token:  # proved it holds the token: the browser keeps it
                cookies.append(_cookie(TOKEN_COOKIE, str(self.token)))
            opened = request.method == "GET" and not request.url.path.startswith("/api")
            if opened and request.query_params.get("token"):
                # the address with the token was opened: keep the token in a cookie and show a clean address
                clean = request.url.remove_query_params("token")
                response = RedirectResponse(str(clean.path) + (f"?{clean.query}" if clean.query else ""),
                                            status_code=303)
                response.raw_headers.extend((b"set-cookie", c.encode("latin-1")) for c in cookies)
                await response(scope, receive, send)
                return
        browser = request.cookies.get(BROWSER_COOKIE, "")
        if not BROWSER_ID.match(browser):
            browser = secrets.token_hex(16)
            cookies.append(_cookie(BROWSER_COOKIE, browser))
        scope.setdefault("state", {})["browser"] = browser
        if not cookies:
            await self.app(scope, receive, send)
            return

        async def send_with_cookies(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []),
                                                  *((b"set-cookie", c.encode("latin-1")) for c in cookies)]}
            await send(message)

        await self.app(scope, receive, send_with_cookies)


def _cookie(name: str, value: str) -> str:
    return f"{name}={value}; Max-Age={COOKIE_SECONDS}; Path=/; HttpOnly; SameSite=lax"


def _refused(request: Request, wrong: bool) -> Response:
    reason = "wrong token" if wrong else "this server needs its token"
    if request.url.path.startswith("/api") or "text/html" not in request.headers.get("accept", ""):
        return JSONResponse({"detail": f"{reason}: open the address that 'dicesolver serve' printed "
                                       "(it ends in ?token=...), or send 'Authorization: token <token>'"},
                            status_code=401)
    page = f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>dicesolver: token needed</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 30rem; margin: 3rem auto; padding: 0 1rem">
<h1>dicesolver</h1><p>{html.escape(reason.capitalize())}. Scan the QR code that <code>dicesolver serve</code> drew in
its terminal, open the address it printed, or paste the token here:</p>
<form method="get" action="/"><input name="token" autocomplete="off" style="width: 100%; padding: 0.5rem"
 aria-label="token"><p><button type="submit">Open</button></p></form></body></html>"""
    return HTMLResponse(page, status_code=401)


def browser_of(request: Request) -> str:
    return getattr(request.state, "browser", "")


class Owners:
    """Which browser a web game's record belongs to: a small file beside the record, written when the game
    starts. Records without one (made before games had owners) are shown only where ``shared_legacy`` is set
    (a server on this machine alone, with no token), so a server opened to the network shows them to no one."""

    def __init__(self, shared_legacy: bool):
        self.shared_legacy = shared_legacy

    @staticmethod
    def _file(record: Path) -> Path:
        return record.with_name(record.name + OWNER_SUFFIX)

    def claim(self, record: Path, browser: str) -> None:
        self._file(record).write_text(browser + "\n", encoding="utf-8")

    def owner(self, record: Path) -> str | None:
        try:
            return self._file(record).read_text(encoding="utf-8").strip() or None
        except OSError:
            return None

    def may_see(self, record: Path, browser: str) -> bool:
        owner = self.owner(record)
        return owner == browser if owner is not None else self.shared_legacy

    def forget(self, record: Path) -> None:
        self._file(record).unlink(missing_ok=True)
