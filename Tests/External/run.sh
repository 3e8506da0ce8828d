#!/usr/bin/env bash
# Runs the external-client tests: a WebAuthn client that no one on this project wrote (soft-webauthn, see
# webauthn_client.py) drives a live `passkeys serve` through registration and sign-in, the Standard Webhooks
# reference library (standardwebhooks) verifies the webhooks the server posts (test_webhooks.py), and PyJWT verifies
# the access tokens of token sessions against the published key set (test_token_sessions.py).
#
# Usage: Tests/External/run.sh [PASSKEYS_BINARY [PYTEST_ARGS...]]
#   PASSKEYS_BINARY defaults to .build/debug/passkeys; this script builds nothing.
#
# It makes a virtual environment at .build/external-venv (once, and again when requirements.txt changes),
# starts the server on a port it chooses itself with a fresh SQLite file in a temporary folder and a
# generated API key, waits until it listens, runs pytest -q, always stops the server, and exits with pytest's
# status. Environment: PYTHON (default python3) makes the environment; PASSKEYS_EXTERNAL_STARTUP_SECONDS
# (default 60) bounds the wait for the server.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="$root/.build/external-venv"
requirements="$here/requirements.txt"

binary="${1:-.build/debug/passkeys}"
[ $# -gt 0 ] && shift
if [ ! -x "$binary" ] && [ -x "$root/$binary" ]; then binary="$root/$binary"; fi
if [ ! -x "$binary" ]; then
    echo "external tests: no passkeys binary at '$binary'; build it first (swift build --product passkeys)." >&2
    exit 2
fi
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"

# --- Python environment and server (scripts/live-server.sh) --------------------------------------------
label="external tests"
startup_seconds="${PASSKEYS_EXTERNAL_STARTUP_SECONDS:-60}"
# shellcheck source=../../scripts/live-server.sh
source "$root/scripts/live-server.sh"
api_key="$("$python" -c 'import secrets; print("pk_external_" + secrets.token_urlsafe(24))')"
# The webhook receiver of test_webhooks.py listens on a port chosen here (free when it was chosen), with a new secret;
# the server posts every event there, retrying after a second until the receiver is up.
webhook_port="$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
# The endpoint is mid-rotation (a secret and its previous one), so every delivery must verify with each.
new_secret() { "$python" -c 'import base64, secrets; print("whsec_" + base64.b64encode(secrets.token_bytes(32)).decode())'; }
webhook_secret="$(new_secret)"
webhook_previous_secret="$(new_secret)"
cat >"$workdir/passkeys.json" <<JSON
{"webhooks": {"firstRetrySeconds": 1, "endpoints": [
    {"name": "external", "url": "http://127.0.0.1:$webhook_port/hooks", "secret": "$webhook_secret",
     "previousSecret": "$webhook_previous_secret", "events": ["*"]}
]}}
JSON
start_server --config "$workdir/passkeys.json"
echo "external tests: passkeys serving $url"

# --- Tests --------------------------------------------------------------------------------------------
set +e
(cd "$here" && PASSKEYS_SERVER_URL="$url" PASSKEYS_API_KEY="$api_key" PYTHONDONTWRITEBYTECODE=1 \
    PASSKEYS_WEBHOOK_PORT="$webhook_port" PASSKEYS_WEBHOOK_SECRET="$webhook_secret" \
    PASSKEYS_WEBHOOK_PREVIOUS_SECRET="$webhook_previous_secret" \
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
