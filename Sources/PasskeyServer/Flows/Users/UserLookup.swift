import PasskeyStorage

/// Finding a user by user name (`GET /v1/users?userName=…`): user names are unique per relying party, so the CLI's
/// `--user`, the web demo's user name and the backend API's `userName` name one person.
extension PasskeyService {
    /// The page holding the user whose name is exactly `name`, or no user.
    /// - Throws: `INVALID_REQUEST` when `name` is empty or longer than 256 characters; `SERVICE_UNAVAILABLE` when
    ///   the store cannot be reached.
    public func users(named name: String) async throws(APIError) -> UserPage {
        let name = try Validation.text(name, field: "userName", maximum: 256)
        guard let user = try await storage({ try await store.user(name: name) }) else {
            return UserPage(users: [], nextCursor: nil)
        }
        let active = try await storage { try await store.credentials(userID: user.id) }.filter {
            $0.status == .active
        }
        return UserPage(
            users: [
                UserEntry(
                    userID: user.id,
                    userName: user.name,
                    displayName: user.displayName,
                    createdAt: user.createdAt,
                    activeCredentials: active.count
                )
            ],
            nextCursor: nil
        )
    }
}
