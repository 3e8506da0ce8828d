# Shared by the test runners that drive a live `passkeys serve` from Python (Tests/External/run.sh,
# Tests/Contract/run.sh). Sourced, not run. Before sourcing, set:
#   label        how messages start ("external tests", "contract fuzzing")
#   root         the checkout
#   venv         the virtual environment's folder; requirements  the requirements file installed into it
#   binary       the passkeys executable (absolute)
# It makes the environment (once, and again when the requirements change), sets `python`, makes `workdir` (removed
# on exit, when the server is stopped too), and defines `start_server PORT_HINT [SERVE_ARGS...]`, which starts the
# server on 127.0.0.1 with a fresh SQLite file in `workdir` and the API key `api_key`, waits for /health within
# `startup_seconds` (default 60), retries a port that was taken meanwhile, and sets `url`; `server_log_tail [N]`
# prints the end of its output.

if [ ! -x "$venv/bin/python" ]; then
    echo "$label: creating the Python environment in ${venv#"$root"/}"
    mkdir -p "$root/.build"
    "${PYTHON:-python3}" -m venv "$venv" || {
        echo "$label: '${PYTHON:-python3} -m venv' failed (on Debian: apt-get install python3-venv)." >&2
        exit 2
    }
fi
if ! cmp -s "$requirements" "$venv/.installed-requirements.txt"; then
    echo "$label: installing ${requirements#"$root"/}"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$requirements"
    cp "$requirements" "$venv/.installed-requirements.txt"
fi
python="$venv/bin/python"
startup_seconds="${startup_seconds:-60}"

workdir="$(mktemp -d "${TMPDIR:-/tmp}/passkeys-live.XXXXXX")"
server_pid=""
url=""

stop_server() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        for _ in $(seq 1 50); do
            kill -0 "$server_pid" 2>/dev/null || break
            sleep 0.2
        done
        if kill -0 "$server_pid" 2>/dev/null; then
            echo "$label: the server did not stop within 10 s of SIGTERM; killing it." >&2
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
    "$python" - "$1" <<'PY'
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
PY
}

# Exits 0 when GET /health answers 200.
health() {
    "$python" - "$1" <<'PY'
import sys, urllib.request
try:
    with urllib.request.urlopen(sys.argv[1] + "/health", timeout=2) as response:
        sys.exit(0 if response.status == 200 else 1)
except Exception:
    sys.exit(1)
PY
}

start_server() {
    local hint="$1"
    shift
    local attempt port candidate deadline
    for attempt in 1 2 3; do
        if [ "$attempt" -eq 1 ]; then port="$(free_port "$hint")"; else port="$(free_port 0)"; fi
        candidate="http://localhost:$port"
        (cd "$workdir" && exec "$binary" serve --host 127.0.0.1 --port "$port" \
            --database "sqlite:$workdir/passkeys.sqlite" --api-key "$api_key" "$@") >"$workdir/server.log" 2>&1 &
        server_pid=$!
        deadline=$((SECONDS + startup_seconds))
        while [ "$SECONDS" -lt "$deadline" ]; do
            if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
            if health "$candidate"; then
                url="$candidate"
                return 0
            fi
            sleep 0.3
        done
        if kill -0 "$server_pid" 2>/dev/null; then
            echo "$label: the server did not answer $candidate/health within ${startup_seconds} s." >&2
            server_log_tail
            exit 1
        fi
        wait "$server_pid" 2>/dev/null || true
        server_pid=""
        echo "$label: the server exited before answering on port $port (try $attempt of 3)." >&2
        server_log_tail 20
        # Only a port taken between our check and the server's bind is worth another try.
        grep -qiE "in use|bind" "$workdir/server.log" || exit 1
        rm -f "$workdir"/passkeys.sqlite*
    done
    echo "$label: could not start the server." >&2
    exit 1
}
