#!/usr/bin/env bash
# Runs `passkeys serve` behind Debian's nginx with docs/deploy/nginx.conf, over HTTPS with a certificate from a CA
# made here, and drives it through the proxy: a registration and a sign-in with the CLI's device commands, a
# handoff's event stream read while it is open and then approved by `passkeys approve`, the request size limit,
# and the client rate limit, which must count each client's own address (from X-Forwarded-For, trusted only from
# nginx), never nginx's.
#
# Usage: scripts/proxy-test.sh [PASSKEYS_BINARY]   (default .build/debug/passkeys; this script builds nothing)
#
# Needs nginx, openssl, curl and unshare (scripts/test.sh installs the Debian packages when they are missing).
# nginx runs unprivileged-style from a folder of its own (its pid file, logs and temporary files there) on ports
# the script chooses; nothing of the machine's nginx is used or changed. The CLI trusts what the system trusts
# (libcurl reads /etc/ssl/certs/ca-certificates.crt): each CLI command runs in a private mount namespace where
# that file is, for that command alone, a copy with the test's CA added — what installing the CA would do.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
binary="${1:-.build/debug/passkeys}"
if [ ! -x "$binary" ] && [ -x "$root/$binary" ]; then binary="$root/$binary"; fi
if [ ! -x "$binary" ]; then
    echo "proxy test: no passkeys binary at '$binary'; build it first (swift build --product passkeys)." >&2
    exit 2
fi
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
for tool in nginx openssl curl unshare python3; do
    command -v "$tool" >/dev/null || { echo "proxy test: $tool is not installed (scripts/test.sh installs it)." >&2; exit 2; }
done
system_bundle=/etc/ssl/certs/ca-certificates.crt
[ -f "$system_bundle" ] || { echo "proxy test: $system_bundle is missing: install Debian's ca-certificates." >&2; exit 2; }

# The server (scripts/live-server.sh, with the external tests' Python environment for the API key).
label="proxy test"
venv="$root/.build/external-venv"
requirements="$root/Tests/External/requirements.txt"
# shellcheck source=live-server.sh
source "$root/scripts/live-server.sh"
api_key="$("$python" -c 'import secrets; print("pk_proxy_" + secrets.token_urlsafe(24))')"
export PASSKEYS_API_KEY="$api_key" PASSKEYS_KEY_STORE="$workdir/keys.json" PASSKEYS_KEY_STORE_PASSPHRASE=proxy-test
nginx_pid=""
stop_nginx() {
    if [ -n "$nginx_pid" ]; then
        kill -QUIT "$nginx_pid" 2>/dev/null || true
        wait "$nginx_pid" 2>/dev/null || true
        nginx_pid=""
    fi
}
trap 'stop_nginx; cleanup' EXIT

fail() {
    echo "proxy test: $*" >&2
    server_log_tail 30
    echo "---- nginx's error log ----" >&2
    tail -n 20 "$workdir/nginx/error.log" >&2 || true
    exit 1
}
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
json() { python3 -c 'import json, sys; print(json.load(sys.stdin)'"$1"')'; }

# --- A CA and the proxy's certificate for localhost -------------------------------------------------------
tls="$workdir/tls"
mkdir -p "$tls"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=passkeys proxy test CA" \
    -keyout "$tls/ca.key" -out "$tls/ca.pem" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=localhost" \
    -keyout "$tls/privkey.pem" -out "$tls/server.csr" 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >"$tls/ext"
openssl x509 -req -days 2 -in "$tls/server.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial \
    -extfile "$tls/ext" -out "$tls/fullchain.pem" 2>/dev/null
cat "$system_bundle" "$tls/ca.pem" >"$tls/bundle.pem"

# Runs a command that trusts the test's CA (see the top of this file).
with_test_ca() {
    local namespace=(--mount)
    [ "$(id -u)" = 0 ] || namespace=(--user --map-root-user --mount)
    unshare "${namespace[@]}" sh -c 'mount --bind "$0" /etc/ssl/certs/ca-certificates.crt && exec "$@"' \
        "$tls/bundle.pem" "$@"
}
with_test_ca true || fail "cannot make a private mount namespace (unshare --mount): run as root, or allow unprivileged user namespaces."

# --- The server, then nginx in front of it ----------------------------------------------------------------
https_port=$(free_port)
http_port=$(free_port)
base="https://localhost:$https_port"
requests_per_minute=20
cat >"$workdir/passkeys.json" <<JSON
{
  "rpId": "localhost",
  "webOrigins": ["$base"],
  "limits": {"trustedProxies": ["127.0.0.1"], "clientRequestsPerMinute": $requests_per_minute}
}
JSON
start_server --config "$workdir/passkeys.json"
upstream="127.0.0.1:${url##*:}"

