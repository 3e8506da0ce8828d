/// A user with their credentials that are not revoked, read together (``CredentialStore/userWithCredentials(id:)``).
public struct UserCredentials: Sendable, Hashable {
    public var user: UserRecord
    /// Ordered as ``CredentialStore/credentials(userID:)`` orders them.
    public var credentials: [CredentialRecordRow]

    public init(user: UserRecord, credentials: [CredentialRecordRow]) {
        self.user = user
        self.credentials = credentials
    }
}

/// A credential with the user it belongs to, read together (``CredentialStore/credentialWithOwner(id:)``).
public struct CredentialOwner: Sendable, Hashable {
    public var credential: CredentialRecordRow
    public var owner: UserRecord

    public init(credential: CredentialRecordRow, owner: UserRecord) {
        self.credential = credential
        self.owner = owner
    }
}

/// A cross-platform session with the flow it took over, read together
/// (``CrossPlatformSessionStore/crossPlatformSessions(ids:)``).
public struct CrossPlatformSessionFlow: Sendable, Hashable {
    public var session: CrossPlatformSessionRecord
    public var flow: FlowRecord

    public init(session: CrossPlatformSessionRecord, flow: FlowRecord) {
        self.session = session
        self.flow = flow
    }
}
