import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// A user's reset — a recovery's finalize, a revocation, "Sign out everywhere" — ends every flow of theirs that was in
/// flight: a registration or a sign-in opened before it cannot complete after it. Over real HTTP, on SQLite and
/// PostgreSQL.
@Suite("User reset")
struct UserResetTests {
    enum Reset: String, CaseIterable, Sendable, CustomStringConvertible {
        case recoveryFinalize, revoke, consoleRevoke, signOutEverywhere
        var description: String { rawValue }
    }

    static var cases: [(StoreKind, Reset)] {
        StoreKind.available.flatMap { kind in Reset.allCases.map { (kind, $0) } }
    }

    @Test("a registration and a sign-in opened before the user's reset are refused after it", arguments: cases)
    func flowsOpenedBeforeAResetEnd(kind: StoreKind, reset: Reset) async throws {
        try await kind.withLiveServer(configure: Recovery.simulated) { _, api in
            var phone = TestAuthenticator()
            let old = try await api.enroll("ada", authenticator: &phone)
            // The thief's registration and a sign-in, both opened (options issued) before the reset.
            let attempt = try await api.createRegistration(NewRegistration(userId: "ada"))
            let options = try await api.registrationOptions(attempt)
            var thief = TestAuthenticator()
            let response = try api.registrationResponse(options, authenticator: &thief)
            let (signIn, signInOptions) = try await api.signInSession(userID: "ada")
            var kept = [String]()

            switch reset {
            case .recoveryFinalize:
                var newPhone = TestAuthenticator()
                let (start, replacement) = try await api.registeredRecovery(userID: "ada", authenticator: &newPhone)
                _ = try await api.backend(.post, Recovery.attempt(start.recoveryAttemptId) + "/finalize")
                    .expect(.ok, RecoveryFinalizeView.self)
                kept = [replacement.credentialId]
            case .revoke:
                #expect(try await api.backend(.delete, Path.credential(old.credentialId)).status == .noContent)
            case .consoleRevoke:
                let console = try await ConsoleTests.signedInConsole(api)
                _ = try await console.get("/console/users/ada")
                #expect(try await console.submit("/console/credentials/\(old.credentialId)/revoke").status == .seeOther)
            case .signOutEverywhere:
                let console = try await ConsoleTests.signedInConsole(api)
                _ = try await console.get("/console/users/ada")
                #expect(try await console.submit("/console/users/ada/sessions/end").status == .seeOther)
                kept = [old.credentialId]
            }

            expectError(try await api.completeRegistration(attempt, response), "FLOW_ENDED", .gone)
            #expect(try await api.credentials(of: "ada").map(\.credentialId) == kept)
            if reset == .signOutEverywhere {
                expectError(
                    try await api.completeSignIn(signIn, api.assertion(signInOptions, authenticator: &phone)),
                    "FLOW_ENDED",
                    .gone
                )
            }
        }
    }

    @Test("finalizing a recovery cancels the user's other open recovery attempts", arguments: StoreKind.available)
    func finalizeCancelsOtherAttempts(kind: StoreKind) async throws {
        try await kind.withLiveServer(configure: Recovery.simulated) { _, api in
            var phone = TestAuthenticator()
            try await api.enroll("ada", authenticator: &phone)
            let (other, otherRegistration) = try await api.verifiedRecovery(userID: "ada")
            var newPhone = TestAuthenticator()
            let (start, _) = try await api.registeredRecovery(userID: "ada", authenticator: &newPhone)
            _ = try await api.backend(.post, Recovery.attempt(start.recoveryAttemptId) + "/finalize")
                .expect(.ok, RecoveryFinalizeView.self)
            let status = try await api.backend(.get, Recovery.attempt(other.recoveryAttemptId))
                .expect(.ok, RecoveryStatusView.self)
            #expect(status.status == "cancelled")
            var thief = TestAuthenticator()
            let late = try await api.completeRecovery(
                other.recoveryAttemptId,
                api.registrationResponse(otherRegistration.publicKey, authenticator: &thief),
                continuationToken: otherRegistration.continuationToken
            )
            expectError(late, "RECOVERY_ATTEMPT_CANCELLED", .conflict)
        }
    }
}
