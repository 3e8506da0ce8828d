#!/usr/bin/env bash
# Type-checks the Apple adapters (Sources/PasskeyClient/Apple) on Linux, where Apple's frameworks do not exist:
# the whole PasskeyClient module is type-checked against stand-in modules (Tests/AppleStandIns) whose
# declarations are transcribed from Apple's SDK interfaces, so `canImport(AuthenticationServices)` and the other
# Apple branches are taken. Same Swift 6 settings as Package.swift. It catches wrong names, labels, types,
# optionality and actor isolation; it cannot catch availability, Objective-C runtime behaviour, or anything at
# run time (docs/sdk.md). Then the iOS example of docs/sdk.md is type-checked against that module and a SwiftUI
# stand-in. Reuses .build: run `swift build --target PasskeyClient` first, or let this do it.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=$(swift build --show-bin-path)
if [ ! -f "$bin/Modules/WebAuthn.swiftmodule" ] || [ ! -f "$bin/Modules/Crypto.swiftmodule" ]; then
    swift build --target PasskeyClient
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

settings=(-swift-version 6
    -enable-upcoming-feature ExistentialAny
    -enable-upcoming-feature MemberImportVisibility
    -enable-upcoming-feature InternalImportsByDefault)

# swift-crypto's C modules, which its Swift modules import.
clang_modules=()
for map in .build/checkouts/swift-crypto/Sources/*/include/module.modulemap; do
    clang_modules+=(-Xcc "-fmodule-map-file=$PWD/$map" -Xcc -I -Xcc "$PWD/$(dirname "$map")")
done

stand_in() { # the module's name; its file is Tests/AppleStandIns/<name>.swift
    local name=$1
    swiftc -emit-module -parse-as-library "${settings[@]}" -module-name "$name" \
        -emit-module-path "$work/$name.swiftmodule" -I "$work" "Tests/AppleStandIns/$name.swift"
}
stand_in AuthenticationServices
stand_in LocalAuthentication
stand_in Security
stand_in CryptoKit

sources=()
while IFS= read -r file; do sources+=("$file"); done < <(find Sources/PasskeyClient -name '*.swift' | sort)

swiftc -emit-module -parse-as-library "${settings[@]}" -module-name PasskeyClient -package-name swift_passkeys \
    -emit-module-path "$work/PasskeyClient.swiftmodule" \
    -I "$work" -I "$bin/Modules" "${clang_modules[@]}" -module-cache-path "$work/cache" \
    -warnings-as-errors "${sources[@]}"
echo "The Apple adapters type-check against the stand-in declarations (${#sources[@]} files of PasskeyClient)."

# The iOS example of docs/sdk.md (the first Swift block under "## iOS integration"), as an app would compile it
# against the module above.
stand_in SwiftUI
awk '/^## iOS integration/ { section = 1; next } section && /^```swift/ { code = 1; next }
    code && /^```/ { exit } code { print }' docs/sdk.md >"$work/Example.swift"
[ -s "$work/Example.swift" ] || { echo "docs/sdk.md has no Swift block under '## iOS integration'." >&2; exit 1; }
swiftc -typecheck -parse-as-library "${settings[@]}" -module-name Example \
    -I "$work" -I "$bin/Modules" "${clang_modules[@]}" -module-cache-path "$work/cache" \
    -warnings-as-errors "$work/Example.swift"
echo "The iOS example of docs/sdk.md ($(wc -l <"$work/Example.swift") lines) type-checks against them."
