#!/usr/bin/env python3
"""How the SQLite database grows with anonymous demo sign-ups that never complete (see docs/server.md).

    Benchmarks/storage-growth.py [--server PATH] [--calls N] [--rounds R] [--old]

For each of R rounds (default 2): starts `passkeys serve` on 127.0.0.1 with the database of the previous round,
makes N anonymous demo sign-ups (default 3000: `GET /` for the CSRF token and cookie, then `POST /demo/sign-up`
with a new user name, never finished; `expiries.registrationAttempt` 60 and no request limit), stops the server and
counts; then starts it again with its clock two hours
ahead (libfaketime's `faketime`, so the flows have expired and the hour of grace has passed), waits for one
purge (`retention.purgeIntervalSeconds` 10), stops it and counts again. Counts are the file's size (the server
folds the `-wal` file back when it stops), its pages in use (page_count - freelist_count, what `VACUUM` would
leave) and the rows of each table, read with the `sqlite3` command.

--old runs a build from before the purge (its configuration has no `retention`): the same calls, nothing purged.
Every request goes to 127.0.0.1; every step is bounded in time. STORAGE_GROWTH_KEEP=1 keeps the temporary folder
(database and server log). Needs the `sqlite3` and `faketime` commands (apt-get install sqlite3 faketime).
"""

import argparse
import http.cookiejar
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import server_process

API_KEY = "storage-growth-api-key-0123456789"
TABLES = ["users", "flows", "credentials", "audit_events", "limit_windows", "web_sessions", "workflow_runs"]


def start(server, directory, port, config, fake_offset=None):
    command = [server, "serve", "--config", config, "--database", f"sqlite:{directory}/p.sqlite",
               "--api-key", API_KEY, "--port", str(port), "--host", "127.0.0.1"]
    environment = dict(os.environ)
    if fake_offset:
        # Only the wall clock moves: timers (the purge's interval) keep the monotonic clock's pace.
        command = ["faketime", "-f", fake_offset] + command
        environment["FAKETIME_DONT_FAKE_MONOTONIC"] = "1"
    return server_process.start(command, directory, port, "storage-growth", environment)


def sign_ups(port, count, prefix):
    base = f"http://127.0.0.1:{port}"
    failures = 0
    for index in range(count):
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        page = opener.open(base + "/", timeout=10).read().decode()
        token = re.search(r'<meta name="csrf-token" content="([^"]+)"', page).group(1)
        request = urllib.request.Request(
            base + "/demo/sign-up",
            data=json.dumps({"userName": f"{prefix}{index}"}).encode(),
            headers={"Content-Type": "application/json", "X-CSRF-Token": token, "Origin": base},
            method="POST",
        )
        try:
            opener.open(request, timeout=10).read()
        except urllib.error.HTTPError:
            failures += 1
    return failures


def measure(directory):
    database = os.path.join(directory, "p.sqlite")

    def query(sql):
        return subprocess.run(["sqlite3", database, sql], check=True, capture_output=True, text=True).stdout.strip()

    counts = {table: int(query(f"SELECT count(*) FROM {table}")) for table in TABLES}
    pages = int(query("PRAGMA page_count"))
    free = int(query("PRAGMA freelist_count"))
    size = int(query("PRAGMA page_size"))
    wal = os.path.join(directory, "p.sqlite-wal")
    return {
        "file_bytes": os.path.getsize(database) + (os.path.getsize(wal) if os.path.exists(wal) else 0),
        "used_bytes": (pages - free) * size,
        "rows": counts,
    }


def report(label, figures):
    rows = ", ".join(f"{table} {count}" for table, count in figures["rows"].items())
    print(f"{label}: file {figures['file_bytes'] / 1024:.0f} KiB, in use {figures['used_bytes'] / 1024:.0f} KiB; {rows}")
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--server", default=os.path.join(here, "..", ".build", "debug", "passkeys"))
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--old", action="store_true", help="a build without retention settings")
    arguments = parser.parse_args()
    for tool in ["sqlite3", "faketime"]:
        if shutil.which(tool) is None:
            sys.exit(f"storage-growth: needs the {tool} command")

    directory = tempfile.mkdtemp(prefix="storage-growth-")
    settings = {"limits": {"clientRequestsPerMinute": 1_000_000}, "expiries": {"registrationAttempt": 60}}
    if not arguments.old:
        settings["retention"] = {"purgeIntervalSeconds": 10}
    config = os.path.join(directory, "config.json")
    with open(config, "w") as file:
        json.dump(settings, file)
    try:
        for round_number in range(1, arguments.rounds + 1):
            port = server_process.free_port()
            server = start(arguments.server, directory, port, config)
            began = time.time()
            failures = sign_ups(port, arguments.calls, f"visitor-{round_number}-")
            elapsed = time.time() - began
            server_process.stop(server)
            report(f"round {round_number}, after {arguments.calls} sign-ups ({elapsed:.0f} s, {failures} refused)",
                   measure(directory))
            # Two hours later: the attempts expired an hour and more ago.
            server = start(arguments.server, directory, port, config, fake_offset="+2h")
            time.sleep(20)
            server_process.stop(server)
            report(f"round {round_number}, after expiry and a purge", measure(directory))
        with open(os.path.join(directory, "server.log")) as file:
            purges = [line.strip() for line in file if "Purged" in line or "purge" in line]
        print("server log:", *(purges or ["no purge logged"]), sep="\n  ")
    finally:
        if not os.environ.get("STORAGE_GROWTH_KEEP"):
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
