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
          "limits": {"maxRequestBodyBytes": 32768, "clientRequestsPerMinute": 120, "trustForwardedFor": true},
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
          trustForwardedFor: true
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
        trustForwardedFor = true

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
        configuration.database = "postgres://passkeys@db.internal/passkeys"
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
        configuration.limits.trustForwardedFor = true
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
            field: "limits.trustForwardedFor",
            json: #"{"limits": {"trustForwardedFor": "true"}}"#,
            yaml: "limits: {trustForwardedFor: 'true'}",
            toml: #"limits = { trustForwardedFor = "true" }"#
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

    // MARK: YAML

    @Test func yamlReadsYesNoOnOffAsBooleansAsYAML11Does() throws {
        let words = try Self.decode(
            "limits: {trustForwardedFor: yes}\nweb: {demo: off, console: On}\npolicy: {allowSyncedCredentials: NO}",
            .yaml
        )
        #expect(words.limits.trustForwardedFor == true)
        #expect(words.web.demo == false)
        #expect(words.web.console == true)
        #expect(words.policy.allowSyncedCredentials == false)
        // So an unquoted word in a text setting is a boolean, and refused; quoted, it is text.
        let unquoted = #expect(throws: ConfigurationError.self) { try Self.decode("rpName: yes", .yaml) }
        #expect(unquoted?.field == "rpName")
        #expect(unquoted?.message == "has the wrong type")
        #expect(try Self.decode("rpName: 'yes'", .yaml).rpName == "yes")
        // Other words stay text; digits with a leading zero are a number, so a team ID must be quoted.
        #expect(try Self.decode("rpName: y", .yaml).rpName == "y")
        let teamID = #expect(throws: ConfigurationError.self) {
            try Self.decode("appleApps: [{teamId: 0123456789, bundleId: com.example.app}]", .yaml)
        }
        #expect(teamID?.field == "appleApps[0].teamId")
    }

    @Test(arguments: [
        ("rpName: 2001-12-14", "rpName", "YAML timestamp (line 1, column 9)"),
        ("webOrigins:\n  - 2001-12-14t21:59:43.10-05:00", "webOrigins[0]", "YAML timestamp (line 2, column 5)"),
        ("rpName: !!binary aGVsbG8=", "rpName", "tag:yaml.org,2002:binary"),
        ("policy: !!set {packed}", "policy", "tag:yaml.org,2002:set"),
        ("rpName: !custom x", "rpName", "!custom"),
        ("1: x", "1", "not a string (line 1, column 1)"),
        ("policy:\n  true: x", "policy.true", "not a string (line 2, column 3)"),
        ("policy:\n  ? [a]\n  : x", "policy.?", "not a string"),
        ("limits: {maxRequestBodyBytes: .nan}", "limits.maxRequestBodyBytes", "finite"),
        ("port: -.inf", "port", "finite"),
        ("port: 99999999999999999999", "port", "integer that fits in 64 bits"),
    ])
    func yamlValuesWithNoJSONFormAreRefusedNamingTheField(_ text: String, _ field: String, _ detail: String) {
        let error = #expect(throws: ConfigurationError.self) { try Self.decode(text, .yaml) }
        #expect(error?.field == field)
        #expect(error?.message.contains(detail) == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        ("rpId: [example.com", "line 2, column 1"),
        ("rpId: example.com\n  rpName: x: y", "line 2, column 9"),
        ("rpId: a\nrpId: b", "'rpId' appears twice"),
        ("port: *undefined", "undefined alias"),
        ("\trpId: x", "line 1, column 1"),
        ("rpId: a\n---\nrpId: b", "single document"),
    ])
    func yamlSyntaxErrorsSayWhere(_ text: String, _ detail: String) {
        let error = #expect(throws: ConfigurationError.self) { try Self.decode(text, .yaml) }
        #expect(error?.field == "(file)")
        #expect(error?.message.hasPrefix("is not valid YAML: ") == true, "\(String(describing: error))")
        #expect(error?.message.contains(detail) == true, "\(String(describing: error))")
    }

    @Test(arguments: ["", "# only a comment", "- rpId: example.com", "example.com", "~"])
    func aYAMLFileThatIsNotAMappingIsRefused(_ text: String) {
        let error = #expect(throws: ConfigurationError.self) { try Self.decode(text, .yaml) }
        #expect(error?.field == "(file)")
        #expect(error?.message.contains("not a YAML mapping") == true)
    }

    @Test func yamlAliasesAreReadButTheirExpansionIsBounded() throws {
        let shared = try Self.decode(
            "webOrigins: &origins [http://localhost:8080]\nrelatedOrigins: *origins",
            .yaml
        )
        #expect(shared.relatedOrigins == ["http://localhost:8080"])
        // Nine levels of ten aliases each: a few hundred bytes that would expand to a billion values.
        var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1..<9 {
            lines.append(
                "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]"
            )
        }
        let bomb = #expect(throws: ConfigurationError.self) { try Self.decode(lines.joined(separator: "\n"), .yaml) }
        #expect(bomb?.message.contains("more than 100000 values") == true, "\(String(describing: bomb))")
    }

    // MARK: TOML

    @Test(arguments: [
        ("rpName = 1979-05-27", "rpName", "TOML date"),
        ("rpName = 07:32:00", "rpName", "TOML time"),
        ("webOrigins = [1979-05-27T07:32:00Z]", "webOrigins[0]", "TOML date-time"),
        ("[web]\nsessionSecret = 1979-05-27T00:32:00.999999-07:00", "web.sessionSecret", "TOML date-time"),
        ("[limits]\nmaxRequestBodyBytes = nan", "limits.maxRequestBodyBytes", "finite"),
        ("port = -inf", "port", "finite"),
    ])
    func tomlValuesWithNoJSONFormAreRefusedNamingTheField(_ text: String, _ field: String, _ detail: String) {
        let error = #expect(throws: ConfigurationError.self) { try Self.decode(text, .toml) }
        #expect(error?.field == field)
        #expect(error?.message.contains(detail) == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        ("rpId = ", "line 1"),
        ("rpId = \"example.com\"\n[policy\nsignCount = \"report\"", "line 2"),
        ("rpId = \"a\"\nrpId = \"b\"", "line 2"),
        ("rpId: \"example.com\"", "line 1"),
        ("port = 99999999999999999999", "line 1"),
    ])
    func tomlSyntaxErrorsSayWhere(_ text: String, _ line: String) {
        let error = #expect(throws: ConfigurationError.self) { try Self.decode(text, .toml) }
        #expect(error?.field == "(file)")
        #expect(error?.message.hasPrefix("is not valid TOML: ") == true, "\(String(describing: error))")
        #expect(error?.message.contains("at \(line), column ") == true, "\(String(describing: error))")
    }

    @Test(arguments: [#"rpId = "example.com\u0000.evil""#, #""rp\U00000000Id" = "example.com""#])
    func anEscapedNULInTOMLIsRefusedRatherThanCutShort(_ text: String) {
        let error = #expect(throws: ConfigurationError.self) { try Self.decode(text, .toml) }
        #expect(error?.field == "(file)")
        #expect(error?.message.contains("NUL") == true)
    }

    // MARK: Bounds

    @Test(arguments: [ConfigurationFileFormat.json, .yaml, .toml])
    func aFileOverTheSizeLimitIsRefused(_ format: ConfigurationFileFormat) throws {
        let start = format == .toml ? "# " : format == .json ? "{}" : "{}\n# "
        let limit = ConfigurationFileFormat.maximumFileBytes
        let atLimit = start + String(repeating: format == .json ? " " : "x", count: limit - start.utf8.count)
        #expect(try Self.decode(atLimit, format) == ServerConfiguration())
        let error = #expect(throws: ConfigurationError.self) { try Self.decode(atLimit + " ", format) }
        #expect(error?.field == "(file)")
        #expect(error?.message.contains("larger than 1 MiB") == true)
    }

    @Test(arguments: [
        (
            ConfigurationFileFormat.yaml,
            "policy: " + String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
        ),
        (.toml, "policy = " + String(repeating: "[", count: 70) + String(repeating: "]", count: 70)),
    ])
    func deepNestingIsRefused(_ format: ConfigurationFileFormat, _ text: String) {
        let error = #expect(throws: ConfigurationError.self) { try Self.decode(text, format) }
        #expect(error?.message.contains("nested more than 64 levels") == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        (ConfigurationFileFormat.yaml, "policy: " + String(repeating: "[", count: 100_000)),
        (.toml, "policy = " + String(repeating: "[", count: 100_000)),
        (.json, #"{"policy": "# + String(repeating: "[", count: 100_000)),
    ])
    func nestingBeyondTheParsersOwnLimitIsASyntaxError(_ format: ConfigurationFileFormat, _ text: String) {
        let error = #expect(throws: ConfigurationError.self) { try Self.decode(text, format) }
        #expect(error?.field == "(file)")
        #expect(error?.message.hasPrefix("is not valid \(format)") == true, "\(String(describing: error))")
    }

    @Test(arguments: [ConfigurationFileFormat.yaml, .toml])
    func textThatIsNotUTF8IsRefused(_ format: ConfigurationFileFormat) {
        for data in [Data([0x72, 0x70, 0xFF, 0xFE]), Data("rpName = \"a\"\u{0}\nport = 1".utf8)] {
            let error = #expect(throws: ConfigurationError.self) {
                try ServerConfiguration(data: data, format: format)
            }
            #expect(error?.message.contains("UTF-8 text without NUL bytes") == true)
        }
    }

    // MARK: Choosing the format

    @Test(arguments: [
        ("json", ConfigurationFileFormat.json), ("JSON", .json), ("yaml", .yaml), ("yml", .yaml), ("YML", .yaml),
        ("toml", .toml), ("Toml", .toml),
    ])
    func theExtensionNamesTheFormat(_ pathExtension: String, _ format: ConfigurationFileFormat) {
        #expect(ConfigurationFileFormat(pathExtension: pathExtension) == format)
    }

    @Test(arguments: ["", "ini", "jsn", "yaml~", "conf", "txt"])
    func otherExtensionsAreNoFormat(_ pathExtension: String) {
        #expect(ConfigurationFileFormat(pathExtension: pathExtension) == nil)
    }

    static func withFile<Value>(
        named name: String,
        _ contents: Data,
        _ body: (String) throws -> Value
    ) throws -> Value {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "passkey-config-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try contents.write(to: file)
        return try body(file.path)
    }

    @Test(arguments: [
        ("passkeys.json", ConfigurationFileFormat.json), ("passkeys.yaml", .yaml), ("passkeys.YML", .yaml),
        ("passkeys.toml", .toml),
    ])
    func loadingReadsTheFormatTheExtensionNames(_ name: String, _ format: ConfigurationFileFormat) throws {
        let text = try #require(Self.full[format])
        let configuration = try Self.withFile(named: name, Data(text.utf8)) { path in
            try ServerConfiguration.load(file: path, environment: ["PASSKEYS_HOST": "127.0.0.1"])
        }
        var expected = Self.expected
        expected.host = "127.0.0.1"
        #expect(configuration == expected)
    }

    @Test(arguments: ["passkeys.ini", "passkeys", "passkeys.json.bak"])
    func loadingAFileWithAnotherExtensionNamesTheAcceptedOnes(_ name: String) throws {
        let error = try Self.withFile(named: name, Data("{}".utf8)) { path in
            #expect(throws: ConfigurationError.self) { try ServerConfiguration.load(file: path, environment: [:]) }
        }
        #expect(error?.field == "--config")
        #expect(error?.message.contains(".json, .yaml, .yml, .toml") == true, "\(String(describing: error))")
    }

    @Test func loadingReadsNoMoreThanTheLimit() throws {
        let tooLarge = Data(repeating: UInt8(ascii: "#"), count: 3 * ConfigurationFileFormat.maximumFileBytes)
        let error = try Self.withFile(named: "passkeys.yaml", tooLarge) { path in
            #expect(throws: ConfigurationError.self) { try ServerConfiguration.load(file: path, environment: [:]) }
        }
        #expect(error?.field == "(file)")
        #expect(error?.message.contains("larger than") == true)
    }
}
