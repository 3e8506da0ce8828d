public import Foundation

/// The writes that finish a ceremony: a registration's credential, or a sign-in's use of one, written in one
/// transaction with the flow it completes. Part of ``PasskeyStore``.
public protocol CeremonyStore: Sendable {
    /// In one transaction: inserts the credential — refused with `.notFound` when there is no user
    /// `credential.userID` or no flow `flowID`, `.flowEnded` when the flow is `.aborted` (a reset of its user ended
    /// it), `.credentialExists` when its id is known, `.limitReached` when the
    /// user already has `maximumActive` live credentials (active, or reserved and not yet expired), `.nameTaken`
    /// when the name key is in use — and applies `flowUpdate` to the flow, and appends `audit` (an audited write,
    /// ``PasskeyStore``). A refused insert changes nothing.
    ///
    /// A reserved credential whose reservation has expired at `time` does not count as known: the new credential
    /// replaces it, whichever user and flow it was reserved for (an authenticator may register again after its
    /// earlier registration was never finalized). Its flow can then no longer settle it:
    /// ``settleReservation(flowID:finalize:flowUpdate:at:)`` returns nil for that flow.
    func insertCredential(
        _ credential: CredentialRecordRow,
        maximumActive: Int,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date,
        audit: AuditAppend?
    ) async throws(StoreError)
    /// A sign-up's passkey: in one transaction, as ``insertCredential(_:maximumActive:flowID:flowUpdate:at:)`` with a
    /// maximum of one, except that it is refused with `.limitReached` when the user has any credential on record —
    /// active, revoked, or reserved and not expired — so that an account that ever had a passkey is never claimed
    /// again by a sign-up; and the user's display name becomes `displayName`, so that the profile a sign-up asked for
    /// is written only by the sign-up that completes.
    func insertFirstCredential(
        _ credential: CredentialRecordRow,
        displayName: String,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date,
        audit: AuditAppend?
    ) async throws(StoreError)
    /// In one transaction: a reserved credential of the flow becomes active (`finalize == true`) or is deleted,
    /// and the flow takes `flowUpdate`. Returns the credential, or nil when there was no live reservation.
    func settleReservation(
        flowID: String,
        finalize: Bool,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError) -> CredentialRecordRow?
    /// Records a verified sign-in in one transaction: the credential's use and the flow's update. Both are written or
    /// neither.
    ///
    /// The use is a compare-and-set: the new counter, backup state and time of use are written only while the
    /// credential is still active and its stored counter is still `use.expectedSignCount` (the one the verification
    /// read); otherwise the answer is `.credentialNotRecorded` with the credential as it stands (nil when there is
    /// none) — it was revoked, deleted or is not active, or another assertion was recorded first. The flow's update is
    /// applied as ``FlowStore/updateFlow(id:expectedStatuses:at:update:)`` applies it; when that does not hold the
    /// answer is `.flowNotUpdated`. The use is tried first, so `.credentialNotRecorded` wins when neither holds.
    ///
    /// Of racing calls with the same expected counter, on one server or on several sharing a database, at most one
    /// succeeds, and the counter stored is the one it wrote. A sign-in racing a revocation (or a recovery's
    /// finalize) either happens before it, and the revocation follows, or is not recorded.
    ///
    /// `audit` is appended only when the sign-in is `.recorded` (an audited write, ``PasskeyStore``).
    func recordAuthentication(
        _ use: CredentialUse,
        flowID: String,
        expectedStatuses: Set<FlowStatus>,
        flowUpdate: FlowUpdate,
        at time: Date,
        audit: AuditAppend?
    ) async throws(StoreError) -> AuthenticationRecording
}

extension CeremonyStore {
    /// Inserts a credential without an audit event.
    public func insertCredential(
        _ credential: CredentialRecordRow,
        maximumActive: Int,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError) {
        try await insertCredential(
            credential,
            maximumActive: maximumActive,
            flowID: flowID,
            flowUpdate: flowUpdate,
            at: time,
            audit: nil
        )
    }

    /// Inserts a sign-up's passkey without an audit event.
    public func insertFirstCredential(
        _ credential: CredentialRecordRow,
        displayName: String,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError) {
        try await insertFirstCredential(
            credential,
            displayName: displayName,
            flowID: flowID,
            flowUpdate: flowUpdate,
            at: time,
            audit: nil
        )
    }

    /// Records a verified sign-in without an audit event.
    public func recordAuthentication(
        _ use: CredentialUse,
        flowID: String,
        expectedStatuses: Set<FlowStatus>,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError) -> AuthenticationRecording {
        try await recordAuthentication(
            use,
            flowID: flowID,
            expectedStatuses: expectedStatuses,
            flowUpdate: flowUpdate,
            at: time,
            audit: nil
        )
    }
}
