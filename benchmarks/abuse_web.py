"""Each attack on the web server of issue 52, run for a bounded time against 127.0.0.1 while a victim client
asks for a game's facts and measures its latency.

Starts ``dicesolver serve`` (a free port, an empty cache, a token given through $DICESOLVER_TOKEN), warms
it, then for each attack in turn: ``--clients`` attacking threads for ``--seconds`` from 127.0.0.2 (as
another machine on the network), the victim asking ``GET /api/games/yacht`` back to back on new connections
from 127.0.0.1. Prints, per attack, what the attackers got (status
counts), the victim's p50/p99/max latency and its failures, the server's RSS before and after, and the
cache's size after, as Markdown for BENCHMARKS.md.

Then 60 clients poll a table being built while the victim asks for the list of games.

Usage: ``python benchmarks/abuse_web.py [--seconds 10] [--clients 8] [--only KEY...]``
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import platform
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable

import numpy as np

TOKEN = "abuse-benchmark-token-2026"
AUTH = f"Authorization: token {TOKEN}\r\n"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


ATTACKER = ("127.0.0.2", 0)  # the attackers come from another address (as another machine on the network would)


def connect(port: int, timeout: float, source: tuple[str, int] | None = ATTACKER) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=source)


def request(port: int, raw: bytes, timeout: float = 10.0, source: tuple[str, int] | None = ATTACKER) -> int:
    """Sends one raw request on a new connection; its status (0: no answer, closed, or timed out)."""
    try:
        with connect(port, timeout, source) as conn:
            conn.sendall(raw)
            reply = conn.recv(64)
        return int(reply.split()[1]) if reply.startswith(b"HTTP/1.1 ") else 0
    except (OSError, ValueError, IndexError):
        return 0


def get(path: str, headers: str = AUTH, host: str = "127.0.0.1") -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{headers}Connection: close\r\n\r\n".encode()


def post(path: str, body: str, headers: str = AUTH, host: str = "127.0.0.1") -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: {host}\r\n{headers}Content-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n{body}").encode()


# -- the attacks: each a function of (port, attacker number, round) -> status --------------------------------

def foreign_host(port: int, i: int, k: int) -> int:
    return request(port, post("/api/advice", '{"game": "crag", "position": "0,0,0"}',
                              AUTH + "Origin: http://evil.example\r\n", host="evil.example"))


def foreign_origin(port: int, i: int, k: int) -> int:
    return request(port, post("/api/play", '{"game": "yacht", "opponents": ["optimal"]}',
                              AUTH + "Origin: http://evil.example\r\nSec-Fetch-Site: cross-site\r\n"))


def chart_gets(port: int, i: int, k: int) -> int:
    goal = 100 + (i * 1000 + k) % 100
    return request(port, get(f"/api/explore/chart.png?game=pig(goal={goal},faces=7)"))


def game_flood(port: int, i: int, k: int) -> int:
    cookie = "Cookie: dicesolver-browser=" + "ab" * 16 + "\r\n"
    return request(port, post("/api/play", '{"game": "pig", "opponents": ["hold-at-20"]}', AUTH + cookie))


def cookieless_pig_games(port: int, i: int, k: int) -> int:
    """A new client each time (no cookie): a Pig game against the optimal bot, the game that kept 26 MB."""
    return request(port, post("/api/play", '{"game": "pig", "opponents": ["optimal"]}'))


def unknown_ids(port: int, i: int, k: int) -> int:
    return request(port, get(f"/api/play/{(i << 32) + k:016x}"))


def wrong_tokens(port: int, i: int, k: int) -> int:
    return request(port, get("/api/games", f"Authorization: token guess-{i}-{k}\r\n"))


def chunked_body(port: int, i: int, k: int) -> int:
    """A body that never ends: chunks of 64 KiB until the server answers or 64 MiB went."""
    try:
        with connect(port, 10) as conn:
            conn.sendall(f"POST /api/advice HTTP/1.1\r\nHost: 127.0.0.1\r\n{AUTH}Content-Type: application/json\r\n"
                         "Transfer-Encoding: chunked\r\n\r\n".encode())
            chunk = b"10000\r\n" + b" " * 65536 + b"\r\n"
            conn.settimeout(0.005)
            for _ in range(1024):
                try:
                    conn.sendall(chunk)
                    reply = conn.recv(64)
                    return int(reply.split()[1]) if reply else 0
                except TimeoutError:
                    continue
            return 0
    except (OSError, ValueError, IndexError):
        return 0


SLOW: list[socket.socket] = []


def slow_headers(port: int, i: int, k: int) -> int:
    """Opens connections that send half a request and then nothing (each held until the server drops it)."""
    try:
        conn = connect(port, 5)
        conn.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        SLOW.append(conn)
        time.sleep(0.01)
        return 1
    except OSError:
        return 0


def held_body(port: int, length: int, pause: float, source: tuple[str, int] | None = ATTACKER) -> int:
    """Opens a connection with a request's whole headers and the first byte of a ``length``-byte body, and
    holds it (in SLOW): 1, or 0 where the server would not take it."""
    try:
        conn = connect(port, 5, source=source)
        conn.sendall(f"POST /api/advice HTTP/1.1\r\nHost: 127.0.0.1\r\n{AUTH}Content-Type: application/json\r\n"
                     f"Content-Length: {length}\r\n\r\n{{".encode())
        SLOW.append(conn)
        time.sleep(pause)
        return 1
    except OSError:
        return 0


def slow_bodies(port: int, i: int, k: int) -> int:
    """Opens connections whose request's body never comes (each held until the server answers 408)."""
    return held_body(port, 1000, 0.01)


