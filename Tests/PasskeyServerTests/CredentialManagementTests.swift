import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// Flow 6 of DESIGN §3: listing, reading, renaming and revoking credentials, and deleting users.
struct CredentialManagementTests {
    @Test func listsAUsersLivePasskeysOldestFirst() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            var laptop = TestAuthenticator()
            var key = TestAuthenticator()
            var bobs = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone, name: "Phone")
            server.clock.advance(by: 1)
            try await api.enroll("alice", authenticator: &laptop, name: "Laptop")
            server.clock.advance(by: 1)
            try await api.enroll("alice", authenticator: &key, name: "Key")
            try await api.enroll("bob", authenticator: &bobs)
            #expect(try await api.backend(.delete, Path.credential(laptop.credentialIDText)).status == .noContent)

            let list = try await api.backend(.get, Path.userCredentials("alice")).expect(.ok, CredentialListView.self)
            #expect(list.userId == "alice")
            #expect(list.credentials.map(\.name) == ["Phone", "Key"])
            #expect(list.credentials.allSatisfy { $0.userId == "alice" && $0.status == "active" })
            // No public key or attestation data in the list.
            let raw = try await api.backend(.get, Path.userCredentials("alice"))
            #expect(!raw.text.contains(Base64URL.encode(phone.key.coseKey)))
            #expect(try raw.json()["credentials"]?[0]?["publicKey"] == nil)
        }
    }

    @Test func readsRenamesAndRevokesAPasskey() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            let registered = try await api.enroll("alice", authenticator: &phone)
            let path = Path.credential(registered.credentialId)

            #expect(try await api.backend(.get, path).expect(.ok, CredentialView.self) == registered)

            let renamed = try await api.backend(.patch, path, body: Rename(name: "Work phone")).expect(
                .ok,
                CredentialView.self
            )
            #expect(renamed.name == "Work phone")
            #expect(try await api.backend(.get, path).expect(.ok, CredentialView.self).name == "Work phone")

            let revoked = try await api.backend(.delete, path)
            #expect(revoked.status == .noContent)
            #expect(revoked.body.isEmpty)
            let after = try await api.backend(.get, path).expect(.ok, CredentialView.self)
            #expect(after.status == "revoked")
            #expect(try await api.credentials(of: "alice").isEmpty)

            expectError(try await api.backend(.delete, path), "CREDENTIAL_INACTIVE", .forbidden)
            expectError(
                try await api.backend(.patch, path, body: Rename(name: "Old phone")),
                "CREDENTIAL_INACTIVE",
                .forbidden
            )
        }
    }

    @Test func unknownAndMalformedCredentialIDs() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let unknown = Path.credential(Base64URL.encode(Array(repeating: 9, count: 32)))
            expectError(try await api.backend(.get, unknown), "CREDENTIAL_NOT_FOUND", .notFound)
            expectError(
                try await api.backend(.patch, unknown, body: Rename(name: "x")),
                "CREDENTIAL_NOT_FOUND",
                .notFound
            )
            expectError(try await api.backend(.delete, unknown), "CREDENTIAL_NOT_FOUND", .notFound)
            for malformed in ["not*base64", "a", String(repeating: "A", count: 1400)] {
                expectError(try await api.backend(.get, Path.credential(malformed)), "INVALID_REQUEST", .badRequest)
                expectError(
                    try await api.backend(.patch, Path.credential(malformed), body: Rename(name: "x")),
                    "INVALID_REQUEST",
                    .badRequest
                )
                expectError(try await api.backend(.delete, Path.credential(malformed)), "INVALID_REQUEST", .badRequest)
            }
        }
    }

    @Test func deletingAUserRemovesTheirPasskeysAndSessions() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            var bobs = TestAuthenticator()
            let firstOptions = try await api.registrationOptions(
                try await api.createRegistration(NewRegistration(userId: "alice"))
            )
            try await api.enroll("alice", authenticator: &phone)
            try await api.enroll("bob", authenticator: &bobs)
            let pending = try await api.startSignIn(userID: "alice")

            let deleted = try await api.backend(.delete, "/v1/users/alice")
            #expect(deleted.status == .noContent)
            expectError(try await api.backend(.get, Path.userCredentials("alice")), "NOT_FOUND", .notFound)
            expectError(
                try await api.backend(.get, Path.credential(phone.credentialIDText)),
                "CREDENTIAL_NOT_FOUND",
                .notFound
            )
            expectError(try await api.backend(.delete, "/v1/users/alice"), "NOT_FOUND", .notFound)
            // The user's sessions went with them.
            expectError(
                try await api.client(
                    .post,
                    Path.authenticationOptions(pending.biometricPasskeySessionId),
                    token: pending.clientToken
                ),
                "UNAUTHENTICATED",
                .unauthorized
            )
            // Usernameless sign-in with the old passkey finds nothing.
            let (session, options) = try await api.signInSession(userID: nil)
            expectError(
                try await api.completeSignIn(session, api.assertion(options, authenticator: &phone)),
                "CREDENTIAL_NOT_FOUND",
                .notFound
            )
            // Bob is untouched.
            #expect(try await api.credentials(of: "bob").count == 1)

            // The id can be used again, for a new user with a new user handle.
            let again = try await api.registrationOptions(
                try await api.createRegistration(NewRegistration(userId: "alice"))
            )
            #expect(again.user.id != firstOptions.user.id)
            #expect(again.excludeCredentials ?? [] == [])
        }
    }

    @Test func userIDsAreChecked() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            expectError(try await api.backend(.get, Path.userCredentials("nobody")), "NOT_FOUND", .notFound)
            expectError(try await api.backend(.delete, "/v1/users/nobody"), "NOT_FOUND", .notFound)
            for bad in ["a%20b", "a%2Fb", String(repeating: "u", count: 129), "%C3%BC"] {
                expectError(try await api.backend(.get, Path.userCredentials(bad)), "INVALID_REQUEST", .badRequest)
                expectError(try await api.backend(.delete, "/v1/users/\(bad)"), "INVALID_REQUEST", .badRequest)
            }
        }
    }
}
