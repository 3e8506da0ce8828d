/// A user as ``UserStore/users(matching:after:limit:)`` lists them: the record and how many credentials the
/// user has in use.
public struct UserSummary: Sendable, Hashable, Codable {
    public var user: UserRecord
    /// The user's credentials with status `active`. Revoked credentials and reservations still awaiting
    /// finalization are not counted.
    public var activeCredentials: Int

    public init(user: UserRecord, activeCredentials: Int) {
        self.user = user
        self.activeCredentials = activeCredentials
    }
}
