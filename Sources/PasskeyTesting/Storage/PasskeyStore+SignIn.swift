public import Foundation
public import PasskeyStorage

extension PasskeyStore {
    /// Records a use of the credential as a verified sign-in does: opens an authentication flow of the credential's
    /// user, as it stands at `time` (`.verifying`), and records the use with it through
    /// ``CeremonyStore/recordAuthentication(_:flowID:expectedStatuses:flowUpdate:at:)``. Returns the credential as
    /// written, or nil when the use was not recorded (the credential is unknown, not active, or its counter is no
    /// longer `expectedSignCount`).
    public func recordSignIn(
        id: [UInt8],
        expectedSignCount: UInt32,
        signCount: UInt32,
        backupState: Bool,
        at time: Date
    ) async throws -> CredentialRecordRow? {
        let flow = FlowRecord(
            id: "flow-\(UUID().uuidString.lowercased())",
            kind: .authentication,
            status: .verifying,
            userID: try await credential(id: id)?.userID,
            clientTokenHash: (0..<32).map { _ in UInt8.random(in: 0...255) },
            expiresAt: time + 120,
            createdAt: time,
            updatedAt: time,
            payload: []
        )
        try await createFlow(flow)
        let recording = try await recordAuthentication(
            CredentialUse(
                credentialID: id,
                expectedSignCount: expectedSignCount,
                signCount: signCount,
                backupState: backupState
            ),
            flowID: flow.id,
            expectedStatuses: [.verifying],
            flowUpdate: FlowUpdate(status: .completed),
            at: time
        )
        guard case .recorded(let credential, _) = recording else { return nil }
        return credential
    }
}
