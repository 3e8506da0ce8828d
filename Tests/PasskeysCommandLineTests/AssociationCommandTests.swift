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

    static func configurationFile(_ json: String = configurationJSON) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "association-\(UUID().uuidString).json"
        ).path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
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