ADDRESSES = 1100  # as many machines as the issue's slow-body attack came from


def many(n: int) -> tuple[str, int]:
    """The nth of ADDRESSES loopback addresses (never the victim's 127.0.0.1 nor the attackers' 127.0.0.2)."""
    n %= ADDRESSES
    return (f"127.0.{1 + n // 250}.{1 + n % 250}", 0)


def trickled_bodies(port: int, i: int, k: int) -> int:
    """From 1,100 addresses: whole headers, then a body byte every 2 s (``trickle``) that never ends; as many
    held as there are addresses, one opened again for each the server closes."""
    if len(SLOW) >= ADDRESSES:
        time.sleep(0.05)
        return 1
    return held_body(port, 100_000, 0.005, source=many(i * 137 + k))


def trickle(stop: threading.Event) -> None:
    while not stop.wait(2.0):
        for conn in list(SLOW):
            try:
                conn.sendall(b" ")
            except OSError:  # closed by the server: the attackers open another
                SLOW.remove(conn)
                conn.close()


ATTACKS: dict[str, tuple[str, Callable[[int, int, int], int]]] = {
    "foreign Host (DNS rebinding) POSTing a two-person solve": ("foreign-host", foreign_host),
    "foreign Origin POSTing a game": ("foreign-origin", foreign_origin),
    "chart GETs for unsolved variants": ("chart-gets", chart_gets),
    "one browser starting games": ("game-flood", game_flood),
    "cookie-less clients starting Pig games against the optimal bot": ("cookieless-pig", cookieless_pig_games),
    "GETs of unknown game ids": ("unknown-ids", unknown_ids),
    "endless chunked bodies": ("chunked", chunked_body),
    "headers a byte short, held open": ("slow-headers", slow_headers),
    "bodies that never come, held open": ("slow-bodies", slow_bodies),
    f"bodies trickled a byte every 2 s from {ADDRESSES:,} addresses": ("trickled-bodies", trickled_bodies),
    # last: past its lockout, the attackers' address has its tokens unchecked (429) for the rest of the minute
    "wrong tokens": ("wrong-tokens", wrong_tokens),
}


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def folder_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 2**20 if folder.exists() else 0.0


def run_attack(port: int, attack: Callable[[int, int, int], int], clients: int, seconds: float):
    stop = threading.Event()
    statuses: collections.Counter = collections.Counter()
    latencies: list[float] = []
    victim_failures = collections.Counter()

    def attacker(i: int) -> None:
        k = 0
        while not stop.is_set():
            statuses[attack(port, i, k)] += 1
            k += 1

    def victim() -> None:
        while not stop.is_set():
            start = time.perf_counter()
            status = request(port, get("/api/games/yacht"), timeout=30, source=None)
            latencies.append(time.perf_counter() - start)
            if status != 200:
                victim_failures[status] += 1
            time.sleep(0.02)

    threads = [threading.Thread(target=attacker, args=(i,), daemon=True) for i in range(clients)]
    threads.append(threading.Thread(target=victim, daemon=True))
    threads.append(threading.Thread(target=trickle, args=(stop,), daemon=True))
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join(40)
    for conn in SLOW:
        conn.close()
    SLOW.clear()
    return statuses, np.array(latencies) * 1000, victim_failures


BUILD = '{"game": "yahtzee", "position": "/13456/2", "goal": "field:10"}'  # a table of minutes, not cached


def victim_median(port: int, seconds: float) -> float:
    """The victim's median latency (ms) over ``seconds`` of GET /api/games on new connections."""
    latencies = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.perf_counter()
        request(port, get("/api/games"), timeout=30, source=None)
        latencies.append(time.perf_counter() - start)
        time.sleep(0.02)
    return float(np.median(latencies) * 1000)


