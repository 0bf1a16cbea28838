"""``dicesolver serve --workers N``: N server processes answering on one listening socket.

The socket is made here, as TCP explicitly, and handed to each process (the kernel gives each new
connection to one of them). uvicorn's own ``workers=`` makes it without naming the protocol, so asyncio
does not turn Nagle's algorithm off on its connections, and every response that leaves in two writes
waits for the client's delayed ACK: 40 ms a request. A process that dies is replaced; Ctrl-C or SIGTERM
stops them all. Each builds its app with ``web.serving.app_from_environment`` (the token from the environment).
"""

from __future__ import annotations

import multiprocessing
import signal
import socket
import sys
import time

RESTART_PAUSE = 0.5  # seconds between checks of the processes (and before a dead one is replaced)


def listening_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host.strip("[]"), port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _worker(sock: socket.socket) -> None:
    import uvicorn  # stops on SIGINT or SIGTERM, after the requests under way

    from .connections import GuardedH11, watch_parent

    watch_parent()  # a killed server takes its workers with it, and its port is free for the next one
    config = uvicorn.Config("dicesolver.web.serving:app_from_environment", factory=True, log_level="warning",
                            http=GuardedH11)
    uvicorn.Server(config).run(sockets=[sock])


def serve_processes(host: str, port: int, workers: int) -> None:
    sock = listening_socket(host, port)
    context = multiprocessing.get_context("spawn")  # a fresh interpreter each: no copied threads or locks

    def start() -> multiprocessing.process.BaseProcess:
        process = context.Process(target=_worker, args=(sock,), name="dicesolver-web")
        process.start()
        return process

    processes = [start() for _ in range(workers)]
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)  # Ctrl-C reaches the processes too: each stops itself, none is replaced
    try:
        while not stopping:
            time.sleep(RESTART_PAUSE)
            for i, process in enumerate(processes):
                if not process.is_alive() and not stopping:
                    print(f"dicesolver: server process {process.pid} ended ({process.exitcode}); starting another",
                          file=sys.stderr)
                    processes[i] = start()
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(10)
        sock.close()
