#!/usr/bin/env bash
# Builds the release archive of `passkeys`: the executable with the Swift runtime and Foundation linked in
# (--static-swift-stdlib: it needs only the system's C libraries), its resources, the systemd unit, an example
# configuration, the nginx configuration and the docs. docs/deploy/README.md says how to install it.
#
# Usage: scripts/release.sh [--build-path DIR] [--out DIR]
#   --build-path  SwiftPM's build folder (default .build-release); a folder that holds a release build already is
#                 brought up to date, not built again
#   --out         where the archive goes (default .build-release/dist)
# Prints the archive's path as its last line. scripts/release-test.sh checks an archive.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
build_path=.build-release
out=""
while [ $# -gt 0 ]; do
    case "$1" in
        --build-path) build_path=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        *) echo "release: unknown argument '$1' (usage: scripts/release.sh [--build-path DIR] [--out DIR])." >&2; exit 2 ;;
    esac
done
out=${out:-$build_path/dist}

command -v swift >/dev/null || { echo "release: swift is not on PATH: install a Swift 6.1+ toolchain first." >&2; exit 1; }
# Foundation's networking, linked in statically, needs libcurl at link time (and libcurl4 where it runs).
[ -e "/usr/lib/$(uname -m)-linux-gnu/libcurl.so" ] || {
    echo "release: libcurl's link library is missing: install Debian's libcurl4-openssl-dev first." >&2
    exit 1
}
swift build -c release --static-swift-stdlib --product passkeys --build-path "$build_path" >&2
products=$(swift build -c release --static-swift-stdlib --product passkeys --build-path "$build_path" --show-bin-path)

version=$(git describe --tags --always --dirty 2>/dev/null || echo unversioned)
name="passkeys-$version-linux-$(uname -m)"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
package="$stage/$name"
mkdir -p "$package/bin" "$package/etc" "$package/systemd" "$package/docs"

# The debug information goes (it is most of the file); the symbol table stays, for readable crash backtraces.
strip --strip-debug -o "$package/bin/passkeys" "$products/passkeys"
# SwiftPM's resource bundles are found beside the executable.
for bundle in "$products"/*.resources; do
    cp -R "$bundle" "$package/bin/"
done
cp docs/deploy/passkeys.service "$package/systemd/"
cp docs/deploy/passkeys.yaml "$package/etc/"
cp -R docs/. "$package/docs/"
cp README.md SECURITY.md "$package/"
echo "$version" >"$package/VERSION"

mkdir -p "$out"
archive="$(cd "$out" && pwd)/$name.tar.gz"
tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$archive" "$name"
echo "release: $(du -h "$archive" | cut -f1) archive, passkeys $(du -h "$package/bin/passkeys" | cut -f1)" >&2
echo "$archive"
