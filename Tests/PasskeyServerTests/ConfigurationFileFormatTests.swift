import Foundation
import PasskeyServer
import Testing
import WebAuthn

/// Configuration files in JSON, YAML and TOML: one tree for all three, so the same settings decode to the same
/// configuration and every problem is reported with the same field and message (DESIGN §4).
struct ConfigurationFileFormatTests {
    static let anchorHash = String(repeating: "ab", count: 32)
    static let opsKey = "ops-key-0123456789-abcdefghij"
    static let sessionSecret = "session-secret-0123456789-abcdefghij"

    /// One non-trivial configuration, written in each format.
    static let full: [ConfigurationFileFormat: String] = [
        .json:
            #"""
        {
          "rpId": "example.com", "rpName": "Example",
          "webOrigins": ["https://example.com", "https://login.example.com"],
          "relatedOrigins": ["https://example.org"],
          "appleApps": [{"teamId": "ABCDE12345", "bundleId": "com.example.app"}],
          "androidApps": [{"packageName": "com.example.android", "sha256CertFingerprints": ["\#(WellKnownTests.fingerprint)"]}],
          "host": "0.0.0.0", "port": 8443, "database": "postgres://passkeys@db.internal/passkeys",
          "apiKeys": [{"name": "backend", "sha256": "\#(anchorHash)"}, {"name": "ops", "key": "\#(opsKey)"}],
          "policy": {
            "userVerification": "required", "authenticatorAttachment": "platform", "attestation": "direct",
            "attestationFormats": ["packed", "apple"],
            "trustAnchors": {"packed": ["anchors/packed.pem", "anchors/yubico.pem"], "apple": ["anchors/apple.pem"]},
            "requireTrustedAttestation": true, "allowSyncedCredentials": false, "signCount": "report",
            "algorithms": [-7, -257], "maxCredentialsPerUser": 5
          },
          "expiries": {"challenge": 90, "resultToken": 30},
          "limits": {"maxRequestBodyBytes": 32768, "clientRequestsPerMinute": 120, "trustedProxies": ["10.0.0.0/8", "2001:db8::1"]},
          "retention": {"auditDays": 0, "purgeIntervalSeconds": 60},
          "web": {"demo": false, "sessionSecret": "\#(sessionSecret)", "sessionLifetime": 3600}
        }
        """#,
        .yaml:
            """
        # The relying party
        rpId: example.com
        rpName: Example
        webOrigins:
          - https://example.com
          - https://login.example.com
        relatedOrigins: [https://example.org]
        appleApps:
          - teamId: ABCDE12345
            bundleId: com.example.app
        androidApps:
          - packageName: com.example.android
            sha256CertFingerprints: ["\(WellKnownTests.fingerprint)"]
        host: 0.0.0.0
        port: 8443
        database: postgres://passkeys@db.internal/passkeys
        apiKeys:
          - {name: backend, sha256: \(anchorHash)}
          - name: ops
            key: '\(opsKey)'
        policy:
          userVerification: required
          authenticatorAttachment: platform
          attestation: direct
          attestationFormats: [packed, apple]
          trustAnchors:
            packed: [anchors/packed.pem, anchors/yubico.pem]
            apple:
              - anchors/apple.pem
          requireTrustedAttestation: true
          allowSyncedCredentials: false
          signCount: report
          algorithms: [-7, -257]
          maxCredentialsPerUser: 5
        expiries: {challenge: 90, resultToken: 30}
        limits:
          maxRequestBodyBytes: 32768
          clientRequestsPerMinute: 120
          trustedProxies: [10.0.0.0/8, "2001:db8::1"]
        retention: {auditDays: 0, purgeIntervalSeconds: 60}
        web:
          demo: false
          sessionSecret: \(sessionSecret)
          sessionLifetime: 3600
        """,
        .toml:
            """
        # The relying party
        rpId = "example.com"
        rpName = "Example"
        webOrigins = ["https://example.com", "https://login.example.com"]
        relatedOrigins = ["https://example.org"]
        host = "0.0.0.0"
        port = 8443
        database = "postgres://passkeys@db.internal/passkeys"
        expiries = { challenge = 90, resultToken = 30 }

        [[appleApps]]
        teamId = "ABCDE12345"
        bundleId = "com.example.app"

        [[androidApps]]
        packageName = "com.example.android"
        sha256CertFingerprints = ["\(WellKnownTests.fingerprint)"]

        [[apiKeys]]
        name = "backend"
        sha256 = "\(anchorHash)"

        [[apiKeys]]
        name = "ops"
        key = '\(opsKey)'

        [policy]
        userVerification = "required"
        authenticatorAttachment = "platform"
        attestation = "direct"
        attestationFormats = ["packed", "apple"]
        requireTrustedAttestation = true
        allowSyncedCredentials = false
        signCount = "report"
        algorithms = [-7, -257]
        maxCredentialsPerUser = 5

        [policy.trustAnchors]
        packed = ["anchors/packed.pem", "anchors/yubico.pem"]
        apple = ["anchors/apple.pem"]

        [limits]
        maxRequestBodyBytes = 32_768
        clientRequestsPerMinute = 120
        trustedProxies = ["10.0.0.0/8", "2001:db8::1"]

        [retention]
        auditDays = 0
        purgeIntervalSeconds = 60

        [web]
        demo = false
        sessionSecret = "\(sessionSecret)"
        sessionLifetime = 3600
        """,
    ]

    static var expected: ServerConfiguration {
        var configuration = ServerConfiguration(port: 8443)
        configuration.rpId = "example.com"
        configuration.rpName = "Example"
        configuration.webOrigins = ["https://example.com", "https://login.example.com"]
        configuration.relatedOrigins = ["https://example.org"]
        configuration.appleApps = [.init(teamId: "ABCDE12345", bundleId: "com.example.app")]
        configuration.androidApps = [
            .init(packageName: "com.example.android", sha256CertFingerprints: [WellKnownTests.fingerprint])
        ]
        configuration.host = "0.0.0.0"
        configuration.database = .postgres(url: "postgres://passkeys@db.internal/passkeys")
        configuration.apiKeys = [.init(name: "backend", sha256: anchorHash), .init(name: "ops", key: opsKey)]
        configuration.policy.userVerification = .required
        configuration.policy.authenticatorAttachment = .platform
        configuration.policy.attestation = .direct
        configuration.policy.attestationFormats = [.packed, .apple]
        configuration.policy.trustAnchors = [
            "packed": ["anchors/packed.pem", "anchors/yubico.pem"], "apple": ["anchors/apple.pem"],
        ]
        configuration.policy.requireTrustedAttestation = true
        configuration.policy.allowSyncedCredentials = false
        configuration.policy.signCount = .report
        configuration.policy.algorithms = [-7, -257]
        configuration.policy.maxCredentialsPerUser = 5
        configuration.expiries.challenge = 90
        configuration.expiries.resultToken = 30
        configuration.limits.maxRequestBodyBytes = 32_768
        configuration.limits.clientRequestsPerMinute = 120
        configuration.limits.trustedProxies = ["10.0.0.0/8", "2001:db8::1"]
        configuration.retention.auditDays = 0
        configuration.retention.purgeIntervalSeconds = 60
        configuration.web.demo = false
        configuration.web.sessionSecret = sessionSecret
        configuration.web.sessionLifetime = 3600
        return configuration
    }

    static func decode(
        _ text: String,
        _ format: ConfigurationFileFormat
    ) throws(ConfigurationError)
        -> ServerConfiguration
    {
        try ServerConfiguration(data: Data(text.utf8), format: format)
    }

    @Test(arguments: [ConfigurationFileFormat.json, .yaml, .toml])
    func theSameSettingsDecodeToTheSameConfigurationInEveryFormat(_ format: ConfigurationFileFormat) throws {
        let text = try #require(Self.full[format])
        let configuration = try Self.decode(text, format)
        #expect(configuration == Self.expected)
        // Members a section leaves out keep their defaults, as in JSON.
        #expect(configuration.expiries.registrationAttempt == 600)
        #expect(configuration.limits.failedAssertionsPerIP == 50)
        try configuration.validate()
    }

    @Test func anEmptyTableOrMappingGivesTheDefaults() throws {
        #expect(try Self.decode("", .toml) == ServerConfiguration())
        #expect(try Self.decode("# nothing set\n", .toml) == ServerConfiguration())
        #expect(try Self.decode("{}", .yaml) == ServerConfiguration())
        #expect(try Self.decode("port: 9000", .yaml).webOrigins == ["http://localhost:9000"])
        #expect(try Self.decode("port = 9000", .toml).webOrigins == ["http://localhost:9000"])
    }

    @Test func theExampleInTheDocsSaysTheSameInEveryFormat() throws {
        let text = try String(
            contentsOf: OpenAPIDocument.packageRoot().appendingPathComponent("docs/server.md"),
            encoding: .utf8
        )
        var decoded: [ServerConfiguration] = []
        for (format, fence) in [
            (ConfigurationFileFormat.json, "```json\n"), (.yaml, "```yaml\n"), (.toml, "```toml\n"),
        ] {
            let start = try #require(text.range(of: fence), "docs/server.md has no \(format) example")
            let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
            decoded.append(try Self.decode(String(text[start.upperBound..<end.lowerBound]), format))
        }
        #expect(decoded[0].rpId == "example.com")
        #expect(decoded[0].policy.trustAnchors == ["packed": ["anchors/packed.pem"]])
        #expect(decoded[1] == decoded[0])
        #expect(decoded[2] == decoded[0])
    }

    // MARK: The same errors as JSON

    struct Mistake: Sendable, CustomTestStringConvertible {
        let field: String
        let json: String
        let yaml: String
        let toml: String
        var testDescription: String { field }
    }

    static let mistakes: [Mistake] = [
        // An unknown setting.
        Mistake(
            field: "rpID",
            json: #"{"rpID": "example.com"}"#,
            yaml: "rpID: example.com",
            toml: #"rpID = "example.com""#
        ),
        // Unknown members of a section and of a list's element.
        Mistake(
            field: "policy.maxCredentials",
            json: #"{"policy": {"maxCredentials": 3}}"#,
            yaml: "policy:\n  maxCredentials: 3",
            toml: "[policy]\nmaxCredentials = 3"
        ),
        Mistake(
            field: "appleApps[0].bundleID",
            json: #"{"appleApps": [{"teamId": "ABCDE12345", "bundleID": "com.example.app"}]}"#,
            yaml: "appleApps:\n  - teamId: ABCDE12345\n    bundleID: com.example.app",
            toml: "[[appleApps]]\nteamId = \"ABCDE12345\"\nbundleID = \"com.example.app\""
        ),
        // Wrong types.
        Mistake(field: "port", json: #"{"port": "8080"}"#, yaml: "port: '8080'", toml: #"port = "8080""#),
        Mistake(
            field: "webOrigins[1]",
            json: #"{"webOrigins": ["https://example.com", 5]}"#,
            yaml: "webOrigins: [https://example.com, 5]",
            toml: #"webOrigins = ["https://example.com", 5]"#
        ),
        Mistake(
            field: "limits.trustedProxies",
            json: #"{"limits": {"trustedProxies": "10.0.0.1"}}"#,
            yaml: "limits: {trustedProxies: 10.0.0.1}",
            toml: #"limits = { trustedProxies = "10.0.0.1" }"#
        ),
        Mistake(field: "policy", json: #"{"policy": "strict"}"#, yaml: "policy: strict", toml: #"policy = "strict""#),
        // A required member left out.
        Mistake(
            field: "apiKeys[0].name",
            json: #"{"apiKeys": [{"key": "0123456789012345678901234"}]}"#,
            yaml: "apiKeys:\n  - key: '0123456789012345678901234'",
            toml: "[[apiKeys]]\nkey = \"0123456789012345678901234\""
        ),
        // An invalid value; a wrong type in a map whose keys are data.
        Mistake(
            field: "policy.signCount",
            json: #"{"policy": {"signCount": "sometimes"}}"#,
            yaml: "policy: {signCount: sometimes}",
            toml: "[policy]\nsignCount = \"sometimes\""
        ),
        Mistake(
            field: "policy.trustAnchors.packed",
            json: #"{"policy": {"trustAnchors": {"packed": "anchors/packed.pem"}}}"#,
            yaml: "policy:\n  trustAnchors:\n    packed: anchors/packed.pem",
            toml: "[policy.trustAnchors]\npacked = \"anchors/packed.pem\""
        ),
    ]

    @Test(arguments: mistakes)
    func everyFormatReportsAMistakeAsJSONDoes(_ mistake: Mistake) throws {
        let json = #expect(throws: ConfigurationError.self) { try Self.decode(mistake.json, .json) }
        #expect(json?.field == mistake.field)
        for (format, text) in [(ConfigurationFileFormat.yaml, mistake.yaml), (.toml, mistake.toml)] {
            let error = #expect(throws: ConfigurationError.self, "\(format)") { try Self.decode(text, format) }
            #expect(error == json, "\(format)")
        }
    }
}
