/// A verified assertion to record on its credential, as a compare-and-set on the counter the verification read
/// (see ``CeremonyStore/recordAuthentication(_:flowID:expectedStatuses:flowUpdate:at:)``).
public struct CredentialUse: Sendable, Hashable {
    public var credentialID: [UInt8]
    /// The stored counter the verification read; the use is recorded only while it is still stored.
    public var expectedSignCount: UInt32
    /// The authenticator's new counter.
    public var signCount: UInt32
    public var backupState: Bool

    public init(credentialID: [UInt8], expectedSignCount: UInt32, signCount: UInt32, backupState: Bool) {
        self.credentialID = credentialID
        self.expectedSignCount = expectedSignCount
        self.signCount = signCount
        self.backupState = backupState
    }
}

/// What ``CeremonyStore/recordAuthentication(_:flowID:expectedStatuses:flowUpdate:at:)`` did.
public enum AuthenticationRecording: Sendable, Hashable {
    /// The use and the flow's update were both written.
    case recorded(credential: CredentialRecordRow, flow: FlowRecord)
    /// The use did not apply (the credential is gone, not active, or another use was recorded first), so nothing
    /// was written; `current` is the credential as stored now, nil when there is none.
    case credentialNotRecorded(current: CredentialRecordRow?)
    /// The flow's status or expiry did not allow the update, so nothing was written.
    case flowNotUpdated

    /// Whether the use and the flow's update were written.
    public var isRecorded: Bool {
        if case .recorded = self { return true }
        return false
    }
}
