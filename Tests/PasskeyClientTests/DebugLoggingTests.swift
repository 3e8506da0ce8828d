import Foundation
import Logging
import PasskeyClient
import PasskeyServer
import Testing

/// The debug switch (`PasskeyClientConfiguration.debugLogging`) against a live server: the steps are logged, the
/// secrets that went over the wire are not.
@Suite("Debug logging")
struct DebugLoggingTests {
    static func client(
        _ server: LiveServer.Context,
        debugLogging: Bool,
        log: CapturedLog,
        level: Logger.Level = .info,
        transport: RecordingTransport
    ) throws -> PasskeyClient {
        PasskeyClient(
            configuration: try PasskeyClientConfiguration(
                rpDomain: "localhost",
                serverBaseURL: server.baseURL,
                storage: "com.example.tests",
                origin: "https://localhost",
                debugLogging: debugLogging
            ),
            authenticator: SoftwareAuthenticator(keyStore: MemoryKeyStore()),
            transport: transport,
            logger: log.makeLogger(level: level)
        )
    }

    /// Enrolls `userId` and signs in; returns the credential's user handle and the result token.
    static func enrollAndSignIn(
        _ client: PasskeyClient,
        _ server: LiveServer.Context,
        userId: String
    ) async throws
        -> [String]
    {
        let attempt = try await server.backend.createRegistration(userId: userId, userName: userId)
        let enrolled = try await client.enroll(
            EnrollmentInput(
                registrationAttemptId: attempt.registrationAttemptId,
                clientToken: attempt.clientToken,
                userId: userId
            )
        )
        let session = try await server.backend.createAuthentication(userId: userId)
        let result = try await client.authenticate(
            AuthenticationInput(sessionId: session.biometricPasskeySessionId, clientToken: session.clientToken)
        )
        _ = try await server.backend.redeemAuthentication(
            sessionId: session.biometricPasskeySessionId,
            resultToken: result.resultToken
        )
        let handle = try #require(enrolled.credential?.userHandle)
        return [handle, attempt.clientToken, session.clientToken, try #require(result.resultToken)]
    }

    @Test(
        "switched on, an enrolment and a sign-in log their steps and no token, challenge, key, signature or user handle"
    )
    func stepsWithoutSecrets() async throws {
        try await LiveServer.run { server in
            let log = CapturedLog()
            let transport = RecordingTransport()
            let client = try Self.client(server, debugLogging: true, log: log, transport: transport)
            let known = try await Self.enrollAndSignIn(client, server, userId: "lena")

            let text = log.text
            for step in [
                "enroll: started", "enroll: creation options received", "enroll: passkey created", "enroll: done",
                "sign-in: started", "sign-in: request options received", "sign-in: assertion signed", "sign-in: done",
            ] {
                #expect(text.contains(step), "the log has no step '\(step)'")
            }
            // Everything secret that crossed the wire: the client tokens (Authorization headers), the challenges, the
            // result token, the responses' signatures, client data, attestation and authenticator data, the user handle.
            let wire = await transport.values(named: [
                "challenge", "resultToken", "signature", "clientDataJSON", "attestationObject", "authenticatorData",
                "userHandle", "publicKey",
            ])
            let secrets = Set((wire + known).filter { $0.count >= 16 })
            #expect(secrets.count >= 8)
            for secret in secrets {
                #expect(!text.contains(secret), "the debug log carries a secret: \(secret.prefix(6))…")
            }
        }
    }

    @Test("switched off, the SDK logs nothing, even to a logger at trace level")
    func offLogsNothing() async throws {
        try await LiveServer.run { server in
            let log = CapturedLog()
            let client = try Self.client(
                server,
                debugLogging: false,
                log: log,
                level: .trace,
                transport: RecordingTransport()
            )
            _ = try await Self.enrollAndSignIn(client, server, userId: "milo")
            let failed = await passkeyError { try await client.deleteCredential(id: "bm8tc3VjaC1wYXNza2V5") }
            #expect(failed?.code == .passkeyNotFound)
            #expect(log.lines.isEmpty)
        }
    }
}
