import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// Passkey names (DESIGN §3 flow 6): 1–64 characters after trimming and NFC, no control characters, no HTML,
/// unique per user ignoring case; defaults from the authenticator, made unique.
struct CredentialNameTests {
    struct BadName: Sendable, CustomTestStringConvertible {
        let name: String
        let code: String
        let why: String
        var testDescription: String { why }
    }

    static let badNames: [BadName] = [
        BadName(name: "", code: "CREDENTIAL_NAME_INVALID", why: "empty"),
        BadName(name: " \n\t ", code: "CREDENTIAL_NAME_INVALID", why: "only white space"),
        BadName(name: String(repeating: "x", count: 65), code: "CREDENTIAL_NAME_INVALID", why: "65 characters"),
        BadName(
            name: String(repeating: "é", count: 65),
            code: "CREDENTIAL_NAME_INVALID",
            why: "65 characters after NFC"
        ),
        BadName(name: "Phone\u{7}", code: "CREDENTIAL_NAME_INVALID", why: "a control character"),
        BadName(name: "Pho\u{0}ne", code: "CREDENTIAL_NAME_INVALID", why: "a NUL"),
        BadName(name: "Pho\u{200B}ne", code: "CREDENTIAL_NAME_INVALID", why: "a zero-width space"),
        BadName(name: "Phone\u{202E}", code: "CREDENTIAL_NAME_INVALID", why: "a bidirectional override"),
        BadName(name: "<script>alert(1)</script>", code: "CREDENTIAL_NAME_HTML", why: "a script tag"),
        BadName(name: "a > b", code: "CREDENTIAL_NAME_HTML", why: "an angle bracket"),
        BadName(
            name: "\u{0D4E}<meta http-equiv=refresh>",
            code: "CREDENTIAL_NAME_HTML",
            why: "an angle bracket joined to the character before it"
        ),
        BadName(name: "a<\u{0301}b", code: "CREDENTIAL_NAME_HTML", why: "an angle bracket joined to a combining mark"),
        BadName(
            name: "e" + String(repeating: "\u{0301}", count: 20_000),
            code: "CREDENTIAL_NAME_INVALID",
            why: "one character of 40,001 bytes (lengths count scalars)"
        ),
        BadName(
            name: String(repeating: "x\u{0301}\u{0302}", count: 22),
            code: "CREDENTIAL_NAME_INVALID",
            why: "22 characters of 66 scalars that NFC cannot combine"
        ),
    ]

    @Test(arguments: badNames)
    func badNamesAreRefusedEverywhereANameIsGiven(_ bad: BadName) async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            let credential = try await api.enroll("alice", authenticator: &phone)