mkdir -p "$workdir/nginx"
chmod 755 "$workdir" "$workdir/nginx" "$tls"
site="$workdir/nginx/passkeys.conf"
# The only changes: ports, the upstream's address, the certificate's paths. Each must apply exactly once.
sed -e "s|^    server 127.0.0.1:8080;|    server $upstream;|" \
    -e "s|^    listen 80;|    listen 127.0.0.1:$http_port;|" \
    -e "s|^    listen 443 ssl http2;|    listen 127.0.0.1:$https_port ssl http2;|" \
    -e "s|/etc/ssl/passkeys/|$tls/|" \
    "$root/docs/deploy/nginx.conf" >"$site"
[ "$(diff "$root/docs/deploy/nginx.conf" "$site" | grep -c '^>')" = 5 ] \
    || fail "docs/deploy/nginx.conf no longer has the lines this test changes (the upstream, two listen lines, two certificate paths)."
cat >"$workdir/nginx/nginx.conf" <<CONF
# The test's own nginx process: only its files' places; the HTTP configuration is docs/deploy/nginx.conf.
pid $workdir/nginx/nginx.pid;
error_log $workdir/nginx/error.log info;
events {}
http {
    access_log $workdir/nginx/access.log;
    client_body_temp_path $workdir/nginx/body;
    proxy_temp_path $workdir/nginx/proxy;
    fastcgi_temp_path $workdir/nginx/fastcgi;
    uwsgi_temp_path $workdir/nginx/uwsgi;
    scgi_temp_path $workdir/nginx/scgi;
    include $site;
}
CONF
nginx_args=(-p "$workdir/nginx" -c "$workdir/nginx/nginx.conf" -e "$workdir/nginx/error.log")
nginx "${nginx_args[@]}" -t -q || fail "nginx refused the configuration (its message is above)."
nginx "${nginx_args[@]}" -g 'daemon off;' &
nginx_pid=$!
deadline=$((SECONDS + 30))
until curl -fsS --cacert "$tls/ca.pem" -o /dev/null "$base/health" 2>/dev/null; do
    kill -0 "$nginx_pid" 2>/dev/null || fail "nginx exited at start."
    [ "$SECONDS" -lt "$deadline" ] || fail "nginx did not answer $base/health within 30 s."
    sleep 0.2
done
echo "proxy test: nginx $(nginx -v 2>&1 | sed 's|.*/||') serving $base in front of $url"

# --- Plain HTTP is sent to HTTPS; HTTPS answers with HSTS -------------------------------------------------
redirect=$(curl -sS -o /dev/null -w '%{http_code} %{redirect_url}' "http://localhost:$http_port/health")
[[ "$redirect" == "301 https://localhost/health" ]] || fail "plain HTTP answered '$redirect', not a redirect to HTTPS."
curl -fsS --cacert "$tls/ca.pem" -D "$workdir/health.headers" -o /dev/null "$base/health"
grep -qi '^strict-transport-security: max-age=' "$workdir/health.headers" || fail "HTTPS answers lack Strict-Transport-Security."
echo "proxy test: plain HTTP redirects to HTTPS; HTTPS answers carry HSTS"

# --- Registration and sign-in through the proxy, by the CLI -----------------------------------------------
with_test_ca "$binary" register --server "$base" --user alice --name "proxy test" >"$workdir/register.out" 2>&1 \
    || { cat "$workdir/register.out" >&2; fail "registration through nginx failed."; }
with_test_ca "$binary" sign-in --server "$base" --user alice >"$workdir/sign-in.out" 2>&1 \
    || { cat "$workdir/sign-in.out" >&2; fail "sign-in through nginx failed."; }
echo "proxy test: registered and signed in through nginx (origin $base)"

# --- A handoff's event stream, read while it is open, approved by the CLI as the phone ----------------------
backend() {
    curl -fsS --cacert "$tls/ca.pem" -H "Authorization: Bearer $api_key" -H 'Content-Type: application/json' \
        -X POST --data "$2" "$base$1"
}
session=$(backend /v1/authentications '{"userId": "alice"}' | json '["biometricPasskeySessionId"]')
backend "/v1/authentications/$session/handoff" '{}' >"$workdir/handoff.json"
handoff_id=$(json '["crossPlatformSessionId"]' <"$workdir/handoff.json")
poll_token=$(json '["pollToken"]' <"$workdir/handoff.json")
deep_link=$(json '["deepLink"]' <"$workdir/handoff.json")
code=$(json '["verificationCode"]' <"$workdir/handoff.json")
curl -sSN --cacert "$tls/ca.pem" -H "Authorization: Bearer $poll_token" -H 'Accept: text/event-stream' \
    "$base/v1/client/cross-platform/$handoff_id/events" >"$workdir/events.txt" &
