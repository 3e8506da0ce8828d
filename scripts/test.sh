#!/usr/bin/env bash
# Runs every test of swift-passkeys on a fresh machine: checks formatting, builds with no warnings in our
# own code, and runs `swift test`. Installs and starts what the tests need when it is missing.
#
# The real-device conformance corpus is read from $PASSKEYS_CONFORMANCE_DIR, or from ../shared/conformance
# beside this checkout; the tests that need it say they are skipped when it is absent.
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

log "OpenAPI document (openapi-spec-validator)"
scripts/validate-openapi.sh

log "build (no warnings allowed in our own code)"
build_log=$(mktemp)
swift build --build-tests 2>&1 | tee "$build_log"
if grep -E "^($root/)?(Sources|Tests)/[^:]+:[0-9]+:[0-9]+: warning:" "$build_log" | sort -u | grep .; then
    echo "The build has warnings in our code (listed above): fix them." >&2
    exit 1
fi

log "independent client (a PyPI software authenticator against a live passkeys serve)"
Tests/External/run.sh .build/debug/passkeys

log "test"
independent=$(mktemp -d)
PASSKEYS_INDEPENDENT_VERIFIER_DIR=$independent swift test --skip-build

log "independent verifier (py_webauthn checks the software authenticator's responses)"
.build/external-venv/bin/python Tests/External/verify_software_authenticator.py "$independent"