            // Creating the attempt.
            expectError(
                try await api.backend(
                    .post,
                    "/v1/registrations",
                    body: NewRegistration(userId: "alice", credentialName: bad.name)
                ),
                bad.code,
                .badRequest
            )
            // Completing it.
            let attempt = try await api.createRegistration(NewRegistration(userId: "alice"))
            var laptop = TestAuthenticator()
            let response = try api.registrationResponse(
                try await api.registrationOptions(attempt),
                authenticator: &laptop
            )
            expectError(try await api.completeRegistration(attempt, response, name: bad.name), bad.code, .badRequest)
            // The challenge was not spent on a bad name: the same response completes with a good one.
            #expect(try await api.completeRegistration(attempt, response, name: "Laptop").status == .created)
            // Renaming.
            expectError(
                try await api.backend(.patch, Path.credential(credential.credentialId), body: Rename(name: bad.name)),
                bad.code,
                .badRequest
            )
            #expect(Set(try await api.credentials(of: "alice").map(\.name)) == ["Passkey", "Laptop"])
        }
    }

    @Test func namesAreTrimmedNormalisedAndMayBe64Characters() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            let credential = try await api.enroll("alice", authenticator: &phone, name: "  Cafe\u{301} phone \n")
            #expect(credential.name == "Caf\u{E9} phone")
            #expect(Array(credential.name.unicodeScalars).count == 10)

            let longest = String(repeating: "n", count: 64)
            let renamed = try await api.backend(
                .patch,
                Path.credential(credential.credentialId),
                body: Rename(name: longest)
            )
            #expect(try renamed.expect(.ok, CredentialView.self).name == longest)
            // Renaming to its own name, in another case, is allowed.
            let same = try await api.backend(
                .patch,
                Path.credential(credential.credentialId),
                body: Rename(name: longest.uppercased())
            )
            #expect(try same.expect(.ok, CredentialView.self).name == longest.uppercased())
        }
    }

    @Test func namesAreUniquePerUserIgnoringCaseAndNormalisation() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            var laptop = TestAuthenticator()
            var bobs = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone, name: "Café")
            let second = try await api.enroll("alice", authenticator: &laptop, name: "Laptop")
            // Another user may use the same name.
            try await api.enroll("bob", authenticator: &bobs, name: "Café")

            for taken in ["café", "CAFE\u{301}", " Café "] {
                expectError(
                    try await api.backend(.patch, Path.credential(second.credentialId), body: Rename(name: taken)),
                    "CREDENTIAL_NAME_DUPLICATE",
                    .conflict
                )
            }
            var tablet = TestAuthenticator()
            let attempt = try await api.createRegistration(NewRegistration(userId: "alice", credentialName: "LAPTOP"))
            let response = try api.registrationResponse(
                try await api.registrationOptions(attempt),
                authenticator: &tablet
            )
            expectError(try await api.completeRegistration(attempt, response), "CREDENTIAL_NAME_DUPLICATE", .conflict)
            // A name freed by revocation can be used again, by a new attempt: the revocation reset the user, which
            // ended the attempt in flight.
            #expect(try await api.backend(.delete, Path.credential(second.credentialId)).status == .noContent)
            let again = try await api.createRegistration(NewRegistration(userId: "alice", credentialName: "LAPTOP"))
            let retry = try await api.registrationOptions(again)
            let tabletCredential = try await api.completeRegistration(
                again,
                try api.registrationResponse(retry, authenticator: &tablet)
            )
            #expect(try tabletCredential.expect(.created, CredentialView.self).name == "LAPTOP")
        }
    }

    @Test func theNameGivenAtCreationIsUsedUnlessCompletionGivesOne() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            var laptop = TestAuthenticator()
            let fromCreation = try await api.enroll(
                NewRegistration(userId: "alice", credentialName: "Work phone"),
                authenticator: &phone
            )
            #expect(fromCreation.name == "Work phone")
            let fromCompletion = try await api.enroll(
                NewRegistration(userId: "alice", credentialName: "Ignored"),
                authenticator: &laptop,
                name: "Laptop"
            )
            #expect(fromCompletion.name == "Laptop")
        }
    }

    @Test func defaultNamesComeFromTheAuthenticatorAndAreUnique() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var names: [String] = []
            for _ in 0..<3 {
                var phone = TestAuthenticator()
                names.append(try await api.enroll("alice", authenticator: &phone).name)
            }
            #expect(names == ["Passkey", "Passkey 2", "Passkey 3"])

            var keychain = TestAuthenticator()
            keychain.aaguid = Self.bytes(of: "fbfc3007-154e-4ecc-8c0b-6e020557d7bd")
            var keychain2 = TestAuthenticator()
            keychain2.aaguid = keychain.aaguid
            let first = try await api.enroll("alice", authenticator: &keychain)
            let second = try await api.enroll("alice", authenticator: &keychain2)
            // The shipped list names this AAGUID as Apple now calls it.
            #expect(first.name == "Apple Passwords")
            #expect(first.authenticatorName == "Apple Passwords")
            #expect(first.aaguid == "fbfc3007-154e-4ecc-8c0b-6e020557d7bd")
            #expect(second.name == "Apple Passwords 2")

            // A synced passkey of an unknown provider.
            let attempt = try await api.createRegistration(NewRegistration(userId: "bob"))
            let options = try await api.registrationOptions(attempt)
            var synced = TestAuthenticator()
            synced.userHandle = options.user.id.bytes
            let response = try synced.registrationResponse(
                challenge: options.challenge.bytes,
                origin: server.origin,
                rpID: server.rpID,
                flags: [.userPresent, .userVerified, .backupEligible, .backupState]
            )
            let credential = try await api.completeRegistration(attempt, response).expect(.created, CredentialView.self)
            #expect(credential.name == "Synced passkey")
            #expect(credential.kind == "synced")
            #expect(credential.backupEligible && credential.backupState)
        }
    }

    static func bytes(of uuid: String) -> [UInt8] {
        withUnsafeBytes(of: UUID(uuidString: uuid)!.uuid, Array.init)
    }
}
