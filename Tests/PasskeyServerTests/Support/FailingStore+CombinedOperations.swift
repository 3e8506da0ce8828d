import Foundation
import PasskeyStorage

extension FailingStore {
    func userWithCredentials(id: String) async throws(StoreError) -> UserCredentials? {
        try check()
        return await base.userWithCredentials(id: id)
    }

    func credentialWithOwner(id: [UInt8]) async throws(StoreError) -> CredentialOwner? {
        try check()
        return await base.credentialWithOwner(id: id)
    }

    func recordAuthentication(
        _ use: CredentialUse,
        flowID: String,
        expectedStatuses: Set<FlowStatus>,
        flowUpdate: FlowUpdate,
        at time: Date,
        audit: AuditAppend?
    ) async throws(StoreError) -> AuthenticationRecording {
        try check()
        return try await base.recordAuthentication(
            use,
            flowID: flowID,
            expectedStatuses: expectedStatuses,
            flowUpdate: flowUpdate,
            at: time,
            audit: audit
        )
    }
}
