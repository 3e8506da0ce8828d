#!/usr/bin/env bash
# Runs every test of swift-passkeys on a fresh machine: checks formatting, builds with no warnings in our
# own code, and runs `swift test`. Installs and starts what the tests need when it is missing.
#
# The real-device conformance corpus is read from $PASSKEYS_CONFORMANCE_DIR, or from ../shared/conformance
# beside this checkout; here it is required (PASSKEYS_REQUIRE_CONFORMANCE=1): the script stops when it is
# missing, and the tests fail rather than skip when it cannot be read in full. The browser tests drive a
# headless Chromium ($PASSKEYS_CHROMIUM, or chromium on PATH, installed from Debian when missing); here they
# fail rather than skip when it cannot be found (PASSKEYS_REQUIRE_BROWSER=1). Likewise the QR code tests read the
# codes back with zbarimg and rsvg-convert (Debian's zbar-tools and librsvg2-bin, installed when missing) and fail
# rather than skip without them (PASSKEYS_REQUIRE_QR_DECODER=1).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

log() { printf '\n== %s\n' "$*"; }

command -v swift >/dev/null || { echo "swift is not on PATH: install a Swift 6.1+ toolchain first." >&2; exit 1; }

if [ -z "${PASSKEYS_CONFORMANCE_DIR:-}" ] && [ -d "$root/../shared/conformance/cases" ]; then
    export PASSKEYS_CONFORMANCE_DIR="$root/../shared/conformance"
fi
if [ -z "${PASSKEYS_CONFORMANCE_DIR:-}" ] || [ ! -f "$PASSKEYS_CONFORMANCE_DIR/README.md" ] \
    || [ ! -d "$PASSKEYS_CONFORMANCE_DIR/cases" ]; then
    echo "the conformance corpus is missing: set PASSKEYS_CONFORMANCE_DIR to its folder (with README.md and cases/)," >&2
    echo "or put it at ../shared/conformance beside this checkout." >&2
    exit 1
fi
export PASSKEYS_REQUIRE_CONFORMANCE=1
echo "conformance corpus: $PASSKEYS_CONFORMANCE_DIR"

log "format (swift format lint, NIO-style configuration)"
swift format lint --strict --recursive Sources Tests Benchmarks/Sources Benchmarks/Benchmarks Fuzz/Sources