events_pid=$!
deadline=$((SECONDS + 30))
until grep -Eq '"status": ?"pending"' "$workdir/events.txt"; do
    kill -0 "$events_pid" 2>/dev/null || fail "the event stream ended before its first event: $(cat "$workdir/events.txt")"
    [ "$SECONDS" -lt "$deadline" ] || fail "the event stream's first event did not come through nginx within 30 s (is it buffered?)."
    sleep 0.2
done
# The stream is still open (it ends at a final status), so the event came through unbuffered.
kill -0 "$events_pid" 2>/dev/null || fail "the event stream ended while the handoff was pending."
with_test_ca "$binary" approve "$deep_link" --code "$code" >"$workdir/approve.out" 2>&1 \
    || { cat "$workdir/approve.out" >&2; fail "approving the handoff through nginx failed."; }
deadline=$((SECONDS + 30))
while kill -0 "$events_pid" 2>/dev/null; do
    [ "$SECONDS" -lt "$deadline" ] || fail "the event stream did not end within 30 s of the approval: $(cat "$workdir/events.txt")"
    sleep 0.2
done
wait "$events_pid" || fail "the event stream ended with an error."
grep -Eq '"status": ?"approved"' "$workdir/events.txt" || fail "the event stream did not say approved: $(cat "$workdir/events.txt")"
echo "proxy test: the handoff's event stream passed its events as they happened: $(grep -o '"status":"[a-z]*"' "$workdir/events.txt" | cut -d'"' -f4 | tr '\n' ' ')"

# --- Request size: nginx refuses what the server would, in the server's error shape ------------------------
python3 -c 'print("x" * 70000, end="")' >"$workdir/large.body"
python3 -c 'print("x" * 60000, end="")' >"$workdir/small.body"
large=$(curl -sS --cacert "$tls/ca.pem" -H "Authorization: Bearer $api_key" -H 'Content-Type: application/json' \
    --data-binary @"$workdir/large.body" -w ' %{http_code}' "$base/v1/registrations")
[[ "$large" == *'"code":"PAYLOAD_TOO_LARGE"'*' 413' ]] || fail "a 70,000-byte body was answered '$large', not 413 PAYLOAD_TOO_LARGE."
small=$(curl -sS --cacert "$tls/ca.pem" -H "Authorization: Bearer $api_key" -H 'Content-Type: application/json' \
    --data-binary @"$workdir/small.body" -w ' %{http_code}' "$base/v1/registrations")
[[ "$small" == *'"code":"INVALID_REQUEST"'*' 400' ]] || fail "a 60,000-byte body was answered '$small', not the server's 400 INVALID_REQUEST."
echo "proxy test: a body over 64 KiB is refused by nginx (413 PAYLOAD_TOO_LARGE); one under reaches the server"

# --- The client rate limit counts the client's address, not nginx's -----------------------------------------
# Each client connects from an address of its own on the loopback network; nginx appends it to X-Forwarded-For.
client_request() { # ADDRESS [HEADER...] -> the status of one client API request
    local address=$1
    shift
    curl -sS --cacert "$tls/ca.pem" --interface "$address" -o /dev/null -w '%{http_code}' "$@" \
        -X POST "$base/v1/client/registrations/unknown/options"
}
for i in $(seq 1 "$requests_per_minute"); do
    status=$(client_request 127.0.0.2)
    [ "$status" != 429 ] || fail "client 127.0.0.2 was limited at its request $i, before the limit of $requests_per_minute."
done
status=$(client_request 127.0.0.2)
[ "$status" = 429 ] || fail "client 127.0.0.2's request $((requests_per_minute + 1)) was answered $status, not 429."
status=$(client_request 127.0.0.2 -H 'X-Forwarded-For: 203.0.113.9')
[ "$status" = 429 ] || fail "client 127.0.0.2 escaped its limit by writing X-Forwarded-For itself (answered $status)."
status=$(client_request 127.0.0.3 -H 'X-Forwarded-For: 127.0.0.2')
[ "$status" != 429 ] || fail "client 127.0.0.3 was limited: the server believed the X-Forwarded-For it wrote, or counted nginx's address."
status=$(client_request 127.0.0.1)
[ "$status" != 429 ] || fail "a client on nginx's own address was limited: the server counted nginx, not its clients."
echo "proxy test: client 127.0.0.2 limited after $requests_per_minute requests (429), whatever X-Forwarded-For it sends; 127.0.0.3 and 127.0.0.1 not"

# --- With the server gone, nginx answers in the server's error shape --------------------------------------
stop_server
gone=$(curl -sS --cacert "$tls/ca.pem" -w ' %{http_code}' "$base/health")
[[ "$gone" == *'"code":"SERVICE_UNAVAILABLE"'*' 503' ]] || fail "with the server stopped, nginx answered '$gone', not 503 SERVICE_UNAVAILABLE."
echo "proxy test: with the server stopped, nginx answers 503 SERVICE_UNAVAILABLE (retryable)"
echo "proxy test: passed"
