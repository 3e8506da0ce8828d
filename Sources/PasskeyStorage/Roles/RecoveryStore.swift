public import Foundation

/// Recovery attempts: a user who lost their passkeys registers a new one. Part of ``PasskeyStore``.
public protocol RecoveryStore: Sendable {
    /// Inserts the attempt: `.duplicate` when its id is known, `.notFound` when there is no user `attempt.userID`. A
    /// refused insert changes nothing.
    func createRecoveryAttempt(_ attempt: RecoveryAttemptRecord) async throws(StoreError)
    /// The attempt with this id, whatever its status and expiry.
    func recoveryAttempt(id: String) async throws(StoreError) -> RecoveryAttemptRecord?
    /// Exchanges the attempt's recovery token, once, for its replacement registration: in one transaction, while the
    /// attempt is `.pending`, its token hash is `tokenHash` and it has not expired at `time`, it becomes `.exchanged`
    /// naming `registrationFlow`, which is inserted. Returns the updated attempt, or nil when that did not hold (and
    /// nothing changed).
    ///
    /// Of racing exchanges, on one server or on several sharing a database, exactly one succeeds.
    func exchangeRecoveryToken(
        attemptID: String,
        tokenHash: [UInt8],
        registrationFlow: FlowRecord,
        at time: Date
    ) async throws(StoreError) -> RecoveryAttemptRecord?
    /// Finalizes the attempt, in one transaction, when it is `.exchanged`, has not expired at `time`, and its
    /// registration flow holds a live reserved credential: that credential becomes active; the user's other
    /// credentials that are not revoked and that `revoking` names are revoked at `time`; the attempt becomes
    /// `.finalized` and its registration flow `.finalized`; the user's web sessions are deleted; and every other flow
    /// of the user in flight ends, their other open recovery attempts included: a finalize is a reset of the user
    /// (see ``PasskeyStore``).
    /// Returns what it did, or nil when a precondition did not hold (and nothing changed).
    ///
    /// Of a finalize racing a cancel, exactly one succeeds. A credential use racing the revocation either happens
    /// before it, or is refused (see ``CeremonyStore/recordAuthentication(_:flowID:expectedStatuses:flowUpdate:at:)``).
    func finalizeRecovery(
        attemptID: String,
        revoking: RecoveryRevocation,
        at time: Date
    ) async throws(StoreError) -> RecoveryFinalization?
    /// Cancels the attempt while it is `.pending` or `.exchanged` (expired or not), in one transaction with deleting
    /// the reserved credential of its registration flow, whose status becomes `.aborted`. Returns the cancelled
    /// attempt, or nil when it was finalized or cancelled already, or is unknown.
    func cancelRecoveryAttempt(id: String, at time: Date) async throws(StoreError) -> RecoveryAttemptRecord?
}
