// swift-tools-version: 6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "swift-passkeys",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "WebAuthn", targets: ["WebAuthn"]),
        .library(name: "PasskeyTesting", targets: ["PasskeyTesting"]),
        .library(name: "PasskeyStorage", targets: ["PasskeyStorage"]),
        .library(name: "PasskeyStorePostgres", targets: ["PasskeyStorePostgres"]),
        .executable(name: "passkeys", targets: ["passkeys"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        .target(
            name: "WebAuthn",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strictSettings
        ),
        .target(name: "PasskeyStorage", swiftSettings: strictSettings),
        .target(
            name: "PasskeyStorePostgres",
            dependencies: [
                "PasskeyStorage",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PasskeyTesting",
            dependencies: [
                "WebAuthn",
                "PasskeyStorage",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PasskeysCommandLine",
            dependencies: [
                "WebAuthn",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "passkeys",
            dependencies: ["PasskeysCommandLine"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebAuthnTests",
            dependencies: [
                "WebAuthn",
                "PasskeyTesting",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PasskeyStorageTests",
            dependencies: ["PasskeyStorage", "PasskeyTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PasskeyStorePostgresTests",
            dependencies: [
                "PasskeyStorePostgres",
                "PasskeyStorage",
                "PasskeyTesting",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PasskeysCommandLineTests",
            dependencies: ["PasskeysCommandLine", "WebAuthn"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
