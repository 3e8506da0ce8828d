#!/usr/bin/env bash
# Checks a release archive (scripts/release.sh) the way a machine without Swift runs it: unpacks it into a clean
# folder, checks its contents and its systemd unit (systemd-analyze verify, and its security score at most 2.0), then — in a private mount namespace
# where this checkout and the Swift toolchain's folder are hidden under empty file systems — checks that `ldd` lists
# no Swift library, starts the archive's `passkeys serve` with the example configuration, an empty environment
# (PATH=/usr/bin:/bin) and a fresh SQLite file, and registers and signs in with the archive's own CLI.
#
# Usage: scripts/release-test.sh ARCHIVE
set -euo pipefail

if [ "${PASSKEYS_RELEASE_TEST_INSIDE:-}" != 1 ]; then
    archive=${1:?usage: scripts/release-test.sh ARCHIVE (made by scripts/release.sh)}
    [ -f "$archive" ] || { echo "release test: no archive at '$archive'; make one with scripts/release.sh." >&2; exit 2; }
    archive="$(cd "$(dirname "$archive")" && pwd)/$(basename "$archive")"
    root="$(cd "$(dirname "$0")/.." && pwd)"
    for tool in tar ldd unshare curl systemd-analyze; do
        command -v "$tool" >/dev/null || { echo "release test: $tool is not installed (scripts/test.sh installs it)." >&2; exit 2; }
    done
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    tar -C "$work" -xzf "$archive"
    package=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'passkeys-*')
    for file in bin/passkeys bin/swift-passkeys_PasskeyServer.resources systemd/passkeys.service etc/passkeys.yaml \
        docs/deploy/README.md docs/deploy/nginx.conf docs/server.md README.md VERSION; do
        [ -e "$package/$file" ] || { echo "release test: the archive has no $file." >&2; exit 1; }
    done
    echo "release test: unpacked $(basename "$package") into a clean folder"

    # systemd checks that the command exists: the copy it verifies runs the unpacked one.
    mkdir -p "$work/unit"
    sed "s|/opt/passkeys/current/bin/passkeys|$package/bin/passkeys|" "$package/systemd/passkeys.service" \
        >"$work/unit/passkeys.service"
    systemd-analyze verify "$work/unit/passkeys.service" || {
        echo "release test: systemd-analyze verify found fault with the unit (above)." >&2
        exit 1
    }
    # The exposure score (0 safest, 10 worst) of the unit as written; systemd-analyze lists what it counts against it.
    exposure=$(systemd-analyze security --offline=true --no-pager "$work/unit/passkeys.service" \
        | sed -n 's/^→ Overall exposure level for passkeys.service: \([0-9.]*\).*/\1/p')
    [ -n "$exposure" ] || { echo "release test: systemd-analyze security gave no exposure score." >&2; exit 1; }
    awk -v score="$exposure" 'BEGIN { exit !(score <= 2.0) }' || {
        systemd-analyze security --offline=true --no-pager "$work/unit/passkeys.service" | grep '✗' >&2
        echo "release test: the unit's exposure score is $exposure, above 2.0: it lost some of its hardening (above)." >&2
        exit 1
    }
    echo "release test: systemd-analyze verify accepts the unit; its exposure score is $exposure (of 10, lower is safer)"

    hide=("$root")
    if command -v swift >/dev/null; then hide+=("$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")"); fi
    cp "$0" "$work/release-test.sh"
    namespace=(--mount)
    [ "$(id -u)" = 0 ] || namespace=(--user --map-root-user --mount)
    # shellcheck disable=SC2016
    unshare "${namespace[@]}" sh -c 'work=$1; package=$2; shift 2
        for folder in "$@"; do mount -t tmpfs -o ro none "$folder" || exit 1; done
        exec env -i PATH=/usr/bin:/bin PASSKEYS_RELEASE_TEST_INSIDE=1 bash "$work/release-test.sh" "$work" "$package" "$@"' \
        sh "$work" "$package" "${hide[@]}"
    exit 0
fi

# --- Inside: an empty environment, the checkout and the toolchain hidden -----------------------------------------
work=$1
package=$2
shift 2
echo "release test: hidden under empty file systems: $*; PATH=$PATH"
if command -v swift >/dev/null; then
    echo "release test: swift is still reachable at $(command -v swift)." >&2
    exit 1
fi
libraries=$(ldd "$package/bin/passkeys")
if grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime|_FoundationICU|not found' <<<"$libraries"; then
    echo "release test: the executable needs the Swift libraries above, or a library that is missing." >&2
    exit 1
fi
echo "release test: ldd lists only system libraries: $(awk '{print $1}' <<<"$libraries" | xargs -n 1 basename | tr '\n' ' ')"

api_key="pk_release_$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')"
mkdir "$work/state"
cd "$work/state"
PASSKEYS_API_KEY=$api_key "$package/bin/passkeys" serve --config "$package/etc/passkeys.yaml" --host 127.0.0.1 \
    --port 0 --database "sqlite:$work/state/passkeys.sqlite" >"$work/server.log" 2>&1 &
server=$!
stop() {
    kill -TERM "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
}
fail() {
    echo "release test: $*" >&2
    tail -n 30 "$work/server.log" >&2
    stop
    exit 1
}
deadline=$((SECONDS + 60))
port=""
while [ -z "$port" ]; do
    kill -0 "$server" 2>/dev/null || fail "the server exited at start."
    [ "$SECONDS" -lt "$deadline" ] || fail "the server did not listen within 60 s."
    sleep 0.2
    port=$(sed -n 's|^passkeys serving http://localhost:\([0-9]*\).*|\1|p' "$work/server.log" | head -n 1)
done
base="http://localhost:$port"
curl -fsS "$base/health" | grep -q '"ok"' || fail "GET /health did not answer ok."
curl -fsS "$base/" | grep -qi '<html' || fail "the demo page (drawn from the packed resources) did not load."

device=(env PASSKEYS_API_KEY="$api_key" PASSKEYS_KEY_STORE="$work/keys.json" PASSKEYS_KEY_STORE_PASSPHRASE=release-test)
"${device[@]}" "$package/bin/passkeys" register --server "$base" --origin https://example.com --user release \
    >"$work/register.out" 2>&1 || { cat "$work/register.out" >&2; fail "registration with the archive's CLI failed."; }
"${device[@]}" "$package/bin/passkeys" sign-in --server "$base" --origin https://example.com --user release \
    >"$work/sign-in.out" 2>&1 || { cat "$work/sign-in.out" >&2; fail "sign-in with the archive's CLI failed."; }
stop
echo "release test: the archive's server (example configuration) registered and signed in its own CLI at $base"
echo "release test: passed"
