# Shared by the test runners that drive a live `passkeys serve` from Python (Tests/External/run.sh,
# Tests/Contract/run.sh). Sourced, not run. Before sourcing, set:
#   label        how messages start ("external tests", "contract fuzzing")
#   root         the checkout
#   venv         the virtual environment's folder; requirements  the requirements file installed into it
#   binary       the passkeys executable (absolute)
# It makes the environment (once, and again when the requirements change), sets `python`, makes `workdir` (removed
# on exit, when the server is stopped too), and defines `start_server [SERVE_ARGS...]`, which starts the server on
# 127.0.0.1 on a port it chooses itself, with a fresh SQLite file in `workdir` and the API key `api_key`, waits at
# most `startup_seconds` (default 60) for it to listen, and sets `url`; `server_log_tail [N]` prints the end of its
# output.

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

# Starts the server on a port it chooses itself (--port 0: nothing can take the port between a check and the bind)
# and sets `url` from the first line it prints once it listens.
start_server() {
    # The log exists before the server starts, so the first look at it cannot come before its creation.
    : >"$workdir/server.log"
    (cd "$workdir" && exec "$binary" serve --host 127.0.0.1 --port 0 \
        --database "sqlite:$workdir/passkeys.sqlite" --api-key "$api_key" "$@") >"$workdir/server.log" 2>&1 &
    server_pid=$!
    local deadline=$((SECONDS + startup_seconds)) port
    while [ "$SECONDS" -lt "$deadline" ]; do
        port=$(sed -n 's|^passkeys serving http://localhost:\([0-9]*\).*|\1|p' "$workdir/server.log" | head -n 1)
        if [ -n "$port" ]; then
            url="http://localhost:$port"
            return 0
        fi
        if ! kill -0 "$server_pid" 2>/dev/null; then
            echo "$label: the server exited before it listened." >&2
            server_log_tail 20
            exit 1
        fi
        sleep 0.2
    done
    echo "$label: the server did not listen within ${startup_seconds} s." >&2
    server_log_tail
    exit 1
}
