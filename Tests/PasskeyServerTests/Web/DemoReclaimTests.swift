import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// An account is claimed once: a demo sign-up never takes over an account that has had a passkey, and a sign-up
/// left pending never writes the stored profile. Over a real socket, on SQLite and on PostgreSQL.
@Suite("Web demo: accounts are claimed once")
struct DemoReclaimTests {
    /// The user of that name as the backend API lists them.
    static func user(_ api: API, named name: String) async throws -> (id: String, displayName: String) {
        let users = try await api.backend(.get, "/v1/users?query=\(name)").json()
        let first = try #require(users.object?["users"]?.array?.first { $0.object?["userName"]?.string == name })
        return (
            try #require(first.object?["userId"]?.string), try #require(first.object?["displayName"]?.string)
        )
    }

    @Test(
        "an account whose passkeys were all deleted is not signed up again by someone else",
        arguments: RealStore.available
    )
    func deletedPasskeysKeepTheAccount(_ store: RealStore) async throws {
        try await store.withLiveServer { _, api in
            let owner = WebClient(api)
            var ownerPhone = TestAuthenticator()
            let credentialID = try await DemoTests.signUp("erin", owner, &ownerPhone)
            try await owner.get("/account")
            let deleted = try await owner.submit("/account/passkeys/\(credentialID)/delete")
            #expect(deleted.status == .seeOther, "\(deleted)")
            let (userID, _) = try await Self.user(api, named: "erin")
            #expect(try await api.credentials(of: userID).isEmpty, "the account has no passkey left")

            let squatter = WebClient(api)
            try await squatter.get("/")
            var squatterPhone = TestAuthenticator()
            let attempt = try await squatter.post("/demo/sign-up", json: #"{"userName": "erin"}"#)
            if attempt.status == .created {
                let started = try attempt.decode(RegistrationAttempt.self)
                let options = try await api.registrationOptions(started)
                let late = try await api.completeRegistration(
                    started,
                    api.registrationResponse(options, authenticator: &squatterPhone)
                )
                expectError(late, "USER_NAME_TAKEN", .conflict)
                let finish = try await squatter.post(
                    "/demo/sign-up/finish",
                    body: ["registrationAttemptId": started.registrationAttemptId]
                )
                #expect(finish.status.code >= 400, "\(finish)")
            } else {
                expectError(attempt, "USER_NAME_TAKEN", .conflict)
            }
            #expect(try await squatter.get("/account").status == .seeOther, "the squatter is not signed in")
            #expect(try await api.credentials(of: userID).isEmpty, "no passkey was added to the account")
        }
    }

    @Test(
        "a pending sign-up never writes the stored profile; the one that completes does",
        arguments: RealStore.available
    )
    func pendingSignUpWritesNoProfile(_ store: RealStore) async throws {
        try await store.withLiveServer { _, api in
            let squatter = WebClient(api)
            try await squatter.get("/")
            _ = try await squatter.post(
                "/demo/sign-up",
                json: #"{"userName": "fay", "displayName": "Squatter Was Here"}"#
            )
            .expect(.created, RegistrationAttempt.self)
            #expect(try await Self.user(api, named: "fay").displayName == "fay", "a pending sign-up's name stands in")

            let owner = WebClient(api)
            try await owner.get("/")
            let attempt = try await owner.post(
                "/demo/sign-up",
                json: #"{"userName": "fay", "displayName": "Fay Owner"}"#
            )
            .expect(.created, RegistrationAttempt.self)
            var phone = TestAuthenticator()
            let options = try await api.registrationOptions(attempt)
            #expect(options.user.displayName == "Fay Owner", "the ceremony shows the owner's own display name")
            _ = try await api.completeRegistration(attempt, api.registrationResponse(options, authenticator: &phone))
                .expect(.created, CredentialView.self)
            #expect(
                try await owner.post(
                    "/demo/sign-up/finish",
                    body: ["registrationAttemptId": attempt.registrationAttemptId]
                )
                .status == .ok
            )
            #expect(try await Self.user(api, named: "fay").displayName == "Fay Owner")
            #expect(try await owner.get("/account").text.contains("Fay Owner"))
        }
    }
}