def answer(port: int, raw: bytes, source: tuple[str, int] | None) -> tuple[int, dict]:
    """One request on a new connection: its status and its JSON body ({} if none)."""
    with connect(port, 30, source) as conn:
        conn.sendall(raw)
        reply = b""
        while chunk := conn.recv(65536):
            reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    try:
        return int(head.split()[1]), json.loads(body or b"{}")
    except (ValueError, IndexError):
        return 0, {}


def pollers_of_a_build(port: int, seconds: float, pollers: int = 60) -> None:
    """The victim's median GET /api/games alone, beside a table being built, and beside ``pollers`` clients
    (each from an address of its own) waiting for that table as the page does: the advice asked for, then
    its job's progress every 0.4 s (issue 77: 7, 22 and 859 ms before; target: the last within 2x of the
    second)."""
    alone = victim_median(port, seconds)
    started, _ = answer(port, post("/api/advice", BUILD), None)
    building = victim_median(port, seconds)
    stop = threading.Event()
    statuses: collections.Counter = collections.Counter()

    def poll(i: int) -> None:
        status, pending = answer(port, post("/api/advice", BUILD), many(500 + i))
        statuses[status] += 1
        job = pending.get("job", {})
        while not stop.wait(0.4) and job.get("id"):
            statuses[answer(port, get(f"/api/jobs/{job['id']}"), many(500 + i))[0]] += 1

    threads = [threading.Thread(target=poll, args=(i,), daemon=True) for i in range(pollers)]
    for t in threads:
        t.start()
    time.sleep(1.0)
    polled = victim_median(port, seconds)
    stop.set()
    for t in threads:
        t.join(40)
    got = ", ".join(f"{s}: {n:,}" for s, n in sorted(statuses.items()))
    print(f"\n{pollers} clients waiting for a table being built as the page does (`POST /api/advice {BUILD}`, "
          f"then `GET /api/jobs/ID` every 0.4 s; the first request answered {started}, the clients got {got}):\n")
    print("| victim's `GET /api/games` | median (ms) |\n|---|---:|")
    print(f"| alone | {alone:.1f} |\n| beside the build | {building:.1f} |\n| beside the build and "
          f"{pollers} clients waiting | {polled:.1f} ({polled / building:.2f}x the build alone) |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--only", nargs="+", choices=[key for key, _ in ATTACKS.values()] + ["pollers"],
                        help="run these attacks alone (default: every one, then the pollers of a build)")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "DICESOLVER_CACHE_DIR": cache, "DICESOLVER_TOKEN": TOKEN}
        server = subprocess.Popen([sys.executable, "-m", "dicesolver", "serve", "--port", str(port)], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            for _ in range(300):
                if request(port, get("/api/games/yacht")) == 200:
                    break
                time.sleep(0.1)
            else:
                raise SystemExit("the server did not start")
            for _ in range(50):  # warm: the victim's answer and the first requests of each kind
                request(port, get("/api/games/yacht"))
            print(f"### The web server under attack ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, "
                  f"{platform.python_version()}; {args.clients} attackers for {args.seconds:.0f} s each, a victim "
                  "asking `GET /api/games/yacht` on new connections)\n")
            print("| attack | attackers got | victim p50 (ms) | victim p99 (ms) | victim max (ms) | victim failures "
                  "| server RSS before -> after (MB) | cache after (MB) |")
            print("|---|---|---:|---:|---:|---:|---:|---:|")
            for title, (key, attack) in ATTACKS.items():
                if args.only and key not in args.only:
                    continue
                before = rss_mb(server.pid)
                statuses, ms, failures = run_attack(port, attack, args.clients, args.seconds)
                got = ", ".join(f"{'closed' if s == 0 else ('held' if s == 1 else s)}: {n:,}"
                                for s, n in sorted(statuses.items()))
                bad = ", ".join(f"{s or 'none'} x{n}" for s, n in failures.items()) or "0"
                print(f"| {title} | {got} | {np.percentile(ms, 50):.1f} | {np.percentile(ms, 99):.1f} | "
                      f"{ms.max():.1f} | {bad} | {before:.0f} -> {rss_mb(server.pid):.0f} | "
                      f"{folder_mb(Path(cache)):.1f} |", flush=True)
                time.sleep(1.5)  # the connections of one attack closed before the next
            if not args.only or "pollers" in args.only:
                pollers_of_a_build(port, args.seconds)
        finally:
            server.terminate()
            _, err = server.communicate(timeout=30)
    lines = [line for line in err.splitlines() if line.strip()]
    print(f"\nThe server's stderr over the whole run: {len(lines)} lines, {sum(map(len, lines)):,} bytes; "
          f"tracebacks: {sum('Traceback' in line for line in lines)}; "
          f"'Too many open files': {sum('Too many open files' in line for line in lines)}.")
    for line in lines[:12]:
        print(f"    {line[:160]}")


if __name__ == "__main__":
    main()
