#!/usr/bin/env python3
"""What open handoff status streams cost a server that is otherwise idle (see docs/benchmarks.md).

    Benchmarks/handoff-streams.py --server PATH [--server PATH …] [--streams N] [--seconds S] [--rounds R]

For each round and each server (alternating, R rounds, default 2): starts `passkeys serve` on 127.0.0.1 with a new
SQLite database, creates N handoffs (default 1000: `POST /v1/authentications` with no user, then
`POST /v1/authentications/{id}/handoff`), opens one `…/events` stream for each on a connection of its own, reads
each stream's first event, waits 5 s, then reads the server's CPU time (user + system, from /proc) over S seconds
(default 20) while nothing else happens. Prints, per run, the server's CPU in milliseconds per second (a core is
1,000) and per stream; and that with no stream open, measured the same way before the handoffs are created.
Every step is bounded in time; the streams' connections are drained while the CPU is counted (heartbeats arrive
every 15 s). HANDOFF_STREAMS_KEEP=1 keeps the temporary folder (database and server log).
"""

import argparse
import json
import os
import resource
import selectors
import shutil
import socket
import sys
import tempfile
import time
import urllib.request

import server_process

API_KEY = "handoff-streams-api-key-0123456789"
TICKS = os.sysconf("SC_CLK_TCK")


def start(server, directory, port, streams):
    settings = {
        "webOrigins": [f"http://localhost:{port}"],
        "limits": {
            "clientRequestsPerMinute": 1_000_000,
            "maxEventStreams": streams,
            "maxEventStreamsPerHandoff": 1,
            "maxEventStreamsPerClient": streams,
            "maxConnections": streams + 100,
        },
    }
    config = os.path.join(directory, "config.json")
    with open(config, "w") as file:
        json.dump(settings, file)
    command = [server, "serve", "--config", config, "--database", f"sqlite:{directory}/p.sqlite",
               "--api-key", API_KEY, "--port", str(port), "--host", "127.0.0.1", "--log-level", "warning"]
    return server_process.start(command, directory, port, "handoff-streams")


def post(port, path, body):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), method="POST",
        headers={"Authorization": f"Bearer {API_KEY}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def open_stream(port, handoff):
    connection = socket.create_connection(("127.0.0.1", port), timeout=30)
    connection.sendall(
        (f"GET /v1/client/cross-platform/{handoff['crossPlatformSessionId']}/events HTTP/1.1\r\n"
         f"Host: 127.0.0.1\r\nAuthorization: Bearer {handoff['pollToken']}\r\nAccept: text/event-stream\r\n\r\n")
        .encode())
    received = b""
    while b"event: status" not in received:
        chunk = connection.recv(4096)
        if not chunk:
            sys.exit(f"handoff-streams: a stream closed before its first event: {received[:300]!r}")
        received += chunk
    if not received.startswith(b"HTTP/1.1 200"):
        sys.exit(f"handoff-streams: a stream was refused: {received[:300]!r}")
    return connection


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def measure(pid, connections, seconds):
    """The server's CPU in ms per second over `seconds`, draining the streams meanwhile."""
    with selectors.DefaultSelector() as selector:
        for connection in connections:
            selector.register(connection, selectors.EVENT_READ)
        before, started = cpu_seconds(pid), time.monotonic()
        while (left := started + seconds - time.monotonic()) > 0:
            if not connections:
                time.sleep(min(left, 1))
                continue
            for key, _ in selector.select(min(left, 1)):
                key.fileobj.recv(65536)
        return (cpu_seconds(pid) - before) / (time.monotonic() - started) * 1000


def run(server, streams, seconds):
    directory = tempfile.mkdtemp(prefix="handoff-streams-")
    port = server_process.free_port()
    process = start(server, directory, port, streams)
    connections = []
    try:
        time.sleep(5)
        idle = measure(process.pid, [], seconds)
        for _ in range(streams):
            session = post(port, "/v1/authentications", {})
            handoff = post(port, f"/v1/authentications/{session['biometricPasskeySessionId']}/handoff", {})
            connections.append(open_stream(port, handoff))
        time.sleep(5)
        busy = measure(process.pid, connections, seconds)
        return idle, busy
    finally:
        for connection in connections:
            connection.close()
        server_process.stop(process)
        if os.environ.get("HANDOFF_STREAMS_KEEP") == "1":
            print(f"kept {directory}", file=sys.stderr)
        else:
            shutil.rmtree(directory, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server", action="append", required=True, help="a `passkeys` binary (repeat to compare)")
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--rounds", type=int, default=2)
    arguments = parser.parse_args()
    # A descriptor for each stream here, and in the server (which inherits the limit).
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print("| round | server | streams | CPU ms/s, no stream | CPU ms/s, streams open | per stream, µs/s |")
    print("|---|---|---|---|---|---|")
    for round in range(1, arguments.rounds + 1):
        for server in arguments.server:
            idle, busy = run(server, arguments.streams, arguments.seconds)
            per_stream = (busy - idle) / arguments.streams * 1000
            print(f"| {round} | {server} | {arguments.streams} | {idle:.1f} | {busy:.1f} | {per_stream:.1f} |",
                  flush=True)


if __name__ == "__main__":
    main()
