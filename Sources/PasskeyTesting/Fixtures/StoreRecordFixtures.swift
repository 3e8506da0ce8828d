public import Foundation
public import PasskeyStorage

extension FlowRecord {
    /// A flow for a store test: a registration that has just been created at ``TestTime/fixed`` and lives two
    /// minutes, with a random id and client token hash. Give only what the test is about.
    public static func fixture(
        id: String = "flow-\(UUID().uuidString.lowercased())",
        kind: FlowKind = .registration,
        status: FlowStatus = .created,
        userID: String? = nil,
        clientTokenHash: [UInt8] = TestTime.randomBytes(),
        challengeHash: [UInt8]? = nil,
        challengeExpiresAt: Date? = nil,
        resultTokenHash: [UInt8]? = nil,
        resultExpiresAt: Date? = nil,
        expiresAt: Date = TestTime.fixed + 120,
        createdAt: Date = TestTime.fixed,
        updatedAt: Date? = nil,
        payload: [UInt8] = []
    ) -> FlowRecord {
        FlowRecord(
            id: id,
            kind: kind,
            status: status,
            userID: userID,
            clientTokenHash: clientTokenHash,
            challengeHash: challengeHash,
            challengeExpiresAt: challengeExpiresAt,
            resultTokenHash: resultTokenHash,
            resultExpiresAt: resultExpiresAt,
            expiresAt: expiresAt,
            createdAt: createdAt,
            updatedAt: updatedAt ?? createdAt,
            payload: payload
        )
    }
}

extension UserRecord {
    /// A user for a store test, created at ``TestTime/fixed``; without an id, one of its own, and a name made from it
    /// (user names are unique).
    public static func fixture(
        id: String = "user-\(UUID().uuidString.lowercased())",
        handle: [UInt8] = TestTime.randomBytes(),
        name: String? = nil,
        displayName: String = "Ada Lovelace",
        createdAt: Date = TestTime.fixed
    ) -> UserRecord {
        UserRecord(
            id: id,
            handle: handle,
            name: name ?? "ada+\(id)@example.com",
            displayName: displayName,
            createdAt: createdAt
        )
    }
}

extension CredentialRecordRow {
    /// A credential for a store test: an ES256 passkey of `userID` created at ``TestTime/fixed``, with a random id
    /// and key. Give only what the test is about.
    public static func fixture(
        userID: String,
        name: String = "Phone",
        status: Status = .active,
        reservedUntil: Date? = nil,
        flowID: String? = nil
    ) -> CredentialRecordRow {
        CredentialRecordRow(
            id: TestTime.randomBytes(),
            userID: userID,
            publicKey: TestTime.randomBytes(77),
            algorithm: -7,
            signCount: 0,
            aaguid: "00000000-0000-0000-0000-000000000000",
            attestationFormat: "none",
            attestationType: "none",
            attestationTrusted: false,
            transports: ["internal", "hybrid"],
            backupEligible: true,
            backupState: true,
            userVerified: true,
            name: name,
            nameKey: name.lowercased(),
            status: status,
            reservedUntil: reservedUntil,
            flowID: flowID,
            createdAt: TestTime.fixed
        )
    }
}
