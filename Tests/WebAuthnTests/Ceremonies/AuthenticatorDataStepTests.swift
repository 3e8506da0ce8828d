import Crypto
import PasskeyTesting
import Testing

@testable import WebAuthn

/// The authenticator-data steps both ceremonies share: §7.1 steps 13–17 and §7.2 steps 15–18.
struct AuthenticatorDataStepTests {
    static func rpIDHash(_ rpID: String) -> [UInt8] { Array(SHA256.hash(data: Array(rpID.utf8))) }

    static let userVerificationCases: [(UserVerificationRequirement, AuthenticatorDataFlags, Bool)] = [
        (.required, .userPresent, false), (.required, [.userPresent, .userVerified], true),
        (.preferred, .userPresent, true), (.discouraged, .userPresent, true),
        (.preferred, [.userPresent, .userVerified], true),
    ]
    static let backupFlagCases: [(AuthenticatorDataFlags, Bool)] = [
        ([], true), (.backupEligible, true), ([.backupEligible, .backupState], true), (.backupState, false),
    ]
    static let backupEligiblePolicyCases: [(AuthenticatorDataFlags, Bool)] = [
        ([], true), (.backupEligible, false), ([.backupEligible, .backupState], false),
    ]

    @Test(
        "§7.1 step 13 / §7.2 step 15: rpIdHash must be SHA-256 of the RP ID",
        arguments: CeremonyKind.allCases,
        [
            "other.example", "login.example.com", "Example.com", "example.com.", "com", "",
        ]
    )
    func rpIDHashMismatch(_ kind: CeremonyKind, _ otherRPID: String) async throws {
        var setup = StepSetup()
        try await Fixture.run(kind, setup)
        setup.modify = { authenticatorData, _ in authenticatorData.rpIDHash = Self.rpIDHash(otherRPID) }
        await #expect(throws: code(.rpIDMismatch)) { try await Fixture.run(kind, setup) }
    }

    @Test(
        "§7.1 step 13 / §7.2 step 15: with several expected RP IDs, the hash of any of them is accepted",
        arguments: CeremonyKind.allCases,
        ["example.com", "example.org", "app.example.net"]
    )
    func severalRPIDs(_ kind: CeremonyKind, _ rpID: String) async throws {
        var setup = StepSetup(relyingPartyIDs: ["example.com", "example.org", "app.example.net"])
        setup.modify = { authenticatorData, _ in authenticatorData.rpIDHash = Self.rpIDHash(rpID) }
        try await Fixture.run(kind, setup)
        setup.relyingPartyIDs = ["example.net"]
        await #expect(throws: code(.rpIDMismatch)) { try await Fixture.run(kind, setup) }
    }

    @Test("§7.1 step 14 / §7.2 step 16: the UP flag is required", arguments: CeremonyKind.allCases)
    func userPresence(_ kind: CeremonyKind) async throws {
        var setup = StepSetup(flags: [.userVerified])
        await #expect(throws: code(.userPresenceRequired)) { try await Fixture.run(kind, setup) }
        // A relying party may turn the requirement off (for example for conditional create).
        setup.requireUserPresence = false
        try await Fixture.run(kind, setup)
    }

    @Test(
        "§7.1 step 15 / §7.2 step 17: UV is required only when user verification is required",
        arguments: CeremonyKind.allCases,
        userVerificationCases
    )
    func userVerification(
        _ kind: CeremonyKind,
        _ testCase: (UserVerificationRequirement, AuthenticatorDataFlags, Bool)
    ) async throws {
        let (requirement, flags, accepted) = testCase
        let setup = StepSetup(userVerification: requirement, flags: flags)
        if accepted {
            try await Fixture.run(kind, setup)
        } else {
            await #expect(throws: code(.userVerificationRequired)) { try await Fixture.run(kind, setup) }
        }
    }

    @Test(
        "§7.1 step 16 / §7.2 step 18 (§6.1): BS without BE is BACKUP_FLAGS_INVALID; every valid combination passes",
        arguments: CeremonyKind.allCases,
        backupFlagCases
    )
    func backupFlagsConsistency(_ kind: CeremonyKind, _ testCase: (AuthenticatorDataFlags, Bool)) async throws {
        let (backupFlags, accepted) = testCase
        let setup = StepSetup(flags: backupFlags.union([.userPresent, .userVerified]))
        if accepted {
            try await Fixture.run(kind, setup)
        } else {
            await #expect(throws: code(.backupFlagsInvalid)) { try await Fixture.run(kind, setup) }
        }
    }

    @Test(
        "§7.1 step 17: a relying party that accepts only device-bound credentials rejects BE",
        arguments: CeremonyKind.allCases,
        backupEligiblePolicyCases
    )
    func backupEligiblePolicy(_ kind: CeremonyKind, _ testCase: (AuthenticatorDataFlags, Bool)) async throws {
        let (backupFlags, accepted) = testCase
        var setup = StepSetup(allowBackupEligible: false, flags: backupFlags.union([.userPresent, .userVerified]))
        if accepted {
            try await Fixture.run(kind, setup)
        } else {
            await #expect(throws: code(.backupEligibleNotAllowed)) { try await Fixture.run(kind, setup) }
            setup.allowBackupEligible = true
            try await Fixture.run(kind, setup)
        }
    }

    @Test(
        "§7.1 step 12 / §7.2 step 15: authenticator data that does not decode is rejected",
        arguments: CeremonyKind.allCases
    )
    func malformedAuthenticatorData(_ kind: CeremonyKind) async {
        var setup = StepSetup()
        setup.modify = { authenticatorData, _ in authenticatorData.flags.insert(.extensionData) }
        await #expect(throws: code(.malformedAuthenticatorData)) { try await Fixture.run(kind, setup) }
    }
}
