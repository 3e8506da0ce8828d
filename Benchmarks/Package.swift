// swift-tools-version: 6.1
import PackageDescription

// Benchmarks for the WebAuthn library, kept in their own package so that the library itself does not
// depend on the benchmark harness. Run with `swift package benchmark` from this folder.
let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "swift-passkeys-benchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "swift-passkeys", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
    ],
    targets: [
        // Fixtures built with the package's TestAuthenticator, shared by the benchmarks and the profiling tool.
        .target(
            name: "BenchmarkFixtures",
            dependencies: [
                .product(name: "WebAuthn", package: "swift-passkeys"),
                .product(name: "PasskeyTesting", package: "swift-passkeys"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: settings
        ),
        // A plain loop over one verification, for `valgrind --tool=callgrind` (see docs/benchmarks.md).
        .executableTarget(
            name: "ProfileVerification",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "WebAuthn", package: "swift-passkeys"),
            ],
            swiftSettings: settings
        ),
        // A load generator that drives a running `passkeys serve` over HTTP (see Benchmarks/http-load.sh).
        .executableTarget(
            name: "CeremonyLoad",
            dependencies: [
                .product(name: "WebAuthn", package: "swift-passkeys"),
                .product(name: "PasskeyTesting", package: "swift-passkeys"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: settings
        ),
        // Fills a store for the scale runs of Benchmarks/http-load.sh (`--preload`).
        .executableTarget(
            name: "StoreSeed",
            dependencies: [
                .product(name: "PasskeyStorage", package: "swift-passkeys"),
                .product(name: "PasskeyStoreSQLite", package: "swift-passkeys"),
                .product(name: "PasskeyStorePostgres", package: "swift-passkeys"),
            ],
            swiftSettings: settings
        ),
        // GRDB against the SQLite C API for the SQLite store's operations (see docs/benchmarks.md).
        .executableTarget(
            name: "SQLiteEngines",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: settings
        ),
        .executableTarget(
            name: "WebAuthnBenchmarks",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "WebAuthn", package: "swift-passkeys"),
            ],
            path: "Benchmarks/WebAuthnBenchmarks",
            swiftSettings: settings,
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
