import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PasskeyServer
import PasskeyStorage
import PasskeysCommandLine
import Testing

@Suite("passkeys association")
struct AssociationCommandTests {
    static let configurationJSON = """
        {"rpId": "localhost", "port": 8097, "database": "memory",
         "appleApps": [{"teamId": "ABCDE12345", "bundleId": "com.example.app"}],
         "androidApps": [{"packageName": "com.example.app", "sha256CertFingerprints":
           ["AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89"]}],
         "relatedOrigins": ["https://shop.example"]}
        """

    /// The same configuration as ``configurationJSON``.
    static let configurationYAML = """
        rpId: localhost
        port: 8097
        database: memory
        appleApps:
          - {teamId: ABCDE12345, bundleId: com.example.app}
        androidApps:
          - packageName: com.example.app
            sha256CertFingerprints:
              - AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89
        relatedOrigins: [https://shop.example]
        """
    static let configurationTOML = """
        rpId = "localhost"
        port = 8097
        database = "memory"
        relatedOrigins = ["https://shop.example"]

        [[appleApps]]
        teamId = "ABCDE12345"
        bundleId = "com.example.app"

        [[androidApps]]
        packageName = "com.example.app"
        sha256CertFingerprints = [
          "AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89",
        ]
        """

    static func configurationFile(_ text: String = configurationJSON, extension: String = "json") throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "association-\(UUID().uuidString).\(`extension`)"
        ).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("prints the derived allowlist and the three association files")
    func prints() async throws {
        let result = await PasskeysTool.run(["association", "--config", try Self.configurationFile()])
        #expect(result.exitCode == 0)
        let text = result.standardOutput
        for expected in [
            "http://localhost:8097", "https://shop.example", "https://localhost",
            "android:apk-key-hash:q83vASNFZ4mrze8BI0VniavN7wEjRWeJq83vASNFZ4k", "ABCDE12345.com.example.app",
            "delegate_permission/common.get_login_creds", "/.well-known/webauthn",
        ] {
            #expect(text.contains(expected), "missing \(expected)")
        }
    }

    @Test("reads the same configuration from a YAML and a TOML file")
    func readsYAMLAndTOML() async throws {
        let fromJSON = await PasskeysTool.run(["association", "--config", try Self.configurationFile()])
        #expect(fromJSON.exitCode == 0)
        for (text, fileExtension) in [(Self.configurationYAML, "yaml"), (Self.configurationTOML, "toml")] {
            let path = try Self.configurationFile(text, extension: fileExtension)
            let result = await PasskeysTool.run(["association", "--config", path])
            #expect(result.exitCode == 0, "\(fileExtension): \(result.standardError)")
            #expect(result.standardOutput == fromJSON.standardOutput, "\(fileExtension)")
        }
    }

    @Test("a file whose extension names no format is bad usage that lists the accepted ones")
    func unknownExtension() async throws {
        let result = await PasskeysTool.run([
            "association", "--config", try Self.configurationFile(Self.configurationYAML, extension: "conf"),
        ])
        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("'--config' must name a file ending in .json, .yaml, .yml, .toml"))
    }

    @Test("an invalid configuration is bad usage that names the field")
    func invalidConfiguration() async throws {
        let result = await PasskeysTool.run([
            "association", "--config", try Self.configurationFile(#"{"rpId": "Example.COM"}"#),
        ])
        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("'rpId'"))
    }

    @Test("--check compares what a live server hosts with the configuration")
    func checksLiveServer() async throws {
        let path = try Self.configurationFile()
        let configuration = try ServerConfiguration.load(file: path, environment: [:])
        let app = PasskeyApplication.build(
            service: try PasskeyService(configuration: configuration, store: MemoryPasskeyStore()),
            logger: Logger(label: "test")
        )
        try await app.test(.live) { client in
            let base = "http://localhost:\(client.port!)"
            let matching = await PasskeysTool.run(["association", "--config", path, "--check", base])
            #expect(matching.exitCode == 0, "\(matching.standardOutput)")
            #expect(matching.standardOutput.components(separatedBy: "ok  ").count == 4)

            var other = configuration
            other.appleApps = [.init(teamId: "ZZZZZ99999", bundleId: "com.other.app")]
            let otherPath = try Self.configurationFile(String(decoding: try JSONEncoder().encode(other), as: UTF8.self))
            let differing = await PasskeysTool.run(["association", "--config", otherPath, "--check", base])
            #expect(differing.exitCode == 1)
            #expect(differing.standardOutput.contains("FAIL /.well-known/apple-app-site-association"))
        }
    }
}
