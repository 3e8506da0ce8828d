import Foundation
import PasskeyServer
import PasskeyStorage
import Testing

/// The simulated provider verifies nobody: it starts only for a localhost relying party unless the configuration
/// says otherwise, explicitly.
@Suite("Identity verification: the simulated provider's scope")
struct SimulatedProviderTests {
    static func configuration(rpId: String, origin: String, extra: String = "") throws -> ServerConfiguration {
        try ServerConfiguration(
            jsonData: Data(
                """
                {"rpId": "\(rpId)", "webOrigins": ["\(origin)"],
                 "apiKeys": [{"name": "test", "key": "test-api-key-0123456789-abcdefgh"}],
                 "identityVerification": {"provider": "simulated"\(extra)}}
                """.utf8
            )
        )
    }

    @Test("for a real domain the server refuses to start, naming the setting that would allow it")
    func refusedOutsideLocalhost() throws {
        let configuration = try Self.configuration(rpId: "example.com", origin: "https://example.com")
        let error = #expect(throws: ConfigurationError.self) {
            try PasskeyService(configuration: configuration, store: MemoryPasskeyStore())
        }
        #expect(error?.field == "identityVerification.provider")
        #expect(error?.message.contains("identityVerification.allowSimulatedOutsideLocalhost") == true)
    }

    @Test("it starts for localhost, and for a real domain when the setting says so")
    func allowed() throws {
        _ = try PasskeyService(
            configuration: try Self.configuration(rpId: "localhost", origin: "http://localhost:8080"),
            store: MemoryPasskeyStore()
        )
        _ = try PasskeyService(
            configuration: try Self.configuration(
                rpId: "example.com",
                origin: "https://example.com",
                extra: #", "allowSimulatedOutsideLocalhost": true"#
            ),
            store: MemoryPasskeyStore()
        )
    }
}
