import Foundation
import PasskeyClient
import PasskeyTesting
import Testing

@Suite("docs/sdk.md")
struct LinuxExampleTests {
    @Test(
        "the Linux example enrolls, signs in, and signs in again from a new process's key store, against passkeys serve started as the README starts it"
    )
    func linuxExample() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await ReadmeServer.run(in: folder.path) { server, apiKey in
            let path = folder.file("keys.json")
            let first = try await enrollAndSignIn(
                server: server,
                apiKey: apiKey,
                keyStorePath: path,
                passphrase: "example passphrase"
            )
            #expect(first == "alice")
            // A second run (a restarted program) finds the passkey in the key store and only signs in.
            let second = try await enrollAndSignIn(
                server: server,
                apiKey: apiKey,
                keyStorePath: path,
                passphrase: "example passphrase"
            )
            #expect(second == "alice")
        }
    }

    @Test(
        "the guide carries the examples as they are compiled here",
        arguments: [
            ("LinuxExample.swift", "func enrollAndSignIn"), ("StepUpExample.swift", "func approvePayment"),
            ("CrossPlatformExample.swift", "func approveOnPhone"),
            ("RecoveryExample.swift", "func recoverAccount"),
            ("TokenSessionExample.swift", "func signInWithTokenSession"),
        ]
    )
    func guideMatches(file: String, start: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("docs/sdk.md"), encoding: .utf8)
        let example = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(file),
            encoding: .utf8
        )
        let body = try #require(example.range(of: start).map { String(example[$0.lowerBound...]) })
        #expect(
            guide.contains(body.trimmingCharacters(in: .whitespacesAndNewlines)),
            "docs/sdk.md must contain \(file)'s function verbatim"
        )
    }

    /// Needs the server side of step-up and identity verification (the simulated provider).
    @Test("the step-up example approves a payment with identity verification: assurance passkey+uv+idv")
    func stepUpExample() async throws {
        try await LiveServer.run(identityVerificationProvider: "simulated") { server in
            let client = try server.client(
                ScriptableAuthenticator(),
                identityVerifier: SimulatedIdentityVerifier(backend: server.backend)
            )
            try await EndToEndTests.enroll(client, server, userId: "alice")
            let approved = try await approvePayment(client: client, backend: server.backend, userId: "alice") {
                text in text.hasPrefix("Pay 25,00 €")
            }
            #expect(approved == "passkey+uv+idv: Pay 25,00 € to Bob's Bikes")
        }
    }
}
