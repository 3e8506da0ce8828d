// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for the WebAuthn library's parsers and verification. Build and run with ./run.sh:
// it builds with `-Xswiftc -sanitize=fuzzer,address`, which instruments every Swift module (the library
// included) and links libFuzzer; a plain `swift build` cannot link the targets.
let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "swift-passkeys-fuzz",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(name: "swift-passkeys", path: ".."),
    ],
    targets: [
        // libFuzzer's LLVMFuzzerRunDriver, declared for Swift.
        .target(name: "CFuzzerDriver"),
        .target(
            name: "FuzzSupport",
            dependencies: ["CFuzzerDriver", .product(name: "WebAuthn", package: "swift-passkeys")],
            swiftSettings: settings
        ),
        .executableTarget(
            name: "FuzzCBOR",
            dependencies: ["FuzzSupport", .product(name: "WebAuthn", package: "swift-passkeys")],
            swiftSettings: settings
        ),
        .executableTarget(
            name: "FuzzAuthenticatorData",
            dependencies: ["FuzzSupport", .product(name: "WebAuthn", package: "swift-passkeys")],
            swiftSettings: settings
        ),
        .executableTarget(
            name: "FuzzAttestationObject",
            dependencies: ["FuzzSupport", .product(name: "WebAuthn", package: "swift-passkeys")],
            swiftSettings: settings
        ),
        // Differential: the JSON and base64url fast paths against JSONDecoder and the reference decoder.
        .executableTarget(
            name: "FuzzJSONFastPath",
            dependencies: ["FuzzSupport", .product(name: "WebAuthn", package: "swift-passkeys")],
            swiftSettings: settings
        ),
        .executableTarget(
            name: "FuzzRegistrationJSON",
            dependencies: ["FuzzSupport", .product(name: "WebAuthn", package: "swift-passkeys")],
            swiftSettings: settings
        ),
        .executableTarget(
            name: "FuzzAuthenticationJSON",
            dependencies: ["FuzzSupport", .product(name: "WebAuthn", package: "swift-passkeys")],
            swiftSettings: settings
        ),
    ],
    swiftLanguageModes: [.v6]
)
