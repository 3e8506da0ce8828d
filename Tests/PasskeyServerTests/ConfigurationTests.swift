import Foundation
import Logging
import PasskeyServer
import PasskeyStorage
import Testing
import WebAuthn

/// `ServerConfiguration`: the file format, validation (every error names its field), the precedence of file,
/// environment and flags, and the derived origin allowlist (DESIGN §4).
struct ConfigurationTests {
    typealias Database = ServerConfiguration.Database

    static func decode(_ json: String) throws(ConfigurationError) -> ServerConfiguration {
        try ServerConfiguration(jsonData: Data(json.utf8))
    }

    // MARK: The file

    @Test func sqliteSettingsNameAFileAndOptionallyHowOftenToSync() throws {
        #expect(try Database("sqlite:data/passkeys.sqlite") == .sqlite(SQLiteDatabase(path: "data/passkeys.sqlite")))
        let full = try Database("sqlite:/var/lib/passkeys.sqlite?synchronous=FULL")
        #expect(full == .sqlite(SQLiteDatabase(path: "/var/lib/passkeys.sqlite", syncsEveryCommit: true)))
        #expect(full.description == "sqlite:/var/lib/passkeys.sqlite?synchronous=full")
        #expect(try Database("sqlite:a.db?synchronous=normal") == .sqlite(SQLiteDatabase(path: "a.db")))
        #expect(try Database("postgres://localhost/db") == .postgres(url: "postgres://localhost/db"))
        #expect(try Database("postgresql://localhost/db") == .postgres(url: "postgresql://localhost/db"))
        #expect(try Database("memory") == .memory)
        let bad = ["sqlite:", "sqlite:?synchronous=full", "sqlite:a.db?synchronous=off", "sqlite:a.db?wal=1"]
        for setting in bad + ["mysql://db", "passkeys.sqlite"] {
            let parsed = #expect(throws: ConfigurationError.self, "\(setting)") { try Database(setting) }
            #expect(parsed?.field == "database")
            let decoded = #expect(throws: ConfigurationError.self, "\(setting)") {
                try Self.decode(#"{"database": "\#(setting)"}"#)
            }
            #expect(decoded == parsed, "the file's setting is refused as the parser refuses it")
            let fromEnvironment = #expect(throws: ConfigurationError.self, "\(setting)") {
                try ServerConfiguration.load(file: nil, environment: ["PASSKEYS_DATABASE": setting])
            }
            #expect(fromEnvironment?.field == "PASSKEYS_DATABASE")
            let fromFlag = #expect(throws: ConfigurationError.self, "\(setting)") {
                try ServerConfiguration.load(file: nil, environment: [:], overrides: .init(database: setting))
            }
            #expect(fromFlag?.field == "--database")
        }
    }

    @Test func anEmptyFileGivesTheDefaults() throws {
        let configuration = try Self.decode("{}")
        #expect(configuration == ServerConfiguration())
        #expect(configuration.rpId == "localhost")
        #expect(configuration.webOrigins == ["http://localhost:8080"])
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.database == .sqlite(SQLiteDatabase(path: "passkeys.sqlite")))
        #expect(configuration.apiKeys.isEmpty)
        #expect(configuration.policy.maxCredentialsPerUser == 10)
        #expect(configuration.policy.userVerification == .preferred)
        #expect(configuration.policy.residentKey == .required)
        #expect(configuration.policy.signCount == .reject)
        #expect(configuration.expiries.challenge == 120)
        #expect(configuration.expiries.resultToken == 60)
        #expect(configuration.limits.maxRequestBodyBytes == 65_536)
        #expect(configuration.limits.trustedProxies.isEmpty)
        #expect(configuration.limits.requestHeaderTimeoutSeconds == 10)
        #expect(configuration.limits.requestBodyTimeoutSeconds == 30)
        #expect(configuration.limits.idleTimeoutSeconds == 60)
        #expect(configuration.limits.maxConnections == 10_000)
        // The defaults themselves are valid.
        try configuration.validate()
    }

    @Test func thePortOfTheFileMovesTheDefaultOrigin() throws {
        let configuration = try Self.decode(#"{"port": 9000}"#)
        #expect(configuration.port == 9000)
        #expect(configuration.webOrigins == ["http://localhost:9000"])
    }

    @Test func aFullFileIsRead() throws {
        let configuration = try Self.decode(
            #"""
            {
              "rpId": "example.com", "rpName": "Example", "webOrigins": ["https://example.com"],
              "relatedOrigins": ["https://example.org"],
              "appleApps": [{"teamId": "ABCDE12345", "bundleId": "com.example.app"}],
              "androidApps": [{"packageName": "com.example.android", "sha256CertFingerprints": ["\#(WellKnownTests.fingerprint)"]}],
              "host": "0.0.0.0", "port": 443, "database": "postgres://db/passkeys",
              "apiKeys": [{"name": "backend", "sha256": "\#(String(repeating: "ab", count: 32))"}],
              "policy": {"userVerification": "required", "authenticatorAttachment": "platform", "attestation": "direct",
                         "attestationFormats": ["packed", "none"], "trustAnchors": {"packed": ["anchors/packed.pem"]},
                         "allowSyncedCredentials": false, "signCount": "report", "algorithms": [-7], "maxCredentialsPerUser": 3},
              "expiries": {"challenge": 60, "resultToken": 30},
              "limits": {"maxRequestBodyBytes": 4096, "clientRequestsPerMinute": 10, "trustedProxies": ["192.0.2.10"]}
            }
            """#
        )
        #expect(configuration.rpId == "example.com")
        #expect(configuration.relatedOrigins == ["https://example.org"])
        #expect(configuration.appleApps == [.init(teamId: "ABCDE12345", bundleId: "com.example.app")])
        #expect(configuration.androidApps.first?.packageName == "com.example.android")
        #expect(configuration.port == 443)
        #expect(configuration.apiKeys == [.init(name: "backend", sha256: String(repeating: "ab", count: 32))])
        #expect(configuration.policy.userVerification == .required)
        #expect(configuration.policy.authenticatorAttachment == .platform)
        #expect(configuration.policy.attestationFormats == [.packed, .none])
        #expect(configuration.policy.trustAnchors == ["packed": ["anchors/packed.pem"]])
        #expect(configuration.policy.signCount == .report)
        #expect(configuration.policy.maxCredentialsPerUser == 3)
        // Members left out of a section keep their defaults.
        #expect(configuration.expiries.challenge == 60)
        #expect(configuration.expiries.registrationAttempt == 600)
        #expect(configuration.limits.failedAssertionsPerCredential == 10)
        #expect(configuration.limits.trustedProxies == ["192.0.2.10"])
        try configuration.validate()
    }

    @Test(arguments: [
        (#"{"rpID": "example.com"}"#, "rpID"),
        (#"{"policy": {"maxCredentials": 3}}"#, "policy.maxCredentials"),
        (#"{"limits": {"maxBodyBytes": 1}}"#, "limits.maxBodyBytes"),
        (#"{"expiries": {"challenge": 60, "token": 5}}"#, "expiries.token"),
        (
            #"{"appleApps": [{"teamId": "ABCDE12345", "bundleId": "com.example.app", "bundleID": "com.example.typo"}]}"#,
            "appleApps[0].bundleID"
        ),
        (#"{"apiKeys": [{"name": "a", "key": "0123456789012345678901234", "scope": "admin"}]}"#, "apiKeys[0].scope"),
        (
            #"{"androidApps": [{"packageName": "p", "sha256CertFingerprints": [], "fingerprint": "x"}]}"#,
            "androidApps[0].fingerprint"
        ),
    ])
    func unknownSettingsAreRefusedNamingTheField(_ json: String, _ field: String) {
        let error = #expect(throws: ConfigurationError.self) { try Self.decode(json) }
        #expect(error?.field == field)
        #expect(error?.message.contains("not a known setting") == true)
    }

    @Test(arguments: [
        (#"{"port": "8080"}"#, "port"),
        (#"{"rpId": 5}"#, "rpId"),
        (#"{"rpId": null}"#, "rpId"),
        (#"{"webOrigins": "https://example.com"}"#, "webOrigins"),
        (#"{"webOrigins": ["https://example.com", 5]}"#, "webOrigins[1]"),
        (#"{"policy": {"maxCredentialsPerUser": "ten"}}"#, "policy.maxCredentialsPerUser"),
        (#"{"policy": {"signCount": "sometimes"}}"#, "policy.signCount"),
        (#"{"policy": "strict"}"#, "policy"),
        (#"{"limits": {"trustedProxies": "yes"}}"#, "limits.trustedProxies"),
        (#"{"appleApps": [{"teamId": 1, "bundleId": "com.example.app"}]}"#, "appleApps[0].teamId"),
        (#"{"apiKeys": [{"key": "0123456789012345678901234"}]}"#, "apiKeys[0].name"),
    ])
    func wrongTypesAreRefusedNamingTheField(_ json: String, _ field: String) {
        let error = #expect(throws: ConfigurationError.self) { try Self.decode(json) }
        #expect(error?.field == field, "\(String(describing: error))")
    }

    @Test(arguments: ["", "[]", "null", "\"config\"", "{", "rpId: example.com"])
    func aFileThatIsNotAnObjectIsRefused(_ text: String) {
        let error = #expect(throws: ConfigurationError.self) { try Self.decode(text) }
        #expect(error?.field == "(file)")
    }

    // MARK: Validation

    struct Rule: Sendable, CustomTestStringConvertible {
        let field: String
        let change: @Sendable (inout ServerConfiguration) -> Void
        var testDescription: String { field }
    }

    static let rules: [Rule] = [
        Rule(field: "rpId") { $0.rpId = "" },
        Rule(field: "rpId") { $0.rpId = "https://example.com" },
        Rule(field: "rpName") { $0.rpName = "" },
        Rule(field: "webOrigins") { $0.webOrigins = [] },
        Rule(field: "webOrigins[0]") { $0.webOrigins = ["localhost:8080"] },
        Rule(field: "webOrigins[0]") { $0.webOrigins = ["http://localhost:8080/login"] },
        Rule(field: "webOrigins[1]") { $0.webOrigins = ["http://localhost:8080", "ftp://localhost"] },
        Rule(field: "webOrigins[0]") {
            $0.rpId = "example.com"
            $0.webOrigins = ["http://example.com"]
        },
        Rule(field: "webOrigins[0]") {
            $0.rpId = "example.com"
            $0.webOrigins = ["https://example.org"]
        },
        Rule(field: "webOrigins[0]") {
            $0.rpId = "example.com"
            $0.webOrigins = ["https://notexample.com"]
        },
        Rule(field: "relatedOrigins[0]") { $0.relatedOrigins = ["http://example.org"] },
        Rule(field: "relatedOrigins[0]") { $0.relatedOrigins = ["https://example.org?x=1"] },
        Rule(field: "appleApps[0].teamId") {
            $0.appleApps = [.init(teamId: "abcde12345", bundleId: "com.example.app")]
        },
        Rule(field: "appleApps[0].teamId") { $0.appleApps = [.init(teamId: "ABCDE1234", bundleId: "com.example.app")] },
        Rule(field: "appleApps[0].bundleId") { $0.appleApps = [.init(teamId: "ABCDE12345", bundleId: "")] },
        Rule(field: "appleApps[0].bundleId") {
            $0.appleApps = [.init(teamId: "ABCDE12345", bundleId: "com.example app")]
        },
        Rule(field: "androidApps[0].packageName") {
            $0.androidApps = [.init(packageName: "", sha256CertFingerprints: [WellKnownTests.fingerprint])]
        },
        Rule(field: "androidApps[0].sha256CertFingerprints") {
            $0.androidApps = [.init(packageName: "com.example", sha256CertFingerprints: [])]
        },
        Rule(field: "androidApps[0].sha256CertFingerprints[1]") {
            $0.androidApps = [
                .init(packageName: "com.example", sha256CertFingerprints: [WellKnownTests.fingerprint, "AB:CD"])
            ]
        },
        Rule(field: "androidApps[0].sha256CertFingerprints[0]") {
            $0.androidApps = [
                .init(
                    packageName: "com.example",
                    sha256CertFingerprints: [WellKnownTests.fingerprint.replacingOccurrences(of: ":", with: "")]
                )
            ]
        },
        Rule(field: "androidApps[0].sha256CertFingerprints[0]") {
            $0.androidApps = [
                .init(
                    packageName: "com.example",
                    sha256CertFingerprints: ["ZZ" + WellKnownTests.fingerprint.dropFirst(2)]
                )
            ]
        },
        Rule(field: "port") { $0.port = -1 },
        Rule(field: "port") { $0.port = 65_536 },
        Rule(field: "apiKeys[1].name") { $0.apiKeys.append(.init(name: "", key: "0123456789012345678901234")) },
        Rule(field: "apiKeys[0].key") { $0.apiKeys = [.init(name: "short", key: "0123456789")] },
        Rule(field: "apiKeys[0].sha256") { $0.apiKeys = [.init(name: "hash", sha256: "abc")] },
        Rule(field: "apiKeys[0].sha256") {
            $0.apiKeys = [.init(name: "hash", sha256: String(repeating: "g", count: 64))]
        },
        Rule(field: "apiKeys[0]") { $0.apiKeys = [.init(name: "neither")] },
        Rule(field: "apiKeys[0]") {
            $0.apiKeys = [
                .init(name: "both", key: "0123456789012345678901234", sha256: String(repeating: "a", count: 64))
            ]
        },
        Rule(field: "policy.algorithms[1]") { $0.policy.algorithms = [-7, 12_345] },
        Rule(field: "policy.algorithms") { $0.policy.algorithms = [] },
        Rule(field: "policy.trustAnchors.x-unknown") { $0.policy.trustAnchors = ["x-unknown": ["a.pem"]] },
        Rule(field: "policy.maxCredentialsPerUser") { $0.policy.maxCredentialsPerUser = 0 },
        Rule(field: "policy.maxCredentialsPerUser") { $0.policy.maxCredentialsPerUser = 101 },
        Rule(field: "expiries.challenge") { $0.expiries.challenge = 4 },
        Rule(field: "expiries.registrationAttempt") { $0.expiries.registrationAttempt = 86_401 },
        Rule(field: "expiries.authenticationSession") { $0.expiries.authenticationSession = 0 },
        Rule(field: "expiries.resultToken") { $0.expiries.resultToken = -1 },
        Rule(field: "expiries.reservation") { $0.expiries.reservation = 1 },
        Rule(field: "limits.maxRequestBodyBytes") { $0.limits.maxRequestBodyBytes = 1023 },
        Rule(field: "limits.clientRequestsPerMinute") { $0.limits.clientRequestsPerMinute = 0 },
        Rule(field: "limits.failedAssertionsPerCredential") { $0.limits.failedAssertionsPerCredential = -1 },
        Rule(field: "limits.failedAssertionsPerIP") { $0.limits.failedAssertionsPerIP = 0 },
        Rule(field: "limits.failureWindowSeconds") { $0.limits.failureWindowSeconds = 0 },
        Rule(field: "limits.maxRequestBodyBytes") { $0.limits.maxRequestBodyBytes = 16 * 1024 * 1024 + 1 },
        Rule(field: "limits.idleTimeoutSeconds") { $0.limits.idleTimeoutSeconds = 0 },
        Rule(field: "limits.idleTimeoutSeconds") { $0.limits.idleTimeoutSeconds = 3_601 },
        Rule(field: "limits.requestHeaderTimeoutSeconds") { $0.limits.requestHeaderTimeoutSeconds = 0 },
        Rule(field: "limits.requestHeaderTimeoutSeconds") { $0.limits.requestHeaderTimeoutSeconds = 301 },
        Rule(field: "limits.requestBodyTimeoutSeconds") { $0.limits.requestBodyTimeoutSeconds = -1 },
        Rule(field: "limits.maxConnections") { $0.limits.maxConnections = 0 },
        Rule(field: "limits.maxConnections") { $0.limits.maxConnections = 1_000_001 },
        Rule(field: "retention.auditDays") { $0.retention.auditDays = -1 },
        Rule(field: "retention.auditDays") { $0.retention.auditDays = 36_501 },
        Rule(field: "retention.purgeIntervalSeconds") { $0.retention.purgeIntervalSeconds = 9 },
        Rule(field: "retention.purgeBatch") { $0.retention.purgeBatch = 0 },
        Rule(field: "retention.purgeBatch") { $0.retention.purgeBatch = 100_001 },
        Rule(field: "audit.checkpointIntervalSeconds") { $0.audit.checkpointIntervalSeconds = 9 },
        Rule(field: "audit.checkpointIntervalSeconds") { $0.audit.checkpointIntervalSeconds = 86_401 },
        Rule(field: "audit.checkpointKeyFile") { $0.audit.checkpointKeyFile = " " },
    ]

    static var valid: ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.apiKeys = [.init(name: "test", key: TestServer.apiKey)]
        return configuration
    }

    @Test(arguments: rules)
    func eachRuleNamesItsField(_ rule: Rule) {
        var configuration = Self.valid
        rule.change(&configuration)
        let error = #expect(throws: ConfigurationError.self) { try configuration.validate() }
        #expect(error?.field == rule.field, "\(String(describing: error))")
        #expect(error?.message.isEmpty == false)
        #expect(error?.description.contains("'\(rule.field)'") == true)
        // The service refuses to start with it.
        #expect(throws: ConfigurationError.self) {
            try PasskeyService(configuration: configuration, store: MemoryPasskeyStore())
        }
    }

    @Test func theLimitsOfEachRuleAreAccepted() throws {
        var configuration = Self.valid
        configuration.rpId = "example.com"
        configuration.webOrigins = ["https://example.com", "https://login.example.com:8443"]
        configuration.relatedOrigins = ["https://example.org", "http://localhost:3000", "http://127.0.0.1:9000"]
        configuration.appleApps = [.init(teamId: "ABCDE12345", bundleId: "com.example.app")]
        configuration.androidApps = [
            .init(packageName: "com.example", sha256CertFingerprints: [WellKnownTests.fingerprint.lowercased()])
        ]
        configuration.port = 65_535
        configuration.database = .memory
        configuration.apiKeys.append(.init(name: "hash", sha256: String(repeating: "A", count: 64)))
        configuration.policy.maxCredentialsPerUser = 100
        configuration.expiries.challenge = 5
        configuration.expiries.registrationAttempt = 86_400
        configuration.limits.maxRequestBodyBytes = 1024
        configuration.limits.idleTimeoutSeconds = 3_600
        configuration.limits.requestHeaderTimeoutSeconds = 300
        configuration.limits.requestBodyTimeoutSeconds = 1
        configuration.limits.maxConnections = 1_000_000
        try configuration.validate()
        // Apps alone are enough, without web origins.
        configuration.webOrigins = []
        try configuration.validate()
    }

    @Test func trustAnchorFilesAreReadWhenTheServiceStarts() throws {
        var configuration = Self.valid
        configuration.policy.trustAnchors = ["packed": ["/nonexistent/anchor.pem"]]
        let missing = #expect(throws: ConfigurationError.self) {
            try PasskeyService(configuration: configuration, store: MemoryPasskeyStore())
        }
        #expect(missing?.field == "policy.trustAnchors.packed[0]")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "passkey-config-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let notPEM = folder.appendingPathComponent("anchor.pem")
        try Data("not a certificate".utf8).write(to: notPEM)
        configuration.policy.trustAnchors = ["packed": [notPEM.path]]
        let unreadable = #expect(throws: ConfigurationError.self) {
            try PasskeyService(configuration: configuration, store: MemoryPasskeyStore())
        }
        #expect(unreadable?.field == "policy.trustAnchors.packed[0]")
    }

    // MARK: File < environment < flags

    static func withFile<Value>(
        _ text: String,
        named name: String = "passkeys.json",
        _ body: (String) throws -> Value
    ) throws -> Value {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "passkey-config-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return try body(file.path)
    }

    static let fileKey = "file-key-0123456789-abcdefghij"
    static let environmentKey = "environment-key-0123456789-abc"
    static let flagKey = "flag-key-0123456789-abcdefghij"
    static let file = #"""
        {"host": "0.0.0.0", "port": 7000, "database": "sqlite:file.sqlite", "rpName": "From the file",
         "apiKeys": [{"name": "file", "key": "\#(fileKey)"}]}
        """#
    static let environment = [
        "PASSKEYS_PORT": "7100", "PASSKEYS_HOST": "::", "PASSKEYS_DATABASE": "memory",
        "PASSKEYS_API_KEY": environmentKey,
        "UNRELATED": "ignored",
    ]

    @Test func theFileAloneIsUsed() throws {
        let configuration = try Self.withFile(Self.file) { path in
            try ServerConfiguration.load(file: path, environment: ["UNRELATED": "x"])
        }
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.port == 7000)
        #expect(configuration.database == .sqlite(SQLiteDatabase(path: "file.sqlite")))
        #expect(configuration.rpName == "From the file")
        #expect(configuration.apiKeys == [.init(name: "file", key: Self.fileKey)])
        #expect(configuration.webOrigins == ["http://localhost:7000"])
    }

    @Test func theEnvironmentOverridesTheFile() throws {
        let configuration = try Self.withFile(Self.file) { path in
            try ServerConfiguration.load(file: path, environment: Self.environment)
        }
        #expect(configuration.host == "::")
        #expect(configuration.port == 7100)
        #expect(configuration.database == .memory)
        #expect(configuration.rpName == "From the file")
        #expect(
            configuration.apiKeys == [
                .init(name: "file", key: Self.fileKey), .init(name: "command-line", key: Self.environmentKey),
            ]
        )
        #expect(configuration.webOrigins == ["http://localhost:7100"])
    }

    @Test func flagsOverrideTheEnvironment() throws {
        let configuration = try Self.withFile(Self.file) { path in
            try ServerConfiguration.load(
                file: path,
                environment: Self.environment,
                overrides: .init(
                    port: 7200,
                    host: "127.0.0.1",
                    database: "postgres://db/passkeys",
                    apiKey: Self.flagKey
                )
            )
        }
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 7200)
        #expect(configuration.database == .postgres(url: "postgres://db/passkeys"))
        #expect(
            configuration.apiKeys == [
                .init(name: "file", key: Self.fileKey), .init(name: "command-line", key: Self.flagKey),
            ]
        )
        #expect(configuration.webOrigins == ["http://localhost:7200"])
    }

    @Test func originsTheFileSetsStayWhenThePortMoves() throws {
        let configuration = try Self.withFile(#"{"webOrigins": ["http://localhost:3000"], "port": 7000}"#) { path in
            try ServerConfiguration.load(file: path, environment: [:], overrides: .init(port: 7300))
        }
        #expect(configuration.port == 7300)
        #expect(configuration.webOrigins == ["http://localhost:3000"])
    }

    @Test func portZeroIsAcceptedAndTheChosenPortMovesTheDefaultOriginOnly() throws {
        let chosen = try ServerConfiguration.load(file: nil, environment: [:], overrides: .init(port: 0)).listening(
            on: 41_234
        )
        #expect(chosen.port == 41_234)
        #expect(chosen.webOrigins == ["http://localhost:41234"])
        let fromFile = try Self.withFile(#"{"webOrigins": ["http://localhost:3000"]}"#) { path in
            try ServerConfiguration.load(file: path, environment: [:], overrides: .init(port: 0))
        }
        #expect(fromFile.listening(on: 41_234).webOrigins == ["http://localhost:3000"])
    }

    @Test func withoutAFileTheDefaultsFollowThePort() throws {
        let fromEnvironment = try ServerConfiguration.load(file: nil, environment: ["PASSKEYS_PORT": "9100"])
        #expect(fromEnvironment.port == 9100)
        #expect(fromEnvironment.webOrigins == ["http://localhost:9100"])
        #expect(fromEnvironment.apiKeys.isEmpty)
        let fromFlags = try ServerConfiguration.load(
            file: nil,
            environment: ["PASSKEYS_PORT": "9100"],
            overrides: .init(port: 9200, apiKey: Self.flagKey)
        )
        #expect(fromFlags.port == 9200)
        #expect(fromFlags.webOrigins == ["http://localhost:9200"])
        #expect(fromFlags.apiKeys == [.init(name: "command-line", key: Self.flagKey)])
        #expect(fromFlags.baseURL == "http://localhost:9200")
    }

    @Test func loadingReportsTheFieldAtFault() throws {
        let port = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.load(file: nil, environment: ["PASSKEYS_PORT": "eighty"])
        }
        #expect(port?.field == "PASSKEYS_PORT")
        let missing = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.load(file: "/nonexistent/passkeys.json", environment: [:])
        }
        #expect(missing?.field == "--config")
        let range = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.load(file: nil, environment: [:], overrides: .init(port: 70_000))
        }
        #expect(range?.field == "port")
        let key = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.load(file: nil, environment: ["PASSKEYS_API_KEY": "short"])
        }
        #expect(key?.field == "apiKeys[0].key")
        let unknown = try Self.withFile(#"{"prot": 1}"#) { path in
            #expect(throws: ConfigurationError.self) { try ServerConfiguration.load(file: path, environment: [:]) }
        }
        #expect(unknown?.field == "prot")
    }

    @Test func theLogLevelComesFromTheEnvironmentOrTheFlagAndNamesItsSource() throws {
        #expect(try ServerConfiguration.load(file: nil, environment: [:]).logLevel == .info)
        let environment = ["PASSKEYS_LOG_LEVEL": "debug"]
        #expect(try ServerConfiguration.load(file: nil, environment: environment).logLevel == .debug)
        let flag = try ServerConfiguration.load(
            file: nil,
            environment: environment,
            overrides: .init(logLevel: "notice")
        )
        #expect(flag.logLevel == .notice)
        let badVariable = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.load(file: nil, environment: ["PASSKEYS_LOG_LEVEL": "loud"])
        }
        #expect(badVariable?.field == "PASSKEYS_LOG_LEVEL")
        #expect(
            badVariable?.message == "must be one of trace, debug, info, notice, warning, error, critical, not 'loud'"
        )
        let badFlag = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.load(file: nil, environment: environment, overrides: .init(logLevel: "loud"))
        }
        #expect(badFlag?.field == "--log-level")
        // Not a file setting: the file format is what it was.
        let inFile = #expect(throws: ConfigurationError.self) { try Self.decode(#"{"logLevel": "debug"}"#) }
        #expect(inFile?.field == "logLevel")
    }

    @Test func theIdentityVerificationOverrideIsValidatedWithTheRest() throws {
        let simulated = try ServerConfiguration.load(
            file: nil,
            environment: [:],
            overrides: .init(identityVerification: .simulated)
        )
        #expect(simulated.identityVerification.provider == .simulated)
        let file =
            #"{"rpId": "example.com", "webOrigins": ["https://example.com"], "apiKeys": [{"name": "a", "key": "\#(Self.fileKey)"}]}"#
        let outsideLocalhost = try Self.withFile(file) { path in
            #expect(throws: ConfigurationError.self) {
                try ServerConfiguration.load(
                    file: path,
                    environment: [:],
                    overrides: .init(identityVerification: .simulated)
                )
            }
        }
        #expect(outsideLocalhost?.field == "identityVerification.provider")
    }

    // MARK: The origin allowlist

    static func apkKeyHash(_ bytes: [UInt8]) -> String {
        "android:apk-key-hash:"
            + Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(
                of: "=",
                with: ""
            )
    }

    @Test func allowedOriginsAreWebRelatedAppleAndAndroidOrigins() {
        var configuration = Self.valid
        configuration.rpId = "example.com"
        configuration.webOrigins = ["https://login.example.com", "https://example.com:8443"]
        configuration.relatedOrigins = ["https://example.org", "https://login.example.com"]
        configuration.appleApps = [
            .init(teamId: "ABCDE12345", bundleId: "com.example.app"),
            .init(teamId: "ABCDE12345", bundleId: "com.example.other"),
        ]
        let other = (0..<32).map { String(format: "%02x", 255 - $0) }.joined(separator: ":")
        configuration.androidApps = [
            .init(packageName: "com.example.android", sha256CertFingerprints: [WellKnownTests.fingerprint, other]),
            .init(packageName: "com.example.lite", sha256CertFingerprints: [WellKnownTests.fingerprint.lowercased()]),
        ]
        #expect(
            configuration.allowedOrigins == [
                "https://login.example.com", "https://example.com:8443", "https://example.org", "https://example.com",
                Self.apkKeyHash(WellKnownTests.fingerprintBytes), Self.apkKeyHash((0..<32).map { 255 - UInt8($0) }),
            ]
        )
    }

    @Test func withoutAppleAppsTheRPIDOriginIsNotAdded() {
        var configuration = Self.valid
        configuration.rpId = "example.com"
        configuration.webOrigins = ["https://login.example.com"]
        #expect(configuration.allowedOrigins == ["https://login.example.com"])
        #expect(ServerConfiguration().allowedOrigins == ["http://localhost:8080"])
    }
}
