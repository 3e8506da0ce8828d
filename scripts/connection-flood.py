#!/usr/bin/env python3
"""Idle-connection flood against a local `passkeys serve`, bounded in count and in time.

Starts the server (`--passkeys PATH`) with a file-descriptor limit (`--nofile`, default 1024, as `ulimit -n`),
opens `--connections` TCP connections to it that send nothing, then asks for /health on a new connection until
it answers or `--deadline` seconds pass, checks that the server process is alive, closes everything and stops
the server. Repeats `--runs` times and prints one line per run and a summary. Loopback only.

    scripts/connection-flood.py --passkeys .build/debug/passkeys --runs 30

Exit status 1 when any run lost the server (a crash or signal) or /health never answered.
"""

import argparse
import os
import resource
import signal
import socket
import subprocess
import sys
import time

HOST = "127.0.0.1"
MAX_CONNECTIONS = 5000
MAX_DEADLINE = 120


def free_port():
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def wait_for_health(port, deadline):
    """Seconds until GET /health answered 200 on a new connection, or None within `deadline` seconds."""
    start = time.monotonic()
    while time.monotonic() - start < deadline:
        remaining = max(0.1, deadline - (time.monotonic() - start))
        try:
            with socket.create_connection((HOST, port), timeout=remaining) as connection:
                connection.settimeout(remaining)
                connection.sendall(b"GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                answer = connection.recv(64)
                if answer.startswith(b"HTTP/1.1 200"):
                    return time.monotonic() - start
        except OSError:
            pass
        time.sleep(0.05)
    return None


def start_server(passkeys, port, nofile, log, cores):
    def limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
        if cores:
            resource.setrlimit(resource.RLIMIT_CORE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))

    environment = dict(os.environ)
    if cores:
        # The kernel writes the core file, which needs no descriptor of the process; Swift's backtracer does.
        environment["SWIFT_BACKTRACE"] = "enable=no"
    process = subprocess.Popen(
        [os.path.abspath(passkeys), "serve", "--database", "memory", "--port", str(port), "--host", HOST,
         "--api-key", "flood-test-api-key-0123456789"],
        stdout=log, stderr=subprocess.STDOUT, preexec_fn=limit, env=environment, cwd=cores or None,
    )
    if wait_for_health(port, 20) is None:
        process.kill()
        process.wait()
        raise RuntimeError("the server did not start")
    return process


def run_once(passkeys, connections, nofile, deadline, log, cores):
    port = free_port()
    process = start_server(passkeys, port, nofile, log, cores)
    idle = []
    refused = 0
    try:
        for _ in range(connections):
            try:
                idle.append(socket.create_connection((HOST, port), timeout=2))
            except OSError:
                refused += 1
        health = wait_for_health(port, deadline)
        closed_by_server = 0
        for connection in idle:
            connection.setblocking(False)
            try:
                if connection.recv(1) == b"":
                    closed_by_server += 1
            except BlockingIOError:
                pass
            except OSError:
                closed_by_server += 1
        alive = process.poll() is None
    finally:
        for connection in idle:
            connection.close()
    if alive:
        # The server must still answer once the flood is gone.
        alive = wait_for_health(port, 20) is not None and process.poll() is None
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    # A signal other than our SIGTERM (SIGILL, SIGSEGV, SIGABRT) is a crash, at any point of the run.
    crash = -process.returncode if process.returncode < 0 and process.returncode != -signal.SIGTERM else None
    return {
        "opened": len(idle), "connect_failed": refused, "health_seconds": health,
        "closed_by_server": closed_by_server, "alive": alive and crash is None, "signal": crash,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--passkeys", required=True, help="the passkeys executable")
    parser.add_argument("--connections", type=int, default=1100)
    parser.add_argument("--nofile", type=int, default=1024, help="the server's file-descriptor limit")
    parser.add_argument("--deadline", type=float, default=30, help="seconds /health may take to answer")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--log", default=os.devnull, help="where the server's output goes")
    parser.add_argument("--cores", help="run the server in this folder with core dumps on, to debug a crash")
    arguments = parser.parse_args()
    connections = min(arguments.connections, MAX_CONNECTIONS)
    deadline = min(arguments.deadline, MAX_DEADLINE)
    # This process holds the idle connections too.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, connections + 256)), hard))

    failures = 0
    with open(arguments.log, "ab") as log:
        for run in range(1, min(arguments.runs, 500) + 1):
            result = run_once(arguments.passkeys, connections, arguments.nofile, deadline, log, arguments.cores)
            failed = not result["alive"] or result["health_seconds"] is None
            failures += failed
            health = "never" if result["health_seconds"] is None else f"{result['health_seconds']:.1f}s"
            print(
                f"run {run}: opened {result['opened']} (failed {result['connect_failed']}), /health {health}, "
                f"closed by server {result['closed_by_server']}, alive {result['alive']}, "
                f"signal {result['signal']}",
                flush=True,
            )
    print(f"{min(arguments.runs, 500) - failures} of {min(arguments.runs, 500)} runs: server alive and /health answered")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
