import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// Account recovery in the pages: the console starts it and shows a one-time link with its QR code; `/recover` is
/// the new device's page, which finalizes only a recovery whose replacement it registered.
@Suite("Recovery pages")
struct RecoveryPagesTests {
    /// The attempt id and token in a link `…/recover#<attempt>.<token>`.
    static func parts(of link: String) throws -> (attempt: String, token: String) {
        let fragment = try #require(link.split(separator: "#").last)
        let pieces = fragment.split(separator: ".")
        try #require(pieces.count == 2, "\(link)")
        return (String(pieces[0]), String(pieces[1]))
    }

    @Test("the console's Start recovery shows the link once with its QR code; the new device recovers through it")
    func consoleToNewDevice() async throws {
        let server = try TestServer(configure: Recovery.simulated)
        try await server.withAPI { api in
            var lostPhone = TestAuthenticator()
            let old = try await api.enroll("rita", authenticator: &lostPhone)
            let console = try await ConsoleTests.signedInConsole(api)
            #expect(try await console.get("/console/users/rita").text.contains("id=\"start-recovery\""))
            #expect(try await console.submit("/console/users/rita/recovery", csrf: false).status == .forbidden)
            let page = try await console.submit("/console/users/rita/recovery")
            #expect(page.status == .ok)
            let link = try #require(
                ConsoleTests.between(page.text, "id=\"recovery-link\" class=\"mono break\" href=\"", "\"")
            )
            #expect(link.hasPrefix("\(server.origin)/recover#rec_"))
            let qr = try #require(ConsoleTests.between(page.text, "data:image/svg+xml;base64,", "\""))
            let svg = String(decoding: try #require(Data(base64Encoded: qr)), as: UTF8.self)
            #expect(svg.contains("<svg"))
            let audit = try await console.get("/console/audit?userId=rita")
            #expect(audit.text.contains("recovery.started") || audit.text.contains("recovery.created"))

            // The new device: identity verification, the replacement passkey, then the page's finalize.
            let (attempt, token) = try Self.parts(of: link)
            let start = RecoveryStart(recoveryAttemptId: attempt, recoveryToken: token, attemptExpiresAt: "")
            let run = try await api.startRecoveryIdentityVerification(start)
            _ = try await api.decide(run: run, "approved", faceMatch: "pass").expect(.ok, JSONValue.self)
            let data = try await api.recoveryRegistration(attempt, token: token)
                .expect(.ok, RecoveryRegistrationView.self)
            var newPhone = TestAuthenticator()
            let response = try api.registrationResponse(data.publicKey, authenticator: &newPhone)

            let device = WebClient(api)
            #expect(try await device.get("/recover").text.contains("Recover your account"))
            let early = try await device.post(
                "/recover/finalize",
                body: ["recoveryAttemptId": attempt, "continuationToken": data.continuationToken]
            )
            expectError(early, "RECOVERY_TOKEN_INVALID", .unauthorized)
            _ = try await api.completeRecovery(attempt, response, continuationToken: data.continuationToken)
                .expect(.created, CredentialView.self)
            expectError(
                try await device.post(
                    "/recover/finalize",
                    body: ["recoveryAttemptId": attempt, "continuationToken": token]
                ),
                "RECOVERY_TOKEN_INVALID",
                .unauthorized
            )
            let finalized = try await device.post(
                "/recover/finalize",
                body: ["recoveryAttemptId": attempt, "continuationToken": data.continuationToken]
            ).expect(.ok, RecoveryFinalizeView.self)
            #expect(finalized.revokedCredentialIds == [old.credentialId])
            #expect(try await api.credentials(of: "rita").map(\.credentialId) == [finalized.credential.credentialId])
        }
    }

    @Test("Start recovery needs an operator, a known user and a server that can recover")
    func refusals() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            _ = try await api.enroll("sam", authenticator: &phone)
            let anonymous = WebClient(api)
            _ = try await anonymous.get("/console")
            #expect(try await anonymous.submit("/console/users/sam/recovery").headers[.location] == "/console")
            let console = try await ConsoleTests.signedInConsole(api)
            // No identity-verification provider here: recovery cannot verify anyone.
            _ = try await console.get("/console/users/sam")
            let refused = try await console.submit("/console/users/sam/recovery")
            #expect(refused.status.code >= 400 && refused.status.code < 500)
            #expect(refused.text.contains("RECOVERY_NOT_SUPPORTED"))
            #expect(try await anonymous.get("/recover").status == .ok)
        }
    }
}
