public import Foundation

extension PasskeyBackendAPI {
    /// `GET /v1/users?userName=…`: the user whose user name is exactly `userName`, or nil. User names are unique per
    /// relying party, so this is how a user name (one the web pages or the backend gave) leads to the `userId`.
    public func user(named userName: String) async throws(PasskeyError) -> BackendUser? {
        struct Page: Decodable { let users: [BackendUser] }
        return try await requester.send(
            "GET",
            ["v1", "users"],
            query: [URLQueryItem(name: "userName", value: userName)],
            token: apiKey,
            body: EmptyBody?.none,
            as: Page.self
        ).users.first
    }
}

/// A user as `GET /v1/users` lists them.
public struct BackendUser: Sendable, Hashable, Codable {
    public let userId: String
    public let userName: String
    public let displayName: String
    public let createdAt: Date
    /// The user's passkeys in use (not revoked, not awaiting finalization).
    public let activeCredentials: Int
}
