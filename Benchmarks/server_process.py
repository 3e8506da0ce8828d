"""Starting and stopping `passkeys serve` for the Python benchmarks (storage-growth.py, handoff-streams.py)."""

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(command, directory, port, name, environment=None):
    """Runs `command` in a process group of its own (so that stopping reaches a wrapper's child too), its output
    appended to DIRECTORY/server.log, and waits up to 60 s for `/health` on 127.0.0.1:PORT; exits naming `name`
    when the server exits or does not answer."""
    log_path = os.path.join(directory, "server.log")
    with open(log_path, "a") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=environment,
                                   start_new_session=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2).read()
            return process
        except OSError:
            if process.poll() is not None:
                with open(log_path) as file:
                    sys.exit(f"{name}: the server exited:\n" + file.read()[-2000:])
            time.sleep(0.2)
    stop(process)
    sys.exit(f"{name}: the server did not answer within 60 s")


def stop(process):
    """Stops the process group gracefully (the server folds its -wal file back), within 30 s."""
    os.killpg(process.pid, signal.SIGTERM)
    deadline = time.time() + 30
    while time.time() < deadline:
        process.poll()
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
