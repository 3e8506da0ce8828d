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

# --- Python environment and server (scripts/live-server.sh) --------------------------------------------
label="contract fuzzing"
# shellcheck source=../../scripts/live-server.sh
source "$root/scripts/live-server.sh"
# The fuzzer sends thousands of client API calls a minute from one IP, and fails thousands of sign-ins.
cat >"$workdir/config.json" <<'JSON'
{ "limits": { "clientRequestsPerMinute": 1000000, "failedAssertionsPerIP": 1000000, "failedAssertionsPerCredential": 10000 } }
JSON
api_key="$("$python" -c 'import secrets; print("pk_contract_" + secrets.token_urlsafe(24))')"
start_server --config "$workdir/config.json" --identity-verification simulated
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
