/// The users of the relying party. Part of ``PasskeyStore``.
public protocol UserStore: Sendable {
    /// Inserts the user, or returns the existing record for `user.id` unchanged (its user handle stays). User names
    /// are unique per relying party: `.nameTaken` when another user has `user.name` (compared exactly), and of two
    /// racing creates of the same name under different ids exactly one succeeds.
    func createUserIfAbsent(_ user: UserRecord) async throws(StoreError) -> UserRecord
    func user(id: String) async throws(StoreError) -> UserRecord?
    /// The user whose name is exactly `name` (names are unique, see ``createUserIfAbsent(_:)``).
    func user(name: String) async throws(StoreError) -> UserRecord?
    /// Deletes the user with their credentials, flows, web sessions and identity-verification runs, in one
    /// transaction: a reset of the user (see ``PasskeyStore``) whose flows go with them. Returns false when there was
    /// no such user.
    func deleteUser(id: String) async throws(StoreError) -> Bool
    /// Users in ascending `order` (of id, or of user name), each with the number of their active credentials: only
    /// those whose id (or name) is greater than `after` when it is given, at most `limit` (none when it is less than
    /// 1). Ids and names compare by their UTF-8 bytes, so every adapter pages in the same order whatever its locale.
    ///
    /// A non-empty `query` keeps the users whose id, name or display name contains it. The match is literal (SQL
    /// wildcards such as `%` and `_` are plain characters) and ignores case for ASCII letters only: `ADA` finds
    /// `ada`, but `É` does not find `é`.
    func users(
        matching query: String?,
        after: String?,
        limit: Int,
        order: UserOrder
    ) async throws(StoreError) -> [UserSummary]
}

extension UserStore {
    /// Users in ascending order of id (``users(matching:after:limit:order:)``).
    public func users(matching query: String?, after: String?, limit: Int) async throws(StoreError) -> [UserSummary] {
        try await users(matching: query, after: after, limit: limit, order: .id)
    }
}
