import Foundation
import PasskeyStorage

/// Listing and searching users a page at a time, for an operator console (`GET /v1/users`).
extension AccountFlow {
    /// One page of users.
    struct UserPage: Encodable, Sendable {
        let users: [UserEntry]
        /// Pass as `after` to get the next page; nil (left out of the JSON) on the last page.
        let nextCursor: String?
    }

    /// A user as the listing shows them.
    struct UserEntry: Encodable, Sendable {
        let userID: String
        let userName: String
        let displayName: String
        let createdAt: Date
        /// The user's passkeys in use: revoked ones and registrations awaiting finalization are not counted.
        let activeCredentials: Int

        enum CodingKeys: String, CodingKey {
            case userID = "userId"
            case userName, displayName, createdAt, activeCredentials
        }
    }

    /// The page size when none is given, and the largest.
    static let defaultUserPageSize = 20
    static let maximumUserPageSize = 100
    /// The longest search text, in Unicode scalars.
    static let maximumUserQueryLength = 128

    /// Users in ascending order of id or of user name (compared by their UTF-8 bytes), a page at a time.
    ///
    /// - Parameters:
    ///   - query: Keeps the users whose id, user name or display name contains it. The match is literal and ignores
    ///     the case of ASCII letters only. Nil or empty lists everyone.
    ///   - after: The previous page's ``UserPage/nextCursor`` (a user id, or a user name in name order); nil for the
    ///     first page.
    ///   - limit: The most users to return, 1 to 100; nil for 20.
    ///   - order: By id (the default) or by user name.
    ///   - userName: Only the user whose name is exactly this (see ``users(named:)``); the other parameters are
    ///     checked as always, and then ignored.
    /// - Throws: `INVALID_REQUEST` when `query` is longer than 128 characters or holds a control character, `after`
    ///   is not a cursor (a user id), or `limit` is out of range; `SERVICE_UNAVAILABLE` when the store cannot be
    ///   reached.
    func users(
        matching query: String? = nil,
        after: String? = nil,
        limit: Int? = nil,
        order: UserOrder = .id,
        userName: String? = nil
    ) async throws(APIError) -> UserPage {
        let size = limit ?? Self.defaultUserPageSize
        guard (1...Self.maximumUserPageSize).contains(size) else { throw Self.userPageSizeError }
        if let query {
            guard query.unicodeScalars.count <= Self.maximumUserQueryLength,
                !query.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw APIError.invalidRequest(
                    "query must be at most \(Self.maximumUserQueryLength) characters without control characters."
                )
            }
        }
        // A cursor is a user id or a user name, compared as bytes: any text of its length without control characters
        // pages from where it would stand.
        if let after {
            guard (1...256).contains(after.unicodeScalars.count),
                !after.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else { throw APIError.invalidRequest("after must be a cursor returned as nextCursor.") }
        }
        if let userName { return try await users(named: userName) }
        let summaries = try await storage {
            try await store.users(matching: query, after: after, limit: size + 1, order: order)
        }
        let page = summaries.prefix(size).map {
            UserEntry(
                userID: $0.user.id,
                userName: $0.user.name,
                displayName: $0.user.displayName,
                createdAt: $0.user.createdAt,
                activeCredentials: $0.activeCredentials
            )
        }
        let last = order == .name ? page.last?.userName : page.last?.userID
        return UserPage(users: page, nextCursor: summaries.count > size ? last : nil)
    }

    /// The `order` query parameter: `id` (the default) or `name`.
    static func userOrder(_ text: String?) throws(APIError) -> UserOrder {
        guard let text else { return .id }
        guard let order = UserOrder(rawValue: text) else {
            throw APIError.invalidRequest("order must be 'id' or 'name'.")
        }
        return order
    }

    /// The `limit` query parameter as a number: nil when it is absent, `INVALID_REQUEST` when it is not an integer.
    static func userPageSize(_ text: String?) throws(APIError) -> Int? {
        guard let text else { return nil }
        guard let size = Int(text) else { throw userPageSizeError }
        return size
    }

    private static var userPageSizeError: APIError {
        APIError.invalidRequest("limit must be 1 to \(maximumUserPageSize).")
    }
}
