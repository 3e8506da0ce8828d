/// Moving accounts in, in bulk. Part of ``PasskeyStore``.
public protocol StoreImport: Sendable {
    /// Inserts users with their credentials exactly as given, all in one transaction — to move accounts from
    /// another system, or to fill a store for a benchmark. Nothing is inserted when any record is refused:
    /// `.duplicate`, `.nameTaken` or `.credentialExists` when an id, user handle, user name or credential name key
    /// is in use (stored, or earlier in `users`); `.notFound` for a credential whose `userID` is not its entry's
    /// user. The per-user credential limit does not apply.
    func importUsers(_ users: [UserCredentials]) async throws(StoreError)
}
