"""Each attack on the web server of issue 52, run for a bounded time against 127.0.0.1 while a victim client
asks for a game's facts and measures its latency.

Starts ``dicesolver serve`` (a free port, an empty cache, a token given through $DICESOLVER_TOKEN), warms
it, then for each attack in turn: ``--clients`` attacking threads for ``--seconds`` from 127.0.0.2 (as
another machine on the network), the victim asking ``GET /api/games/yacht`` back to back on new connections
from 127.0.0.1. Prints, per attack, what the attackers got (status
counts), the victim's p50/p99/max latency and its failures, the server's RSS before and after, and the
cache's size after, as Markdown for BENCHMARKS.md.

Usage: ``python benchmarks/abuse_web.py [--seconds 10] [--clients 8]``
"""

from __future__ import annotations

import argparse
import collections
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


def slow_bodies(port: int, i: int, k: int) -> int:
    """Opens connections whose request's body never comes (each held until the server answers 408)."""
    try:
        conn = connect(port, 5)
        conn.sendall(f"POST /api/advice HTTP/1.1\r\nHost: 127.0.0.1\r\n{AUTH}Content-Type: application/json\r\n"
                     "Content-Length: 1000\r\n\r\n{".encode())
        SLOW.append(conn)
        time.sleep(0.01)
        return 1
    except OSError:
        return 0


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=8)
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
            for title, (_, attack) in ATTACKS.items():
                before = rss_mb(server.pid)
                statuses, ms, failures = run_attack(port, attack, args.clients, args.seconds)
                got = ", ".join(f"{'closed' if s == 0 else ('held' if s == 1 else s)}: {n:,}"
                                for s, n in sorted(statuses.items()))
                bad = ", ".join(f"{s or 'none'} x{n}" for s, n in failures.items()) or "0"
                print(f"| {title} | {got} | {np.percentile(ms, 50):.1f} | {np.percentile(ms, 99):.1f} | "
                      f"{ms.max():.1f} | {bad} | {before:.0f} -> {rss_mb(server.pid):.0f} | "
                      f"{folder_mb(Path(cache)):.1f} |", flush=True)
                time.sleep(1.5)  # the connections of one attack closed before the next
        finally:
            server.terminate()
            _, err = server.communicate(timeout=30)
    lines = [line for line in err.splitlines() if line.strip()]
    print(f"\nThe server's stderr over the whole run: {len(lines)} lines, {sum(map(len, lines)):,} bytes; "
          f"tracebacks: {sum('Traceback' in line for line in lines)}.")
    for line in lines[:12]:
        print(f"    {line[:160]}")


if __name__ == "__main__":
    main()
