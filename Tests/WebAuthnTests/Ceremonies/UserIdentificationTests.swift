import PasskeyTesting
import Testing

@testable import WebAuthn

/// §7.2 step 6: the user who owns the credential, in each identification mode.
struct UserIdentificationTests {
    static let alice = Array("alice-handle".utf8)
    static let bob = Array("bob-handle".utf8)

    enum Handle: String, CaseIterable, Sendable { case alice, bob, missing, empty }

    /// Verifies an assertion whose record belongs to `owner` and whose response carries `handle`.
    static func verify(
        _ mode: UserIdentification,
        owner: [UInt8]?,
        handle: Handle
    ) throws(WebAuthnError) -> VerifiedAuthentication {
        var authenticator = TestAuthenticator()
        var record = authenticator.record
        record.userHandle = owner
        var response = Fixture.authentication(&authenticator)
        response.response.userHandle =
            switch handle {
            case .alice: Base64URLBytes(alice)
            case .bob: Base64URLBytes(bob)
            case .missing: nil
            case .empty: Base64URLBytes([])
            }
        return try Fixture.authenticationCeremony(user: mode).verify(response, credential: record)
    }

    @Test(
        "§7.2 step 6 (user identified first): the credential and any userHandle must be that user's",
        arguments: [
            (Handle.alice, true), (.missing, true), (.empty, true), (.bob, false),
        ]
    )
    func identified(_ handle: Handle, _ accepted: Bool) throws {
        if accepted {
            _ = try Self.verify(.identified(userHandle: Self.alice), owner: Self.alice, handle: handle)
        } else {
            #expect(throws: code(.userHandleMismatch)) {
                try Self.verify(.identified(userHandle: Self.alice), owner: Self.alice, handle: handle)
            }
        }
    }

    @Test(
        "§7.2 step 6 (user identified first): a credential of another user is USER_HANDLE_MISMATCH",
        arguments: Handle.allCases
    )
    func identifiedOtherUsersCredential(_ handle: Handle) {
        #expect(throws: code(.userHandleMismatch)) {
            try Self.verify(.identified(userHandle: Self.alice), owner: Self.bob, handle: handle)
        }
    }

    @Test("§7.2 step 6 (user identified first): a record without a user handle relies on the relying party's lookup")
    func identifiedRecordWithoutOwner() throws {
        _ = try Self.verify(.identified(userHandle: Self.alice), owner: nil, handle: .missing)
        #expect(throws: code(.userHandleMismatch)) {
            try Self.verify(.identified(userHandle: Self.alice), owner: nil, handle: .bob)
        }
    }

    @Test(
        "§7.2 step 6 (discoverable): userHandle must be present and be the credential owner's",
        arguments: [
            (Handle.alice, true), (.bob, false), (.missing, false), (.empty, false),
        ]
    )
    func discoverable(_ handle: Handle, _ accepted: Bool) throws {
        if accepted {
            let result = try Self.verify(.discoverable, owner: Self.alice, handle: handle)
            #expect(result.userHandle == Self.alice)
        } else {
            #expect(throws: code(.userHandleMismatch)) {
                try Self.verify(.discoverable, owner: Self.alice, handle: handle)
            }
        }
    }

    @Test("§7.2 step 6 (discoverable): a record without an owner cannot be matched")
    func discoverableRecordWithoutOwner() {
        #expect(throws: code(.userHandleMismatch)) { try Self.verify(.discoverable, owner: nil, handle: .alice) }
    }

    @Test("Credential only: the user handle is not checked", arguments: Handle.allCases)
    func credentialOnly(_ handle: Handle) throws {
        let result = try Self.verify(.credentialOnly, owner: Self.alice, handle: handle)
        #expect(result.userHandle == (handle == .alice ? Self.alice : handle == .bob ? Self.bob : nil))
    }
}
