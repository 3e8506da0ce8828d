import Foundation
import Hummingbird
import Logging
import PasskeyClient
import PasskeyServer
import PasskeyStorage
import ProcessTestSupport
import Testing

/// A passkey server on a random local port, for end-to-end tests: RP ID `localhost`, the native-app origin
/// `https://localhost` allowed (through a configured Apple app), an in-memory store and one backend API key.
enum LiveServer {
    static let apiKey = "pk_test_client_sdk_0123456789abcdef"

    static func configuration(_ adjust: (inout ServerConfiguration) -> Void = { _ in }) -> ServerConfiguration {
        // A port of 127.0.0.1 the system chooses (see ``run(identityVerificationProvider:adjusting:_:)``).
        var configuration = ServerConfiguration(port: 0)
        configuration.database = .memory
        configuration.apiKeys = [.init(name: "tests", key: apiKey)]
        configuration.appleApps = [.init(teamId: "ABCDE12345", bundleId: "com.example.app")]
        adjust(&configuration)
        return configuration
    }

    struct Context: Sendable {
        let baseURL: URL
        let backend: PasskeyBackendAPI
        let store: MemoryPasskeyStore

        /// A client configured as a native app of `localhost` against this server.
        func client(
            _ authenticator: any Authenticator,
            timeoutRange: ClosedRange<Duration> = .seconds(10) ... .seconds(600),
            transport: any HTTPTransport = URLSessionTransport(),
            identityVerifier: (any IdentityVerifier)? = nil
        ) throws -> PasskeyClient {
            PasskeyClient(
                configuration: try PasskeyClientConfiguration(
                    rpDomain: "localhost",
                    serverBaseURL: baseURL,
                    storage: "com.example.tests",
                    origin: "https://localhost"
                ),
                authenticator: authenticator,
                transport: transport,
                ceremonyTimeoutRange: timeoutRange,
                identityVerifier: identityVerifier
            )
        }
    }

    /// `configuration` with the identity verification provider set to `provider`, through the configuration
    /// file's decoder (setting `identityVerification.provider`), so that these tests need no server API beyond the
    /// documented configuration.
    static func configuration(
        _ configuration: ServerConfiguration,
        identityVerificationProvider provider: String
    ) throws -> ServerConfiguration {
        var object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(configuration)) as? [String: Any]
        )
        object["identityVerification"] = ["provider": provider]
        return try ServerConfiguration(jsonData: JSONSerialization.data(withJSONObject: object))
    }

    /// Runs `body` against a live server (with `identityVerificationProvider`, such as `simulated`, when given).
    static func run(
        identityVerificationProvider: String? = nil,
        adjusting adjust: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (Context) async throws -> Void
    ) async throws {
        let store = MemoryPasskeyStore()
        var configuration = configuration(adjust)
        if let identityVerificationProvider {
            configuration = try Self.configuration(
                configuration,
                identityVerificationProvider: identityVerificationProvider
            )
        }
        let logger = Logger(label: "client-tests")
        let service = try PasskeyService(configuration: configuration, store: store, logger: logger)
        // Run as `passkeys serve` runs it, not through HummingbirdTesting's `.live`, whose own client (which these
        // tests never use) must connect within 5 s or fails the test when it ends.
        try await withListeningService(logger: logger) { announce in
            PasskeyApplication.build(service: service, logger: logger, onServerRunning: announce)
        } _: { port in
            let baseURL = URL(string: "http://localhost:\(port)")!
            try await body(
                Context(
                    baseURL: baseURL,
                    backend: PasskeyBackendAPI(serverBaseURL: baseURL, apiKey: apiKey),
                    store: store
                )
            )
        }
    }
}
