import Foundation

/// Where a ``TokenSession`` keeps its tokens between launches: ``KeychainTokenSessionStorage`` on Apple platforms,
/// ``EncryptedFileTokenSessionStorage`` elsewhere, ``MemoryTokenSessionStorage`` in tests. Every refresh replaces
/// the stored session (the old refresh token is spent), so ``save(_:)`` must replace it whole or not at all.
public protocol TokenSessionStorage: Sendable {
    /// The stored session, or nil when there is none.
    func load() async throws(PasskeyError) -> StoredTokenSession?
    /// Replaces the stored session with `session`.
    func save(_ session: StoredTokenSession) async throws(PasskeyError)
    /// Forgets the stored session (nothing to do when there is none).
    func clear() async throws(PasskeyError)
}

/// A session kept in memory only: lost when the process ends.
public actor MemoryTokenSessionStorage: TokenSessionStorage {
    private var session: StoredTokenSession?

    public init(session: StoredTokenSession? = nil) { self.session = session }

    public func load() -> StoredTokenSession? { session }
    public func save(_ session: StoredTokenSession) { self.session = session }
    public func clear() { session = nil }
}
