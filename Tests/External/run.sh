#!/usr/bin/env bash
# Runs the external-client tests: a WebAuthn client that no one on this project wrote (soft-webauthn, see
# webauthn_client.py) drives a live `passkeys serve` through registration and sign-in.
#
# Usage: Tests/External/run.sh [PASSKEYS_BINARY [PYTEST_ARGS...]]
#   PASSKEYS_BINARY defaults to .build/debug/passkeys; this script builds nothing.
#
# It makes a virtual environment at .build/external-venv (once, and again when requirements.txt changes),
# starts the server on a free port (18080 if free) with a fresh SQLite file in a temporary folder and a
# generated API key, waits for /health, runs pytest -q, always stops the server, and exits with pytest's
# status. Environment: PYTHON (default python3) makes the environment; PASSKEYS_EXTERNAL_STARTUP_SECONDS
# (default 60) bounds the wait for the server.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="$root/.build/external-venv"
requirements="$here/requirements.txt"
startup_seconds="${PASSKEYS_EXTERNAL_STARTUP_SECONDS:-60}"

binary="${1:-.build/debug/passkeys}"
[ $# -gt 0 ] && shift
if [ ! -x "$binary" ] && [ -x "$root/$binary" ]; then binary="$root/$binary"; fi
if [ ! -x "$binary" ]; then
    echo "external tests: no passkeys binary at '$binary'; build it first (swift build --product passkeys)." >&2
    exit 2
fi
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"

# --- Python environment -------------------------------------------------------------------------------
if [ ! -x "$venv/bin/python" ]; then
    echo "external tests: creating the Python environment in .build/external-venv"
    mkdir -p "$root/.build"
    "${PYTHON:-python3}" -m venv "$venv" || {
        echo "external tests: '${PYTHON:-python3} -m venv' failed (on Debian: apt-get install python3-venv)." >&2
        exit 2
    }
fi
if ! cmp -s "$requirements" "$venv/.installed-requirements.txt"; then
    echo "external tests: installing Tests/External/requirements.txt"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$requirements"
    cp "$requirements" "$venv/.installed-requirements.txt"
fi
python="$venv/bin/python"

# --- Server -------------------------------------------------------------------------------------------
workdir="$(mktemp -d "${TMPDIR:-/tmp}/passkeys-external.XXXXXX")"
server_pid=""

stop_server() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        for _ in $(seq 1 50); do
            kill -0 "$server_pid" 2>/dev/null || break
            sleep 0.2
        done
        if kill -0 "$server_pid" 2>/dev/null; then
            echo "external tests: the server did not stop within 10 s of SIGTERM; killing it." >&2
            kill -KILL "$server_pid" 2>/dev/null || true
        fi
        wait "$server_pid" 2>/dev/null || true
    fi
    server_pid=""
}
cleanup() {
    stop_server
    rm -rf "$workdir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

server_log_tail() {
    echo "---- last lines of the server's output ----" >&2
    tail -n "${1:-40}" "$workdir/server.log" >&2 || true
    echo "-------------------------------------------" >&2
}

# Prints the port given ($1) when it can be bound on 127.0.0.1, else a port the system hands out.
free_port() {
    "$python" - "$1" <<'EOF'
import socket, sys
for wanted in (int(sys.argv[1]), 0):
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds: TIME_WAIT is no obstacle
        try:
            s.bind(("127.0.0.1", wanted))
        except OSError:
            continue
        print(s.getsockname()[1])
        break
EOF
}

# Exits 0 when GET /health answers 200.
health() {
    "$python" - "$1" <<'EOF'
import sys, urllib.request
try:
    with urllib.request.urlopen(sys.argv[1] + "/health", timeout=2) as response:
        sys.exit(0 if response.status == 200 else 1)
except Exception:
    sys.exit(1)
EOF
}

api_key="$("$python" -c 'import secrets; print("pk_external_" + secrets.token_urlsafe(24))')"
url=""
for attempt in 1 2 3; do
    if [ "$attempt" -eq 1 ]; then port="$(free_port 18080)"; else port="$(free_port 0)"; fi
    candidate="http://localhost:$port"
    (cd "$workdir" && exec "$binary" serve --host 127.0.0.1 --port "$port" \
        --database "sqlite:$workdir/passkeys.sqlite" --api-key "$api_key") >"$workdir/server.log" 2>&1 &
    server_pid=$!
    deadline=$((SECONDS + startup_seconds))
    while [ "$SECONDS" -lt "$deadline" ]; do
        if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
        if health "$candidate"; then url="$candidate"; break; fi
        sleep 0.3
    done
    [ -n "$url" ] && break
    if kill -0 "$server_pid" 2>/dev/null; then
        echo "external tests: the server did not answer $candidate/health within ${startup_seconds} s." >&2
        server_log_tail
        exit 1
    fi
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
    echo "external tests: the server exited before answering on port $port (try $attempt of 3)." >&2
    server_log_tail 20
    # Only a port taken between our check and the server's bind is worth another try.
    grep -qiE "in use|bind" "$workdir/server.log" || exit 1
    rm -f "$workdir"/passkeys.sqlite*
done
if [ -z "$url" ]; then
    echo "external tests: could not start the server." >&2
    exit 1
fi
echo "external tests: passkeys serving $url"

# --- Tests --------------------------------------------------------------------------------------------
set +e
(cd "$here" && PASSKEYS_SERVER_URL="$url" PASSKEYS_API_KEY="$api_key" PYTHONDONTWRITEBYTECODE=1 \
    "$python" -m pytest -q -p no:cacheprovider "$@") 2>&1 | tee "$workdir/pytest.out"
status=${PIPESTATUS[0]}
set -e

if [ "$status" -ne 0 ]; then
    server_log_tail 60
    # Repeat pytest's summary line so that it stays the last line of the output.
    summary="$(grep -E '^(=+ )?[0-9]+ (passed|failed|error|errors|skipped|deselected)|^(=+ )?no tests ran' "$workdir/pytest.out" | tail -n 1)"
    [ -n "$summary" ] && echo "$summary"
fi
exit "$status"