log "page scripts (node --check parses each JavaScript file the pages load)"
if command -v node >/dev/null; then
    for script in Sources/PasskeyServer/Resources/Web/*.js; do
        node --check "$script" || { echo "$script does not parse (node's message is above)." >&2; exit 1; }
    done
    echo "parsed with node $(node --version): $(ls Sources/PasskeyServer/Resources/Web/*.js | xargs -n 1 basename | tr '\n' ' ')"
else
    echo "node is not installed: the page scripts were not parsed (Debian's nodejs package adds this check)."
fi

log "PostgreSQL (a real server for the PostgreSQL adapter and multi-instance tests)"
if [ -z "${PASSKEYS_POSTGRES_URL:-}" ]; then
    PASSKEYS_POSTGRES_URL=$(scripts/postgres.sh start | tail -n 1)
    export PASSKEYS_POSTGRES_URL
    trap 'scripts/postgres.sh stop >/dev/null 2>&1 || true' EXIT
fi
# A loaded 2-core machine can take longer than the store's default 10 s to start a PostgreSQL backend for a new
# connection; the tests' connections wait up to a minute instead (the setting is the URL's, as a user would set it).
case "$PASSKEYS_POSTGRES_URL" in
    *connect_timeout=*) ;;
    *\?*) PASSKEYS_POSTGRES_URL="$PASSKEYS_POSTGRES_URL&connect_timeout=60" ;;
    *) PASSKEYS_POSTGRES_URL="$PASSKEYS_POSTGRES_URL?connect_timeout=60" ;;
esac
export PASSKEYS_POSTGRES_URL
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

log "QR code decoder (rsvg-convert and zbarimg read back the QR codes the encoder draws)"
if ! command -v zbarimg >/dev/null || ! command -v rsvg-convert >/dev/null; then
    [ "$(id -u)" = 0 ] || { echo "zbarimg or rsvg-convert is not installed: run as root, or install Debian's zbar-tools and librsvg2-bin packages." >&2; exit 1; }
    echo "installing Debian's zbar-tools and librsvg2-bin packages"
    apt_log=$(mktemp)
    if ! { DEBIAN_FRONTEND=noninteractive apt-get update -q \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -q zbar-tools librsvg2-bin; } >"$apt_log" 2>&1; then
        cat "$apt_log" >&2
        echo "installing zbar-tools and librsvg2-bin failed (apt-get's output is above)." >&2
        exit 1
    fi
    rm -f "$apt_log"
fi
export PASSKEYS_REQUIRE_QR_DECODER=1
echo "QR decoder: zbarimg $(zbarimg --version 2>/dev/null | head -n 1), $(rsvg-convert --version 2>/dev/null | head -n 1)"

log "deployment tools (nginx, openssl, curl, systemd-analyze and libcurl's headers for the proxy and release tests)"
missing=()
for tool in nginx:nginx openssl:openssl curl:curl systemd-analyze:systemd unshare:util-linux; do
    command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}")
done
[ -f /etc/ssl/certs/ca-certificates.crt ] || missing+=(ca-certificates)
# The release build links Foundation's networking statically, which links libcurl (libcurl.so comes with -dev).
[ -e "/usr/lib/$(uname -m)-linux-gnu/libcurl.so" ] || missing+=(libcurl4-openssl-dev)
if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || { echo "Debian's ${missing[*]} not installed: run as root, or install them." >&2; exit 1; }
    echo "installing Debian's ${missing[*]}"
    apt_log=$(mktemp)
    if ! { DEBIAN_FRONTEND=noninteractive apt-get update -q \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"; } >"$apt_log" 2>&1; then
        cat "$apt_log" >&2
        echo "installing ${missing[*]} failed (apt-get's output is above)." >&2
        exit 1
    fi
    rm -f "$apt_log"
fi
echo "$(nginx -v 2>&1), $(openssl version), $(systemd-analyze --version | head -n 1)"

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

log "independent client (a PyPI software authenticator against a live passkeys serve; standardwebhooks verifies its webhooks)"
Tests/External/run.sh .build/debug/passkeys

log "HTTP contract fuzzed (schemathesis from PyPI against a live passkeys serve, about 3 minutes)"
Tests/Contract/run.sh .build/debug/passkeys

log "behind nginx (docs/deploy/nginx.conf over HTTPS in front of a live passkeys serve)"
scripts/proxy-test.sh .build/debug/passkeys

log "release archive (scripts/release.sh builds it; scripts/release-test.sh runs it without Swift)"
# PASSKEYS_RELEASE_ARCHIVE names an archive made already (by scripts/release.sh) instead of building one here.
release_archive=${PASSKEYS_RELEASE_ARCHIVE:-}
if [ -z "$release_archive" ]; then
    release_archive=$(scripts/release.sh | tail -n 1)
fi
scripts/release-test.sh "$release_archive"

log "test"
independent=$(mktemp -d)
test_log=$(mktemp)
# A crash prints the crashed thread's backtrace only (every thread's, symbolicated, took minutes and thousands of
# lines), and then one line naming the tests that were running, read from Swift Testing's own progress lines.
status=0
SWIFT_BACKTRACE=enable=yes,interactive=no,threads=crashed,registers=none,images=none,limit=64,top=16 \
    PASSKEYS_INDEPENDENT_VERIFIER_DIR=$independent swift test --skip-build 2>&1 | tee "$test_log" || status=${PIPESTATUS[0]}
if [ "$status" != 0 ]; then
    grep -q '^.\{1,4\} Test run with [0-9]* tests\{0,1\} in ' "$test_log" || scripts/unfinished-tests.py "$test_log" "$status"
    exit "$status"
fi

log "independent verifier (py_webauthn checks the software authenticator's responses)"
.build/external-venv/bin/python Tests/External/verify_software_authenticator.py "$independent"
