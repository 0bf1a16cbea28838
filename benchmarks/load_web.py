"""Load test of the web app (issue 8): 32 concurrent clients asking for advice.

Starts ``dicesolver serve`` on 127.0.0.1 (a free port) with the tables cached, then 32 clients each send
``--requests`` advice requests back to back (no think time) for positions drawn from a fixed list of
real yacht, skunk and despirala positions. Bounded: at most ``--seconds`` in all. Prints the latency
percentiles, the throughput and the error count as Markdown for BENCHMARKS.md.

With ``--workers N`` the server runs N processes (``serve --workers N``); every process is warmed up first.

Usage: ``python benchmarks/load_web.py [--clients 32] [--requests 50] [--seconds 120] [--workers 1]``
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import socket
import subprocess
import sys
import threading
import time

import httpx2
import numpy as np


def positions(n: int, seed: int = 1) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        kind = rng.random()
        if kind < 0.6:
            dice = "".join(sorted(str(rng.randint(1, 6)) for _ in range(5)))
            filled = rng.sample(["ones", "twos", "threes", "fours", "fives", "sixes"], rng.randint(0, 4))
            card = ",".join(f"{name}={0}" for name in filled)
            out.append({"game": "yacht", "position": f"{card}/{dice}/{rng.randint(0, 2)}"})
        elif kind < 0.8:
            mine = rng.randint(0, 99)  # a game still going: the turn total has not reached the goal
            out.append({"game": "skunk", "position": f"{mine},{rng.randint(0, 99)},{rng.randint(0, min(40, 99 - mine))}"})
        else:
            dice = "".join(sorted(str(rng.randint(1, 6)) for _ in range(6)))
            used = rng.sample(["Collect 1", "Collect 2", "Straight", "Kamerun", "General", "Three pairs"], rng.randint(0, 5))
            goods = rng.randint(0, 5 * (len(used) + 1))
            out.append({"game": "despirala", "position": f"{','.join(used) or 'none'};{goods};{dice}"})
    return out


def server_cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of the server and every process under it, from /proc (0 where there is none)."""
    from pathlib import Path

    tick = os.sysconf("SC_CLK_TCK")
    total, stack = 0.0, [pid]
    while stack:
        p = stack.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
        for child in Path("/proc").glob("[0-9]*/stat"):
            try:
                if int(child.read_text().rsplit(")", 1)[1].split()[1]) == p:
                    stack.append(int(child.parent.name))
            except (OSError, ValueError, IndexError):
                continue
    return total


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    sys.setswitchinterval(0.0002)  # the client threads hand the GIL on quickly: latency is the server's, not theirs
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "dicesolver", "serve", "--port", str(port),
                               "--workers", str(args.workers)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=os.environ.copy())
    try:
        for _ in range(300):
            try:
                httpx2.get(f"{base}/api/games", timeout=1)
                break
            except httpx2.HTTPError:
                time.sleep(0.1)
        work = positions(256)
        # tables loaded (solved the first time) before measuring, in every process: each request on a new
        # connection, which the kernel hands to any of them
        for body in ({"game": "yacht", "position": "/-/3"}, {"game": "skunk", "position": "0,0,0"},
                     {"game": "despirala", "position": "none;5;123456"}):
            ready = 0
            while ready < 10 * args.workers:
                ready = ready + 1 if httpx2.post(f"{base}/api/advice", json=body, timeout=120).status_code == 200 else 0
                if not ready:
                    time.sleep(0.5)
        latencies: list[float] = []
        errors: list[str] = []
        lock = threading.Lock()
        deadline = time.perf_counter() + args.seconds
        barrier = threading.Barrier(args.clients)

        def client(index: int) -> None:
            rng = random.Random(index)
            mine: list[float] = []
            # one keep-alive connection per client (http.client: the lightest client, so that on a
            # 2-core machine the clients take as little as possible of the CPU the server needs)
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", "/api/games/yacht")  # connected before the clock starts
            connection.getresponse().read()
            barrier.wait()
            for _ in range(args.requests):
                if time.perf_counter() > deadline:
                    break
                body = json.dumps(rng.choice(work))
                start = time.perf_counter()
                try:
                    connection.request("POST", "/api/advice", body, {"Content-Type": "application/json"})
                    response = connection.getresponse()
                    response.read()
                    problem = "" if response.status == 200 else str(response.status)
                except OSError as exc:
                    problem = str(exc)
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                mine.append(time.perf_counter() - start)
                if problem:
                    with lock:
                        errors.append(problem)
            connection.close()
            with lock:
                latencies.extend(mine)

        threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
        cpu_before = server_cpu_seconds(server.pid)
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - start
        cpu = server_cpu_seconds(server.pid) - cpu_before
    finally:
        server.terminate()
        server.wait(10)
    ms = np.array(latencies) * 1000
    print(f"- machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"date {time.strftime('%Y-%m-%d')}")
    print(f"- {args.clients} concurrent clients, {len(ms)} advice requests (yacht 60%, skunk 20%, despirala 20%), "
          f"back to back after one unmeasured request each (connections open), "
          f"{args.workers} server process{'es' if args.workers > 1 else ''}")
    print()
    print("| requests | errors | throughput (req/s) | p50 (ms) | p90 (ms) | p99 (ms) | max (ms) |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    if errors:
        print(f"- errors: {sorted(set(errors))[:5]}")
    print(f"| {len(ms)} | {len(errors)} | {len(ms) / wall:.0f} | {np.percentile(ms, 50):.1f} | {np.percentile(ms, 90):.1f} | "
          f"{np.percentile(ms, 99):.1f} | {ms.max():.1f} |")
    distinct = len({json.dumps(p, sort_keys=True) for p in work})  # each process answers each once, then remembers
    repeats = max(0.0, 1 - args.workers * distinct / max(len(ms), 1))
    print(f"- server CPU: {1000 * cpu / max(len(ms), 1):.3f} ms a request (user + system, every server process; "
          f"at least {100 * repeats:.0f}% of the requests repeat an earlier position: cache hits)")


if __name__ == "__main__":
    main()
