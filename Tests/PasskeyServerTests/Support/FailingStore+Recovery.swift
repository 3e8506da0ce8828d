import Foundation
import PasskeyStorage

extension FailingStore {
    func createRecoveryAttempt(_ attempt: RecoveryAttemptRecord) async throws(StoreError) {
        try check()
        try await base.createRecoveryAttempt(attempt)
    }

    func recoveryAttempt(id: String) async throws(StoreError) -> RecoveryAttemptRecord? {
        try check()
        return await base.recoveryAttempt(id: id)
    }

    func exchangeRecoveryToken(
        attemptID: String,
        tokenHash: [UInt8],
        registrationFlow: FlowRecord,
        at time: Date
    ) async throws(StoreError) -> RecoveryAttemptRecord? {
        try check()
        return try await base.exchangeRecoveryToken(
            attemptID: attemptID,
            tokenHash: tokenHash,
            registrationFlow: registrationFlow,
            at: time
        )
    }

    func finalizeRecovery(
        attemptID: String,
        revoking: RecoveryRevocation,
        at time: Date
    ) async throws(StoreError) -> RecoveryFinalization? {
        try check()
        return await base.finalizeRecovery(attemptID: attemptID, revoking: revoking, at: time)
    }

    func cancelRecoveryAttempt(id: String, at time: Date) async throws(StoreError) -> RecoveryAttemptRecord? {
        try check()
        return await base.cancelRecoveryAttempt(id: id, at: time)
    }
}
