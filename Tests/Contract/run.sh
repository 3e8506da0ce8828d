#!/usr/bin/env bash
# Fuzzes the HTTP contract: schemathesis generates requests from docs/openapi.yaml (every operation, every check,
# the document's links for stateful runs) and sends them to a live `passkeys serve`; it fails on a server error, a
# response the document does not allow, a schema-valid request refused or a schema-invalid one accepted.
#
# Usage: Tests/Contract/run.sh [PASSKEYS_BINARY [SCHEMATHESIS_ARGS...]]
#   PASSKEYS_BINARY defaults to .build/debug/passkeys; this script builds nothing.
#
# It makes a virtual environment at .build/contract-venv (once, and again when requirements.txt changes), starts
# the server on a free loopback port with a fresh SQLite file, a generated API key, the simulated
# identity-verification provider and a client rate limit the fuzzer cannot reach, runs schemathesis within
# PASSKEYS_CONTRACT_SECONDS (default 180), always stops the server, and exits with schemathesis's status.
# Settings and the checks left out (with why) are in schemathesis.toml and hooks.py beside this script.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="$root/.build/contract-venv"
requirements="$here/requirements.txt"
budget="${PASSKEYS_CONTRACT_SECONDS:-180}"

binary="${1:-.build/debug/passkeys}"
[ $# -gt 0 ] && shift
if [ ! -x "$binary" ] && [ -x "$root/$binary" ]; then binary="$root/$binary"; fi
if [ ! -x "$binary" ]; then
    echo "contract fuzzing: no passkeys binary at '$binary'; build it first (swift build --product passkeys)." >&2
    exit 2
fi
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"

# --- Python environment -------------------------------------------------------------------------------
if [ ! -x "$venv/bin/python" ]; then
    echo "contract fuzzing: creating the Python environment in .build/contract-venv"
    mkdir -p "$root/.build"
    "${PYTHON:-python3}" -m venv "$venv" || {
        echo "contract fuzzing: '${PYTHON:-python3} -m venv' failed (on Debian: apt-get install python3-venv)." >&2
        exit 2
    }
fi
if ! cmp -s "$requirements" "$venv/.installed-requirements.txt"; then
    echo "contract fuzzing: installing Tests/Contract/requirements.txt"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$requirements"
    cp "$requirements" "$venv/.installed-requirements.txt"
fi
python="$venv/bin/python"

# --- Server -------------------------------------------------------------------------------------------
workdir="$(mktemp -d "${TMPDIR:-/tmp}/passkeys-contract.XXXXXX")"
server_pid=""

stop_server() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        for _ in $(seq 1 50); do
            kill -0 "$server_pid" 2>/dev/null || break
            sleep 0.2
        done
        if kill -0 "$server_pid" 2>/dev/null; then
            echo "contract fuzzing: the server did not stop within 10 s of SIGTERM; killing it." >&2
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

# A port the system hands out on 127.0.0.1.
free_port() {
    "$python" -c 'import socket
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    print(s.getsockname()[1])'
}

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

# The fuzzer sends thousands of client API calls a minute from one IP, and fails thousands of sign-ins.
cat >"$workdir/config.json" <<'JSON'
{ "limits": { "clientRequestsPerMinute": 1000000, "failedAssertionsPerIP": 1000000, "failedAssertionsPerCredential": 10000 } }
JSON

api_key="$("$python" -c 'import secrets; print("pk_contract_" + secrets.token_urlsafe(24))')"
url=""
for attempt in 1 2 3; do
    port="$(free_port)"
    candidate="http://localhost:$port"
    (cd "$workdir" && exec "$binary" serve --host 127.0.0.1 --port "$port" --database "sqlite:$workdir/passkeys.sqlite" \
        --api-key "$api_key" --config "$workdir/config.json" --identity-verification simulated) \
        >"$workdir/server.log" 2>&1 &
    server_pid=$!
    deadline=$((SECONDS + 60))
    while [ "$SECONDS" -lt "$deadline" ]; do
        if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
        if health "$candidate"; then url="$candidate"; break; fi
        sleep 0.3
    done
    [ -n "$url" ] && break
    if kill -0 "$server_pid" 2>/dev/null; then
        echo "contract fuzzing: the server did not answer $candidate/health within 60 s." >&2
        server_log_tail
        exit 1
    fi
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
    echo "contract fuzzing: the server exited before answering on port $port (try $attempt of 3)." >&2
    server_log_tail 20
    grep -qiE "in use|bind" "$workdir/server.log" || exit 1
    rm -f "$workdir"/passkeys.sqlite*
done
[ -n "$url" ] || { echo "contract fuzzing: could not start the server." >&2; exit 1; }
echo "contract fuzzing: passkeys serving $url; schemathesis $("$venv/bin/st" --version | awk '{print $NF}'), ${budget} s"

# --- Fuzzing ------------------------------------------------------------------------------------------
# One worker: with two, Hypothesis (describing its strategies by parsing their source with `ast`) hit CPython
# 3.11's "SystemError: AST constructor recursion depth mismatch", which schemathesis reports as an error.
set +e
(cd "$here" && PASSKEYS_API_KEY="$api_key" PYTHONDONTWRITEBYTECODE=1 HYPOTHESIS_STORAGE_DIRECTORY="$workdir/hypothesis" \
    "$venv/bin/st" run "$root/docs/openapi.yaml" \
    --url "$url" --max-time "$budget" --workers 1 --no-color \
    --generation-database none "$@") 2>&1 \
    | tee "$workdir/schemathesis.out"
status=${PIPESTATUS[0]}
set -e

requests="$(grep -c 'route=.* status=' "$workdir/server.log" || true)"
errors="$(grep -cE 'route=.* status=5[0-9][0-9]' "$workdir/server.log" || true)"
echo "contract fuzzing: the server answered $requests requests, $errors of them with a 5xx; schemathesis exited $status"
if [ "$status" -ne 0 ]; then server_log_tail 40; fi
exit "$status"
