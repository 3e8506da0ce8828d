#!/usr/bin/env bash
# Runs every test of swift-passkeys on a fresh machine: checks formatting, builds with no warnings in our
# own code, and runs `swift test`. Installs and starts what the tests need when it is missing.
#
# The real-device conformance corpus is read from $PASSKEYS_CONFORMANCE_DIR, or from ../shared/conformance
# beside this checkout; the tests that need it say they are skipped when it is absent. The browser tests drive a
# headless Chromium ($PASSKEYS_CHROMIUM, or chromium on PATH, installed from Debian when missing); here they
# fail rather than skip when it cannot be found (PASSKEYS_REQUIRE_BROWSER=1).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

log() { printf '\n== %s\n' "$*"; }

command -v swift >/dev/null || { echo "swift is not on PATH: install a Swift 6.1+ toolchain first." >&2; exit 1; }

if [ -z "${PASSKEYS_CONFORMANCE_DIR:-}" ] && [ -d "$root/../shared/conformance/cases" ]; then
    export PASSKEYS_CONFORMANCE_DIR="$root/../shared/conformance"
fi
echo "conformance corpus: ${PASSKEYS_CONFORMANCE_DIR:-absent (corpus tests will be skipped)}"

log "format (swift format lint, NIO-style configuration)"
swift format lint --strict --recursive Sources Tests Benchmarks/Sources Benchmarks/Benchmarks Fuzz/Sources

log "PostgreSQL (a real server for the PostgreSQL adapter and multi-instance tests)"
if [ -z "${PASSKEYS_POSTGRES_URL:-}" ]; then
    PASSKEYS_POSTGRES_URL=$(scripts/postgres.sh start | tail -n 1)
    export PASSKEYS_POSTGRES_URL
    trap 'scripts/postgres.sh stop >/dev/null 2>&1 || true' EXIT
fi
echo "PostgreSQL: ${PASSKEYS_POSTGRES_URL%%:*}://…@${PASSKEYS_POSTGRES_URL##*@}"

log "Chromium (a headless browser for the browser tests of the web pages)"
if [ -z "${PASSKEYS_CHROMIUM:-}" ] && ! command -v chromium >/dev/null; then
    [ "$(id -u)" = 0 ] || { echo "chromium is not installed: run as root, or install Debian's chromium package." >&2; exit 1; }
    echo "installing Debian's chromium package"
    apt_log=$(mktemp)
    if ! { DEBIAN_FRONTEND=noninteractive apt-get update -q \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; } >"$apt_log" 2>&1; then
        cat "$apt_log" >&2
        echo "installing chromium failed (apt-get's output is above)." >&2
        exit 1
    fi
    rm -f "$apt_log"
fi
export PASSKEYS_REQUIRE_BROWSER=1
echo "Chromium: $("${PASSKEYS_CHROMIUM:-chromium}" --version 2>/dev/null | tail -n 1)"

log "OpenAPI document (openapi-spec-validator)"
scripts/validate-openapi.sh

log "build (no warnings allowed in our own code)"
build_log=$(mktemp)
swift build --build-tests 2>&1 | tee "$build_log"
if grep -E "^($root/)?(Sources|Tests)/[^:]+:[0-9]+:[0-9]+: warning:" "$build_log" | sort -u | grep .; then
    echo "The build has warnings in our code (listed above): fix them." >&2
    exit 1
fi

log "Apple adapters type-checked against stand-in declarations"
scripts/typecheck-apple.sh

log "independent client (a PyPI software authenticator against a live passkeys serve)"
Tests/External/run.sh .build/debug/passkeys

log "HTTP contract fuzzed (schemathesis from PyPI against a live passkeys serve, about 3 minutes)"
Tests/Contract/run.sh .build/debug/passkeys

log "test"
independent=$(mktemp -d)
PASSKEYS_INDEPENDENT_VERIFIER_DIR=$independent swift test --skip-build

log "independent verifier (py_webauthn checks the software authenticator's responses)"
.build/external-venv/bin/python Tests/External/verify_software_authenticator.py "$independent"
