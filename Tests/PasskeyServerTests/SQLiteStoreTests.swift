import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyStorage
import PasskeyStoreSQLite
import PasskeyTesting
import Testing
import WebAuthn

/// The server on a real SQLite file: the core flows, what survives a restart, and the concurrency rule of
/// DESIGN §3 (two completions of one challenge cannot both succeed).
struct SQLiteStoreTests {
    /// A fresh database file in its own temporary folder, closed and removed after `body`.
    static func withDatabase<Value>(_ body: (String) async throws -> Value) async throws -> Value {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "passkey-server-tests-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder.appendingPathComponent("passkeys.sqlite").path)
    }

    /// Opens the file, runs `body` against a server on it, and closes the store however `body` ends.
    static func withServer<Value: Sendable>(
        path: String,
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (TestServer, API) async throws -> Value
    ) async throws -> Value {
        let store = try await SQLitePasskeyStore.open(path: path)
        do {
            let server = try TestServer(store: store, configure: configure)
            let value = try await server.withAPI { api in try await body(server, api) }
            await store.close()
            return value
        } catch {
            await store.close()
            throw error
        }
    }

    @Test func theCoreFlowsWorkAndSurviveARestart() async throws {
        try await Self.withDatabase { path in
            let (phoneID, laptop) = try await Self.withServer(path: path) { server, api in
                var phone = TestAuthenticator()
                var laptop = TestAuthenticator()
                let first = try await api.enroll(
                    NewRegistration(userId: "alice", displayName: "Alice"),
                    authenticator: &phone
                )
                #expect(first.name == "Passkey")
                server.clock.advance(by: 1)
                try await api.enroll("alice", authenticator: &laptop, name: "Laptop")

                // Sign-in with and without the username.
                let withName = try await api.signIn(userID: "alice", authenticator: &phone, action: "login")
                #expect(withName.userId == "alice")
                #expect(withName.credentialId == phone.credentialIDText)
                #expect(withName.action == "login")
                let withoutName = try await api.signIn(userID: nil, authenticator: &laptop)
                #expect(withoutName.userId == "alice")
                #expect(withoutName.credentialId == laptop.credentialIDText)
                let stepUp = try await api.signIn(userID: "alice", authenticator: &phone, mode: "stepUp")
                #expect(stepUp.mode == "stepUp")

                // List, rename, revoke.
                #expect(try await api.credentials(of: "alice").map(\.name) == ["Passkey", "Laptop"])
                let renamed = try await api.backend(
                    .patch,
                    Path.credential(phone.credentialIDText),
                    body: Rename(name: "Phone")
                )
                #expect(try renamed.expect(.ok, CredentialView.self).name == "Phone")
                expectError(
                    try await api.backend(
                        .patch,
                        Path.credential(laptop.credentialIDText),
                        body: Rename(name: "PHONE")
                    ),
                    "CREDENTIAL_NAME_DUPLICATE",
                    .conflict
                )
                #expect(try await api.backend(.delete, Path.credential(phone.credentialIDText)).status == .noContent)
                #expect(try await api.credentials(of: "alice").map(\.name) == ["Laptop"])
                let (session, options) = try await api.signInSession(userID: nil)
                expectError(
                    try await api.completeSignIn(session, api.assertion(options, authenticator: &phone)),
                    "CREDENTIAL_INACTIVE",
                    .forbidden
                )

                // Explicit finalize on SQLite.
                server.clock.advance(by: 1)
                var key = TestAuthenticator()
                let attempt = try await ExplicitFinalizeTests.reserve(api, &key)
                #expect(
                    try await ExplicitFinalizeTests.settle(api, ExplicitFinalizeTests.finalizePath, attempt).status
                        == .ok
                )
                return (phone.credentialIDText, laptop)
            }

            // A new process on the same file.
            try await Self.withServer(path: path) { server, api in
                var laptop = laptop
                let credentials = try await api.credentials(of: "alice")
                #expect(credentials.map(\.name) == ["Laptop", "Passkey"])
                #expect(
                    try await api.backend(.get, Path.credential(phoneID)).expect(.ok, CredentialView.self).status
                        == "revoked"
                )
                // The counter was kept: the laptop signs in with its next value, a copy with an old one is refused.
                var stale = laptop
                #expect(
                    try await api.signIn(userID: "alice", authenticator: &laptop).credentialId
                        == laptop.credentialIDText
                )
                let (session, options) = try await api.signInSession(userID: "alice")
                expectError(
                    try await api.completeSignIn(session, api.assertion(options, authenticator: &stale)),
                    "CREDENTIAL_CLONE_SUSPECTED",
                    .badRequest
                )
                let actions = try await api.auditEvents(query: "?limit=500").events.map(\.action)
                #expect(actions.contains("credential.renamed"))
                #expect(actions.contains("registration.finalized"))
            }
        }
    }

    enum StoreKind: String, Sendable, CaseIterable {
        case memory, sqlite
    }

    static func withServer<Value: Sendable>(
        _ kind: StoreKind,
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (TestServer, API) async throws -> Value
    ) async throws -> Value {
        switch kind {
        case .memory:
            let server = try TestServer(configure: configure)
            return try await server.withAPI { api in try await body(server, api) }
        case .sqlite:
            return try await withDatabase { path in try await withServer(path: path, configure: configure, body) }
        }
    }

    static let contenders = 50

    @Test(arguments: StoreKind.allCases)
    func concurrentCompletionsOfOneSignInChallengeHaveOneWinner(_ kind: StoreKind) async throws {
        try await Self.withServer(kind) { server, api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            let (session, options) = try await api.signInSession(userID: "alice")
            let response = api.assertion(options, authenticator: &phone)

            let results = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for _ in 0..<Self.contenders {
                    group.addTask { try await api.completeSignIn(session, response) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let winners = results.filter { $0.status == .ok }
            #expect(winners.count == 1)
            // Every other completion finds the challenge spent (the winner holds or has finished it).
            for loser in results where loser.status != .ok {
                expectError(loser, "CHALLENGE_CONSUMED", .conflict)
            }
            let token = try #require(winners.first).decode(SignInCompletion.self).resultToken
            #expect(try await api.redeem(session, token).status == .ok)
            let completions = try await api.auditEvents(query: "?limit=500").events.filter {
                $0.action == "authentication.completed"
            }
            #expect(completions.count == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentCompletionsOfOneRegistrationChallengeStoreOneCredential(_ kind: StoreKind) async throws {
        try await Self.withServer(kind) { server, api in
            let attempt = try await api.createRegistration(NewRegistration(userId: "alice"))
            var phone = TestAuthenticator()
            let response = try api.registrationResponse(
                try await api.registrationOptions(attempt),
                authenticator: &phone
            )

            let results = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for _ in 0..<Self.contenders {
                    group.addTask { try await api.completeRegistration(attempt, response) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { $0.status == .created }.count == 1)
            for loser in results where loser.status != .created {
                expectError(loser, "CHALLENGE_CONSUMED", .conflict)
            }
            #expect(try await api.credentials(of: "alice").count == 1)
        }
    }

    /// DESIGN §3.6: the limit holds when a user's devices register at the same moment.
    @Test(arguments: StoreKind.allCases)
    func concurrentRegistrationsRespectTheLimit(_ kind: StoreKind) async throws {
        let limitOfThree: (inout ServerConfiguration) -> Void = { $0.policy.maxCredentialsPerUser = 3 }
        try await Self.withServer(kind, configure: limitOfThree) { server, api in
            // Ten devices, each with its own attempt and options, complete at once.
            var prepared: [(RegistrationAttempt, RegistrationResponseJSON, String)] = []
            for index in 0..<10 {
                let attempt = try await api.createRegistration(NewRegistration(userId: "alice"))
                var device = TestAuthenticator()
                prepared.append(
                    (
                        attempt,
                        try api.registrationResponse(
                            try await api.registrationOptions(attempt),
                            authenticator: &device
                        ), "Device \(index)"
                    )
                )
            }
            let ready = prepared
            let results = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for (attempt, response, name) in ready {
                    group.addTask { try await api.completeRegistration(attempt, response, name: name) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { $0.status == .created }.count == 3)
            for refused in results where refused.status != .created {
                expectError(refused, "MAX_CREDENTIALS_REACHED", .conflict)
            }
            #expect(try await api.credentials(of: "alice").count == 3)
        }
    }

    /// Devices of one user registering at the same moment all get a default name, each a different one; none is
    /// refused for a name the user never chose.
    @Test(arguments: StoreKind.allCases)
    func concurrentRegistrationsGetDistinctDefaultNames(_ kind: StoreKind) async throws {
        try await Self.withServer(kind) { server, api in
            var prepared: [(RegistrationAttempt, RegistrationResponseJSON)] = []
            for _ in 0..<8 {
                let attempt = try await api.createRegistration(NewRegistration(userId: "alice"))
                var device = TestAuthenticator()
                prepared.append(
                    (
                        attempt,
                        try api.registrationResponse(try await api.registrationOptions(attempt), authenticator: &device)
                    )
                )
            }
            let ready = prepared
            let results = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for (attempt, response) in ready {
                    group.addTask { try await api.completeRegistration(attempt, response) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.allSatisfy { $0.status == .created }, "\(results.filter { $0.status != .created })")
            let names = try await api.credentials(of: "alice").map(\.name)
            #expect(Set(names) == Set(["Passkey"] + (2...8).map { "Passkey \($0)" }))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentRedemptionsOfOneResultHaveOneWinner(_ kind: StoreKind) async throws {
        try await Self.withServer(kind) { server, api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            let (session, options) = try await api.signInSession(userID: "alice")
            let token = try await api.completeSignIn(session, api.assertion(options, authenticator: &phone)).expect(
                .ok,
                SignInCompletion.self
            ).resultToken
            let results = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for _ in 0..<Self.contenders {
                    group.addTask { try await api.redeem(session, token) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { $0.status == .ok }.count == 1)
            for loser in results where loser.status != .ok {
                expectError(loser, "RESULT_ALREADY_REDEEMED", .conflict)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aReservationIsFinalizedOrAbortedNotBoth(_ kind: StoreKind) async throws {
        try await Self.withServer(kind) { server, api in
            var phone = TestAuthenticator()
            let attempt = try await ExplicitFinalizeTests.reserve(api, &phone)
            let id = attempt.registrationAttemptId
            let results = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await api.backend(
                            .post,
                            "/v1/registrations/\(id)/\(index.isMultiple(of: 2) ? "finalize" : "abort")",
                            body: SettleBody(finalizeToken: attempt.finalizeToken, reason: nil)
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let winners = results.filter { $0.status == .ok }
            #expect(winners.count == 1)
            for loser in results where loser.status != .ok {
                expectError(loser, "REGISTRATION_ATTEMPT_CONFLICT", .conflict)
            }
            let outcome = try #require(winners.first).decode(RegistrationStatusView.self).status
            let credentials = try await api.credentials(of: "alice")
            #expect(credentials.map(\.status) == (outcome == "finalized" ? ["active"] : []))
        }
    }

    /// Runs `count` copies of `call` at once.
    static func race(
        _ count: Int,
        _ call: @escaping @Sendable () async throws -> APIResponse
    ) async throws -> [APIResponse] {
        try await withThrowingTaskGroup(of: APIResponse.self) { group in
            for _ in 0..<count { group.addTask { try await call() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentManagementCallsHaveOneWinner(_ kind: StoreKind) async throws {
        try await Self.withServer(kind) { server, api in
            var phone = TestAuthenticator()
            var laptop = TestAuthenticator()
            var key = TestAuthenticator()
            let phoneCredential = try await api.enroll("alice", authenticator: &phone)
            let laptopCredential = try await api.enroll("alice", authenticator: &laptop)
            let keyCredential = try await api.enroll("alice", authenticator: &key)

            // Two passkeys renamed to one name at once: one gets it.
            let renames = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for credential in [phoneCredential, laptopCredential] {
                    group.addTask {
                        try await api.backend(
                            .patch,
                            Path.credential(credential.credentialId),
                            body: Rename(name: "Mine")
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(renames.filter { $0.status == .ok }.count == 1)
            for loser in renames where loser.status != .ok {
                expectError(loser, "CREDENTIAL_NAME_DUPLICATE", .conflict)
            }

            let revocations = try await Self.race(20) {
                try await api.backend(.delete, Path.credential(keyCredential.credentialId))
            }
            #expect(revocations.filter { $0.status == .noContent }.count == 1)
            for loser in revocations where loser.status != .noContent {
                expectError(loser, "CREDENTIAL_INACTIVE", .forbidden)
            }
            #expect(
                try await api.auditEvents(query: "?limit=500").events.filter { $0.action == "credential.revoked" }.count
                    == 1
            )

            let deletions = try await Self.race(20) { try await api.backend(.delete, "/v1/users/alice") }
            #expect(deletions.filter { $0.status == .noContent }.count == 1)
            for loser in deletions where loser.status != .noContent { expectError(loser, "NOT_FOUND", .notFound) }
        }
    }
}
