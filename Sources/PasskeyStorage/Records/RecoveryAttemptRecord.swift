public import Foundation

/// One account recovery on a new device (DESIGN §3 flow 5): started for a user by the backend or by an operator in
/// the console, driven by the person with a recovery token delivered out of band. The token is exchanged once for a replacement registration
/// (a flow of kind ``FlowKind/recoveryRegistration``); finalizing makes its credential active and revokes the old
/// ones by policy.
public struct RecoveryAttemptRecord: Sendable, Hashable {
    /// Where the attempt stands.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Created; the recovery token has not been exchanged.
        case pending
        /// The token was exchanged for the replacement registration, which may or may not be complete.
        case exchanged
        /// The replacement credential is active and the old ones are revoked by policy.
        case finalized
        case cancelled
    }

    /// Who started the attempt, and so who may finalize it.
    public enum Starter: String, Sendable, Hashable, CaseIterable {
        /// The integrator's backend (`POST /v1/recoveries`): only the backend finalizes it
        /// (`POST /v1/recoveries/{id}/finalize`).
        case backend
        /// An operator in the console: the recovery page that registered the replacement finalizes it.
        case console
    }

    /// Public id, `rec_…`.
    public var id: String
    public var userID: String
    /// SHA-256 of the recovery token.
    public var tokenHash: [UInt8]
    public var status: Status
    /// The replacement registration's flow, once the token was exchanged.
    public var registrationFlowID: String?
    public var createdAt: Date
    public var updatedAt: Date
    public var expiresAt: Date
    /// Who started the attempt.
    public var startedBy: Starter

    public init(
        id: String,
        userID: String,
        tokenHash: [UInt8],
        status: Status,
        registrationFlowID: String? = nil,
        createdAt: Date,
        updatedAt: Date,
        expiresAt: Date,
        startedBy: Starter = .backend
    ) {
        self.id = id
        self.userID = userID
        self.tokenHash = tokenHash
        self.status = status
        self.registrationFlowID = registrationFlowID
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.expiresAt = expiresAt
        self.startedBy = startedBy
    }

    /// Whether the attempt may still go on at `time`: it is neither finalized nor cancelled, and has not expired.
    public func isOpen(at time: Date) -> Bool {
        (status == .pending || status == .exchanged) && expiresAt > time
    }
}

/// Which of the user's credentials finalizing a recovery revokes (`recovery.revoke`).
public enum RecoveryRevocation: String, Sendable, Hashable, CaseIterable, Codable {
    /// Every other credential of the user.
    case all
    /// The other credentials that cannot be backed up (backup eligibility false): those that were lost with the
    /// device. Synced passkeys stay.
    case deviceBound
    /// None: the replacement is added beside them.
    case none
}

extension RecoveryRevocation {
    /// Whether the policy revokes a credential with this backup eligibility.
    public func revokes(backupEligible: Bool) -> Bool {
        switch self {
        case .all: true
        case .deviceBound: !backupEligible
        case .none: false
        }
    }
}

/// What ``RecoveryStore/finalizeRecovery(attemptID:revoking:at:)`` did.
public struct RecoveryFinalization: Sendable, Hashable {
    public var attempt: RecoveryAttemptRecord
    /// The replacement credential, now active.
    public var credential: CredentialRecordRow
    /// The credentials revoked by the policy, as they are after revocation.
    public var revoked: [CredentialRecordRow]

    public init(attempt: RecoveryAttemptRecord, credential: CredentialRecordRow, revoked: [CredentialRecordRow]) {
        self.attempt = attempt
        self.credential = credential
        self.revoked = revoked
    }
}

extension FlowKind {
    /// The replacement registration of a recovery attempt: driven only through the recovery API.
    public static let recoveryRegistration = Self(rawValue: "recovery_registration")
}
