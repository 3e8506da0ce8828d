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
        .library(name: "PasskeyServer", targets: ["PasskeyServer"]),
        .library(name: "PasskeyStoreSQLite", targets: ["PasskeyStoreSQLite"]),
        .library(name: "PasskeyStorePostgres", targets: ["PasskeyStorePostgres"]),
        .library(name: "PasskeyClient", targets: ["PasskeyClient"]),
        .library(name: "QRCode", targets: ["QRCode"]),
        .executable(name: "passkeys", targets: ["passkeys"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", from: "1.6.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/LebJe/TOMLKit.git", .upToNextMinor(from: "0.6.0")),
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
        .target(
            name: "PasskeyStorage",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings
        ),
        .target(name: "QRCode", swiftSettings: strictSettings),
        .target(
            name: "PasskeyServer",
            dependencies: [
                "WebAuthn",
                "PasskeyStorage",
                "QRCode",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Yams", package: "Yams"),
            ],
            resources: [.copy("Resources/passkey-provider-names.json"), .copy("Resources/Web")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PasskeyClient",
            dependencies: [
                "WebAuthn",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PasskeyStoreSQLite",
            dependencies: [
                "PasskeyStorage",
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
            ],
            swiftSettings: strictSettings
        ),
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
                "PasskeyClient",
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
                "PasskeyClient",
                "PasskeyServer",
                "PasskeyStorage",
                "PasskeyStoreSQLite",
                "PasskeyStorePostgres",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
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
                "CorpusTestSupport",
                "PasskeyTesting",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PasskeyServerTests",
            dependencies: [
                "PasskeyServer",
                "ProcessTestSupport",
                "PasskeyStorePostgres",
                "PostgresTestSupport",
                "PasskeyStorage",
                "PasskeyStoreSQLite",
                "PasskeyTesting",
                "WebAuthn",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PasskeyClientTests",
            dependencies: [
                "PasskeyClient",
                "ProcessTestSupport",
                "PasskeyTesting",
                "WebAuthn",
                "PasskeyServer",
                "PasskeyStorage",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "QRCodeTests",
            dependencies: ["QRCode", "ProcessTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PasskeyStorageTests",
            dependencies: ["PasskeyStorage", "PasskeyTesting", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PasskeyStoreSQLiteTests",
            dependencies: [
                "PasskeyStoreSQLite",
                "PasskeyStorage",
                "PasskeyTesting",
                "ProcessTestSupport",
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PostgresTestSupport",
            dependencies: ["PasskeyStorePostgres", .product(name: "PostgresNIO", package: "postgres-nio")],
            path: "Tests/PostgresTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PasskeyStorePostgresTests",
            dependencies: [
                "PasskeyStorePostgres",
                "PostgresTestSupport",
                "PasskeyStorage",
                "PasskeyTesting",
                "ProcessTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "BrowserTestSupport",
            dependencies: [
                "WebAuthn",
                "ProcessTestSupport",
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/BrowserTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BrowserTests",
            dependencies: [
                "BrowserTestSupport",
                "ProcessTestSupport",
                "WebAuthn",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PasskeysCommandLineTests",
            dependencies: [
                "PasskeysCommandLine", "WebAuthn", "PasskeyServer", "PasskeyStorage", "PasskeyClient",
                "CorpusTestSupport", "ProcessTestSupport", "PasskeyStoreSQLite", "PasskeyTesting",
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ProcessTestSupport",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/ProcessTestSupport",
            swiftSettings: strictSettings
        ),
        .target(
            name: "CorpusTestSupport",
            path: "Tests/CorpusTestSupport",
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
