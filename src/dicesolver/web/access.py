"""Who may use the web app, from where, and whose games are whose.

A request must name the server by a name it answers to (``Hosts``: on this machine alone ``localhost`` and
loopback addresses, and with ``--lan`` this machine's addresses and names; more with ``--allow-host``), so
a foreign page cannot reach it by pointing its own name at this machine (DNS rebinding). A request that
changes something must come from the app's own page or from a program, never from another site's page
(its ``Origin`` and ``Sec-Fetch-Site``); another site's page gets nothing from /api at all.

Served beyond this machine (``dicesolver serve --lan``, or any ``--host`` that is not loopback), every
request must also carry the server's secret token, as Jupyter does: it comes once in the address the
terminal prints (``/?token=...``, also drawn there as a QR code for a phone), the server answers with a
cookie (one per port) holding proof of it, not the token, and the page is then used without it. Programs
may send it as ``Authorization: token <token>`` (or ``Bearer``). A request without it gets 401 and no data:
a short page asking for the token for a browser, one JSON line for the API. Wrong tokens are answered more
slowly after the first few from an address, and told on stderr.

Every browser also gets an id of its own in a cookie. A game started in the web app is stored with that
id (``<record>.owner``, beside the record), and the lists of games, their reviews and their continuation
are each browser's own: two phones at one table each see their own games.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import html
import ipaddress
import math
import os
import re
import secrets
import socket
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from urllib.parse import urlsplit

from fastapi import Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .solutions import REQUESTER

TOKEN_COOKIE = "dicesolver-token"
BROWSER_COOKIE = "dicesolver-browser"
TOKEN_ENV = "DICESOLVER_WEB_TOKEN"  # how ``serve --workers N`` hands its token to every process
COOKIE_ENV = "DICESOLVER_WEB_COOKIE_SECRET"  # and the secret of this start's cookie proofs (hex)
COOKIE_SECONDS = 400 * 24 * 3600  # browsers cap a cookie's life at 400 days
BROWSER_ID = re.compile(r"^[0-9a-f]{32}$")
SIGNED_BROWSER = re.compile(r"^([0-9a-f]{32})\.([0-9a-f]{32})$")  # the id and the server's signature of it
OWNER_SUFFIX = ".owner"
BROWSER_KEY = ".browser-key"  # beside the games: the key that signs browser ids (Browsers)
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


class Hosts:
    """The names by which a request may reach the server, as its ``Host`` header gives them: the defence
    against DNS rebinding (a foreign page whose name was pointed at this machine sends its own name).

    On this machine alone: ``localhost`` and loopback addresses. Served to the network: any of this
    machine's addresses written as an address (a rebound name is never an address), its own names, and
    loopback. Names given with ``serve --allow-host`` are added in both."""

    def __init__(self, network: bool = False, extra: Iterable[str] = ()):
        self.network = network
        self.names = {"localhost", *(name.strip().lower().rstrip(".") for name in extra if name.strip())}
        if network:
            own = socket.gethostname().lower()
            short = own.split(".")[0]
            self.names |= {own, short, f"{short}.local"}

    def allows(self, host_header: str) -> bool:
        host = host_only(host_header)
        if not host:
            return False
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return host in self.names or host.endswith(".localhost")
        return self.network or address.is_loopback


def host_only(host_header: str) -> str:
    """``Host``'s name or address without its port, lower case: ``[::1]:8000`` -> ``::1``."""
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else ""
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def same_origin(request: Request) -> bool:
    """Whether a request that changes something comes from the app's own page (or from no page: a program).
    Browsers name the page that sent it in ``Origin`` and say where it stands in ``Sec-Fetch-Site``."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    if origin is None:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == request.headers.get("host", "").lower()


TOKEN_FROM_USER_ENV = "DICESOLVER_TOKEN"  # where a user may keep the token (out of the process list)
TOKEN_CHARACTERS = re.compile(r"^[A-Za-z0-9_.~-]+$")
MIN_GUESSES_LOG10 = 12  # a trillion guesses: centuries at the pace the throttle and its lockout allow
# what an attacker would try first with this server: its own words (zxcvbn checks the rest)
OWN_WORDS = ("dicesolver", "yahtzee", "yatzy", "yacht", "token", "table", "serve", "dice")


def weak_token(token: str) -> str | None:
    """Why a token chosen by hand is too easy to guess, or None: at least 16 characters of those an address
    carries, and a trillion guesses or more by zxcvbn's estimate (common passwords, keyboard walks, repeats,
    dates and words; made for the job and maintained, rather than a list of our own)."""
    if len(token) < 16:
        return f"it has {len(token)} characters; use 16 or more (or let the server make one)"
    if not TOKEN_CHARACTERS.match(token):
        return "use letters, digits and '-_.~' only (it travels in an address)"
    if len(set(token)) < 8:
        return "it repeats a few characters"
    from zxcvbn import zxcvbn

    # its limit is 72 characters (a longer token is at least as strong); runs of one character ("aaaabbbb") are
    # read as one, a pattern zxcvbn scores too kindly
    estimate = min((zxcvbn(text[:72], user_inputs=list(OWN_WORDS)) for text in (token, re.sub(r"(.)\1+", r"\1", token))),
                   key=lambda e: e["guesses_log10"])
    if estimate["guesses_log10"] < MIN_GUESSES_LOG10:
        why = (estimate["feedback"].get("warning") or "it follows a pattern people use").rstrip(".")
        return f"{why[0].lower()}{why[1:]} (about 10^{estimate['guesses_log10']:.0f} guesses find it; let the server " \
               "make one, or join four or more unrelated words)"
    return None


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


class Browsers:
    """Each browser's id, in a cookie signed by the server (a key kept in the cache folder, so ids outlive a
    restart and are shared by ``serve --workers N``): an id a client made up is no id. New ids are minted at
    most ``NEW_PER_MINUTE`` a minute for one client address, so that the caps kept per browser (games started,
    unfinished games, training decks) bind a client without a cookie too; past that, a new client is served
    without an id, and whatever would be kept under one is refused (429). An id from before ids were signed is
    taken (and signed) if a game of this server names it as its owner."""

    NEW_PER_MINUTE, MAX_ADDRESSES = 20, 10_000

    def __init__(self, key_file: Path | None = None, legacy: Callable[[], set[str]] | None = None):
        self.key = self._key(key_file)
        self._legacy = legacy
        self._legacy_ids: set[str] | None = None
        self._minted: dict[str, list[float]] = {}  # address -> times of the ids minted for it this minute

    @staticmethod
    def _key(key_file: Path | None) -> bytes:
        """The signing key, made once and kept readable by this user only; in memory alone where the folder
        cannot be written (ids then last as long as the server)."""
        if key_file is not None:
            try:
                return bytes.fromhex(key_file.read_text(encoding="ascii").strip())
            except (OSError, ValueError):
                pass
            key = secrets.token_bytes(32)
            try:
                key_file.parent.mkdir(parents=True, exist_ok=True)
                made = key_file.with_name(f"{key_file.name}.{secrets.token_hex(4)}")
                made.write_text(key.hex(), encoding="ascii")
                made.chmod(0o600)
                try:
                    os.link(made, key_file)  # whole or not at all, and never over another process's key
                except FileExistsError:
                    pass
                except OSError:  # a file system without hard links
                    if not key_file.exists():
                        os.replace(made, key_file)
                finally:
                    made.unlink(missing_ok=True)
                return bytes.fromhex(key_file.read_text(encoding="ascii").strip())  # the first process's
            except (OSError, ValueError):
                return key
        return secrets.token_bytes(32)

    def sign(self, browser: str) -> str:
        return f"{browser}.{hmac.new(self.key, browser.encode(), hashlib.sha256).hexdigest()[:32]}"

    def id_of(self, cookie: str) -> tuple[str, bool]:
        """The browser id a cookie proves ("" for none), and whether its cookie should be set anew (signed)."""
        signed = SIGNED_BROWSER.match(cookie)
        if signed:
            return (signed[1], False) if secrets.compare_digest(self.sign(signed[1]), cookie) else ("", False)
        if BROWSER_ID.match(cookie) and self._legacy is not None:
            if self._legacy_ids is None:
                self._legacy_ids = self._legacy()
            if cookie in self._legacy_ids:
                return cookie, True
        return "", False

    def mint(self, client: str) -> str:
        """A new id for a request from ``client`` ("" past this address's share of new ids this minute)."""
        now = time.monotonic()
        if len(self._minted) >= self.MAX_ADDRESSES:
            self._minted = {a: t for a, t in self._minted.items() if t and now - t[-1] < 60}
            if len(self._minted) >= self.MAX_ADDRESSES:  # a flood from as many addresses: none more this minute
                return ""
        times = [t for t in self._minted.get(client, []) if now - t < 60]
        if len(times) >= self.NEW_PER_MINUTE:
            self._minted[client] = times
            return ""
        self._minted[client] = [*times, now]
        return secrets.token_hex(16)


class Guard:
    """ASGI middleware, before anything else: refuses a ``Host`` the server does not answer to (403) and a
    request that changes something from a foreign page (403); checks the token when the server has one; and
    gives each browser its id (in ``request.state.browser``). Plain ASGI rather than ``@app.middleware``: it
    costs every request microseconds, not a task and a wrapped response."""

    def __init__(self, app: ASGIApp, token: str | None, hosts: Hosts | None = None, secret: bytes | None = None,
                 browsers: Browsers | None = None):
        self.app = app
        self.browsers = browsers or Browsers()
        self.token = token
        self.hosts = hosts or Hosts()
        # the cookie's proof changes with each start of the server (``serve --workers N`` shares one: COOKIE_ENV)
        self.secret = secret or secrets.token_bytes(32)
        self.failures = Failures()

    def _token_of(self, request: Request, cookie: str) -> tuple[str | None, bool]:
        """The token the request offers, and whether it came as the cookie (which holds a value derived from it)."""
        header = request.headers.get("authorization", "")
        scheme, _, value = header.partition(" ")
        if scheme.lower() in ("token", "bearer") and value:
            return value.strip(), False
        if request.query_params.get("token"):
            return request.query_params["token"], False
        return request.cookies.get(cookie), True

    def _valid(self, supplied: str | None, as_cookie: bool, proof: str) -> bool:
        if not supplied:
            return False
        expected = proof if as_cookie else str(self.token)
        return secrets.compare_digest(supplied.encode("utf-8", "replace"), expected.encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        if not self.hosts.allows(request.headers.get("host", "")):
            await _forbidden(f"this server does not answer to the name {host_only(request.headers.get('host', ''))!r} "
                             "(start it with --allow-host NAME to use that name)")(scope, receive, send)
            return
        changes = request.method not in ("GET", "HEAD", "OPTIONS")
        foreign = request.headers.get("sec-fetch-site") in ("cross-site", "same-site")
        if (changes and not same_origin(request)) or (foreign and request.url.path.startswith("/api")):
            await _forbidden("a request from another site's page is refused")(scope, receive, send)
            return
        cookies: list[str] = []  # Set-Cookie headers to add to the response
        if self.token is not None and request.url.path not in PUBLIC_PATHS:
            name = token_cookie(scope)
            supplied, as_cookie = self._token_of(request, name)
            proof = cookie_value(self.token, self.secret, server_port(scope))
            client = (scope.get("client") or ("?", 0))[0]
            wait = self.failures.locked(client) if supplied is not None and not as_cookie else 0.0
            if wait:  # a guess, while guesses are not checked
                await _locked_out(wait)(scope, receive, send)
                return
            if not self._valid(supplied, as_cookie, proof):
                if supplied is not None:
                    await self.failures.failed(client)
                response = _refused(request, supplied is not None)
                response.headers.update(dict(_SECURITY))
                await response(scope, receive, send)
                return
            if request.cookies.get(name) != proof:  # proved it holds the token: the browser keeps proof
                cookies.append(_cookie(name, proof))
            opened = request.method == "GET" and not request.url.path.startswith("/api")
            if opened and request.query_params.get("token"):
                # the address with the token was opened: keep proof of it in a cookie and show a clean address
                # (always a path on this server: '//evil.example/' would name another site)
                clean = request.url.remove_query_params("token")
                location = "/" + clean.path.lstrip("/\\") + (f"?{clean.query}" if clean.query else "")
                response = RedirectResponse(location, status_code=303, headers=dict(_SECURITY))
                response.raw_headers.extend((b"set-cookie", c.encode("latin-1")) for c in cookies)
                await response(scope, receive, send)
                return
        browser, renew = self.browsers.id_of(request.cookies.get(BROWSER_COOKIE, ""))
        path = request.url.path
        if not browser and (path == "/" or path.startswith("/api/")):  # the page (its files need none) or the API
            browser = self.browsers.mint((scope.get("client") or ("?", 0))[0])
            renew = bool(browser)
        if renew:
            cookies.append(_cookie(BROWSER_COOKIE, self.browsers.sign(browser)))
        scope.setdefault("state", {})["browser"] = browser
        extra = [*SECURITY_HEADERS, *((b"set-cookie", c.encode("latin-1")) for c in cookies)]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        REQUESTER.set((scope.get("client") or ("", 0))[0])  # whose request starts a build (its lane's share)
        await self.app(scope, receive, send_with_headers)


def server_port(scope: Scope) -> int:
    server = scope.get("server") or (None, None)
    return int(server[1] or 0)


def token_cookie(scope: Scope) -> str:
    """The token cookie's name, one per port: two servers on one machine keep their own (a browser sends a
    host's cookies to each of its ports)."""
    return f"{TOKEN_COOKIE}-{server_port(scope)}"


def cookie_value(token: str, secret: bytes, port: int) -> str:
    """What the cookie holds: proof of the token, not the token (a cookie read elsewhere does not give it away),
    for this start of the server (``secret``) and this port only (a browser sends a host's cookies to all of its
    ports: another server there cannot replay it)."""
    return hmac.new(token.encode(), b"dicesolver web cookie|%d|" % port + secret, hashlib.sha256).hexdigest()


class Failures:
    """Wrong tokens, by client address and from all of them. After ``FREE`` a minute from one address each
    answer comes slower (doubling, at most ``MAX_DELAY`` s); after ``LOCKOUT`` a minute from one address, or
    ``GLOBAL_LOCKOUT`` from all, a token offered in the address or a header is not even checked until the minute
    is over (429): guessing stops, while a browser that holds the token's cookie goes on. Lines on stderr say
    how many came: at most one a minute for each address and ``MAX_LINES`` a minute in all."""

    FREE, LOCKOUT, GLOBAL_LOCKOUT, MAX_DELAY, WINDOW, MAX_LINES = 5, 30, 600, 2.0, 60.0, 10
    MAX_ADDRESSES = 10_000

    def __init__(self) -> None:
        self.recent: dict[str, list[float]] = {}  # address -> [failures in this window, window start, last told]
        self.everyone = [0, 0.0]  # failures from all addresses in this window, its start
        self.lines = [0, 0.0]  # lines written in this window, its start

    def _window(self, counter: list, now: float) -> list:
        if now - counter[1] > self.WINDOW:
            counter[0], counter[1] = 0, now
        return counter

    def locked(self, client: str) -> float:
        """The seconds until guesses from ``client`` are checked again (0: they are checked now)."""
        now = time.monotonic()
        count, since, _ = self.recent.get(client, (0, now, 0.0))
        left = [self.WINDOW - (now - since) if count >= self.LOCKOUT and now - since <= self.WINDOW else 0.0]
        everyone = self._window(self.everyone, now)
        if everyone[0] >= self.GLOBAL_LOCKOUT:
            left.append(self.WINDOW - (now - everyone[1]))
        return max(0.0, *left)

    def _say(self, text: str, now: float) -> None:
        lines = self._window(self.lines, now)
        lines[0] += 1
        if lines[0] <= self.MAX_LINES:
            print(text if lines[0] < self.MAX_LINES else f"{text}; no more lines about wrong tokens this minute",
                  file=sys.stderr, flush=True)

    async def failed(self, client: str) -> None:
        now = time.monotonic()
        if len(self.recent) >= self.MAX_ADDRESSES:  # many addresses: forget the quiet ones, else the oldest half
            self.recent = {k: v for k, v in self.recent.items() if now - v[1] < self.WINDOW}
            if len(self.recent) >= self.MAX_ADDRESSES:
                self.recent = dict(sorted(self.recent.items(), key=lambda kv: kv[1][1])[len(self.recent) // 2:])
        count, since, told = self.recent.get(client, [0, now, 0.0])
        if now - since > self.WINDOW:
            count, since = 0, now
        count += 1
        self._window(self.everyone, now)[0] += 1
        if now - told >= self.WINDOW:
            self._say(f"dicesolver: a wrong token from {client} ({count:.0f} in the last minute)", now)
            told = now
        self.recent[client] = [count, since, told]
        if count > self.FREE:  # the exponent stops growing with the delay: no overflow however many come
            await self.pause(min(self.MAX_DELAY, 0.05 * 2.0 ** min(count - self.FREE, 16)))

    async def pause(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


def _locked_out(seconds: float) -> Response:
    return JSONResponse({"detail": "too many wrong tokens: tokens are not checked for a while; try again in "
                                   f"{math.ceil(seconds)} s (a browser that opened the server's address goes on)"},
                        status_code=429, headers={**dict(_SECURITY), "Retry-After": str(math.ceil(seconds))})


def _forbidden(reason: str) -> Response:
    return JSONResponse({"detail": reason}, status_code=403, headers=dict(_SECURITY))


_SECURITY = (
    # the page's own scripts only (style attributes draw the bars), never inside another site's frame
    ("content-security-policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                                "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),  # an address with ?token= never leaves in a Referer
    ("cross-origin-resource-policy", "same-origin"),  # another site's <img> or <script> gets nothing
)
SECURITY_HEADERS = tuple((k.encode(), v.encode()) for k, v in _SECURITY)


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

    @staticmethod
    def all_owners(folder: Path) -> set[str]:
        """Every browser id that owns a game in ``folder``."""
        owners = set()
        for file in folder.glob(f"*{OWNER_SUFFIX}"):
            try:
                owners.add(file.read_text(encoding="utf-8").strip())
            except OSError:
                pass
        return owners
