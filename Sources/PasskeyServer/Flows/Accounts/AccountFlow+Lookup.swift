import Foundation
import PasskeyStorage

/// Finding a user by user name (`GET /v1/users?userName=…`): user names are unique per relying party, so the CLI's
/// `--user`, the web demo's user name and the backend API's `userName` name one person.
extension AccountFlow {
    /// The longest user name, in Unicode scalars (as `createRegistration` allows).
    static let maximumUserNameLength = 256

    /// The page holding the user whose name is `name` (without leading and trailing white space, as registration
    /// stores names), or no user: a name no user can have finds nobody.
    /// - Throws: `INVALID_REQUEST` when `name` is empty or longer than 256 characters; `SERVICE_UNAVAILABLE` when
    ///   the store cannot be reached.
    func users(named name: String) async throws(APIError) -> UserPage {
        guard (1...Self.maximumUserNameLength).contains(name.unicodeScalars.count) else {
            throw APIError.invalidRequest("userName must be 1 to \(Self.maximumUserNameLength) characters.")
        }
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, let user = try await storage({ try await store.user(name: name) }) else {
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

extension AccountFlow {
    /// The user with this id, if any (the pages' view of an account).
    func user(id: String) async throws(APIError) -> UserRecord? {
        try await storage { try await store.user(id: id) }
    }

    /// The user with this user name, if any.
    func user(name: String) async throws(APIError) -> UserRecord? {
        try await storage { try await store.user(name: name) }
    }

    /// The user's credential records as stored (reserved, active and revoked), for the pages' own checks.
    func credentialRecords(userID: String) async throws(APIError) -> [CredentialRecordRow] {
        try await storage { try await store.credentials(userID: userID) }
    }

    /// The credential record with this id, if any.
    func credentialRecord(id: [UInt8]) async throws(APIError) -> CredentialRecordRow? {
        try await storage { try await store.credential(id: id) }
    }
}
