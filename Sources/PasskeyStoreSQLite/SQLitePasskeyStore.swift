public import Foundation
public import PasskeyStorage
import SQLiteNIO

/// The embedded default store: one SQLite database file, in write-ahead-log mode, with foreign keys on.
///
/// ```swift
/// let store = try await SQLitePasskeyStore.open(path: "/var/lib/passkeys/passkeys.sqlite")
/// // … serve requests …
/// await store.close()  // in the process's shutdown sequence
/// ```
///
/// Opening applies the schema's pending migrations (see ``schemaVersion``), and refuses a file that a newer
/// version of the code migrated. The process must call ``close()`` on shutdown: it waits for the operation in
/// progress, then closes the file, so the last transaction is on disk and the `-wal` file is folded back.
///
/// Every operation holds the store's one connection for all its statements, and every compare-and-set is either
/// one writing statement or a `BEGIN IMMEDIATE` transaction: both take SQLite's write lock before they read. So
/// racing callers are serialised whether they share this store, use two stores on the same file, or run in two
/// processes (then a writer waits up to the busy timeout for the other's transaction). The file must be on a local
/// file system: SQLite's locks do not work reliably on network shares.
public final class SQLitePasskeyStore: PasskeyStore {
    /// The schema version this code creates and understands.
    public static var schemaVersion: Int { Migrations.all.last?.version ?? 0 }
    /// When a committed transaction reaches the disk (SQLite's `synchronous` setting, in WAL mode).
    public enum Durability: Sendable, Hashable {
        /// Commits are written to the write-ahead log and synced to the disk only at checkpoints
        /// (`synchronous = NORMAL`, which SQLite suggests for most applications in WAL mode). A crash of the
        /// process loses nothing; a power failure or an operating-system crash may roll back the transactions
        /// committed since the last checkpoint, leaving the database consistent. Each commit costs no `fsync`,
        /// which is what lets one connection commit thousands of times a second.
        case checkpoint
        /// Every commit is synced to the disk before it returns (`synchronous = FULL`): nothing committed is lost
        /// on a power failure, and each commit waits for an `fsync` (milliseconds on many disks) while holding
        /// the store's only connection, so the store commits a few hundred times a second at most.
        case everyCommit

        var synchronous: String {
            switch self {
            case .checkpoint: "NORMAL"
            case .everyCommit: "FULL"
            }
        }
    }

    /// The oldest SQLite library the store works with: 3.37 brings STRICT tables (3.35, `RETURNING`).
    static let minimumLibraryVersion: Int32 = 3_037_000

    /// The database file.
    public let path: String
    /// The versions of the migrations that opening the file applied, oldest first: empty when it was up to date.
    public let migrationsApplied: [Int]
    let lease: SQLiteConnectionLease

    private init(path: String, lease: SQLiteConnectionLease, migrationsApplied: [Int]) {
        self.path = path
        self.lease = lease
        self.migrationsApplied = migrationsApplied
    }

    /// Opens the database file at `path`, creating it when it does not exist (its directory must), and migrates
    /// it to ``schemaVersion``.
    ///
    /// - Parameters:
    ///   - path: The database file. SQLite also creates `<path>-wal` and `<path>-shm` beside it, so the process
    ///     needs write access to the directory.
    ///   - busyTimeout: How long an operation waits for another connection's write transaction before it fails
    ///     with `.unavailable`.
    ///   - durability: When commits reach the disk: at checkpoints (the default), or on every commit.
    /// - Throws: `.unavailable` when the file cannot be opened or written (the reason says what to check), or when
    ///   a newer version of the code migrated it; `.corrupt` when it is not an SQLite database.
    public static func open(
        path: String,
        busyTimeout: Duration = .seconds(5),
        durability: Durability = .checkpoint
    ) async throws(StoreError) -> SQLitePasskeyStore {
        try await open(path: path, busyTimeout: busyTimeout, durability: durability, migrations: Migrations.all)
    }

    static func open(
        path: String,
        busyTimeout: Duration,
        durability: Durability = .checkpoint,
        migrations: [Migration],
        maximumWaiting: Int = SQLiteConnectionLease.defaultMaximumWaiting,
        waitTimeout: Duration = SQLiteConnectionLease.defaultWaitTimeout
    ) async throws(StoreError) -> SQLitePasskeyStore {
        guard !path.isEmpty, path != ":memory:" else {
            throw StoreError(.unavailable, "The SQLite store needs the path of a database file, not '\(path)'.")
        }
        guard SQLiteConnection.libraryVersion() >= minimumLibraryVersion else {
            throw StoreError(
                .unavailable,
                "SQLite \(SQLiteConnection.libraryVersionString()) is too old for the store: it needs 3.37 or later."
            )
        }
        let lease = try await SQLiteConnectionLease.open(
            path: path,
            busyTimeout: busyTimeout,
            durability: durability,
            maximumWaiting: maximumWaiting,
            waitTimeout: waitTimeout
        )
        do {
            let applied = try await Migrator(path: path, migrations: migrations).migrate(lease)
            return SQLitePasskeyStore(path: path, lease: lease, migrationsApplied: applied)
        } catch {
            await lease.close()
            throw error
        }
    }

    /// Waits for the operation in progress and closes the database. Call it when the process shuts down.
    /// Operations after it fail with `.unavailable`; closing again does nothing.
    public func close() async {
        await lease.close()
    }

    // MARK: Users

    public func createUserIfAbsent(_ user: UserRecord) async throws(StoreError) -> UserRecord {
        try await lease.withTransaction { session in
            if let existing = try await Self.user(session, where: "id = ?", Bind.text(user.id)) { return existing }
            guard try await Self.user(session, where: "handle = ?", Bind.bytes(user.handle)) == nil else {
                throw StoreError(.duplicate, "Another user has this user handle.")
            }
            try await session.execute(
                "INSERT INTO users (\(UserRows.columns)) VALUES (?, ?, ?, ?, ?)",
                UserRows.binds(user)
            )
            return user
        }
    }

    public func user(id: String) async throws(StoreError) -> UserRecord? {
        try await lease.withSession { session in try await Self.user(session, where: "id = ?", Bind.text(id)) }
    }

    public func user(handle: [UInt8]) async throws(StoreError) -> UserRecord? {
        try await lease.withSession { session in try await Self.user(session, where: "handle = ?", Bind.bytes(handle)) }
    }

    public func deleteUser(id: String) async throws(StoreError) -> Bool {
        try await lease.withTransaction { session in
            // Credentials, flows, web sessions and identity-verification runs go with the user (ON DELETE CASCADE).
            try await !session.rows("DELETE FROM users WHERE id = ? RETURNING id", [Bind.text(id)]).isEmpty
        }
    }

    public func users(
        matching query: String?,
        after: String?,
        limit: Int
    ) async throws(StoreError) -> [UserSummary] {
        guard limit > 0 else { return [] }
        // `id > ?` and `ORDER BY id` compare with the BINARY collation (the bytes), along the primary key's index.
        // The built-in `lower()` changes ASCII letters only, and `instr` finds the query as it is, so no character
        // of it is a wildcard.
        var sql = """
            SELECT \(UserRows.columns), (
                SELECT count(*) FROM credentials WHERE credentials.user_id = users.id AND credentials.status = 'active'
            ) AS active_credentials
            FROM users WHERE 1
            """
        var binds: [SQLiteData] = []
        if let after {
            sql += " AND id > ?"
            binds.append(Bind.text(after))
        }
        if let query, !query.isEmpty {
            let contains = ["id", "name", "display_name"].map { "instr(lower(\($0)), lower(?))" }
            sql += " AND (\(contains.joined(separator: " OR ")))"
            binds += Array(repeating: Bind.text(query), count: contains.count)
        }
        sql += " ORDER BY id LIMIT ?"
        binds.append(Bind.integer(limit))
        return try await lease.withSession { [sql, binds] session in
            try await session.rows(sql, binds).map(UserRows.decodeSummary)
        }
    }

    // MARK: Credentials

    public func credential(id: [UInt8]) async throws(StoreError) -> CredentialRecordRow? {
        try await lease.withSession { session in try await Self.credential(session, id: id) }
    }

    public func credentials(userID: String) async throws(StoreError) -> [CredentialRecordRow] {
        try await lease.withSession { session in
            try await session.rows(
                """
                SELECT \(CredentialRows.columns) FROM credentials WHERE user_id = ? AND status != 'revoked'
                ORDER BY created_at, id
                """,
                [Bind.text(userID)]
            ).map(CredentialRows.decode)
        }
    }

    public func renameCredential(
        id: [UInt8],
        name: String,
        nameKey: String,
        at time: Date
    ) async throws(StoreError)
        -> CredentialRecordRow?
    {
        try await lease.withTransaction { session in
            guard var credential = try await Self.credential(session, id: id), credential.status != .revoked else {
                return nil
            }
            let live = try await Self.liveCredentials(
                session,
                userID: credential.userID,
                nameKey: nameKey,
                at: time,
                excluding: id
            )
            guard live.withName == 0 else {
                throw StoreError(.nameTaken, "Another credential of this user is named '\(name)'.")
            }
            try await session.execute(
                "UPDATE credentials SET name = ?, name_key = ? WHERE id = ?",
                [Bind.text(name), Bind.text(nameKey), Bind.bytes(id)]
            )
            credential.name = name
            credential.nameKey = nameKey
            return credential
        }
    }

    public func recordCredentialUse(
        id: [UInt8],
        expectedSignCount: UInt32,
        signCount: UInt32,
        backupState: Bool,
        at time: Date
    ) async throws(StoreError) -> CredentialRecordRow? {
        // One conditional UPDATE, which takes the write lock before it reads the row: of racing uses with the same
        // expected counter, and of a use racing a revocation, the first to write wins and the others match no row.
        try await lease.withSession { session in
            try await session.rows(
                """
                UPDATE credentials SET sign_count = ?, backup_state = ?, last_used_at = ?
                WHERE id = ? AND status = 'active' AND sign_count = ?
                RETURNING \(CredentialRows.columns)
                """,
                [
                    Bind.integer(Int64(signCount)), Bind.bool(backupState), Bind.date(time), Bind.bytes(id),
                    Bind.integer(Int64(expectedSignCount)),
                ]
            ).first.map(CredentialRows.decode)
        }
    }

    public func revokeCredential(id: [UInt8], at time: Date) async throws(StoreError) -> CredentialRecordRow? {
        // One conditional UPDATE: of two racing revocations, one returns the row.
        try await lease.withSession { session in
            try await session.rows(
                """
                UPDATE credentials SET status = 'revoked', revoked_at = ? WHERE id = ? AND status != 'revoked'
                RETURNING \(CredentialRows.columns)
                """,
                [Bind.date(time), Bind.bytes(id)]
            ).first.map(CredentialRows.decode)
        }
    }

    // MARK: Flows

    public func createFlow(_ flow: FlowRecord) async throws(StoreError) {
        // One statement: the primary key refuses an id in use (.duplicate), the foreign key a missing user (.notFound).
        try await lease.withSession { session in
            try await session.execute(
                "INSERT INTO flows (\(FlowRows.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                FlowRows.binds(flow)
            )
        }
    }

    public func flow(id: String) async throws(StoreError) -> FlowRecord? {
        try await lease.withSession { session in try await Self.flow(session, id: id) }
    }

    public func updateFlow(
        id: String,
        expectedStatuses: Set<FlowStatus>,
        at time: Date,
        update: FlowUpdate
    ) async throws(StoreError)
        -> FlowRecord?
    {
        // One conditional UPDATE, which takes the write lock before it reads (as every writing statement does), and
        // sets the columns as ``FlowUpdate/applied(to:at:)`` does: unset members keep their column, `clearChallenge`
        // clears the challenge before a new one is set.
        guard !expectedStatuses.isEmpty else { return nil }
        let statuses = expectedStatuses.map(\.rawValue).sorted()
        let binds: [SQLiteData] =
            [
                Bind.text(update.status?.rawValue), Bind.bytes(update.challengeHash), Bind.bool(update.clearChallenge),
                Bind.date(update.challengeExpiresAt), Bind.bytes(update.resultTokenHash),
                Bind.date(update.resultExpiresAt),
                Bind.bytes(update.payload), Bind.date(time), Bind.text(id),
            ] + statuses.map { Bind.text($0) }
        return try await lease.withSession { session in
            try await session.rows(
                """
                UPDATE flows SET
                    status = coalesce(?1, status),
                    challenge_hash = CASE WHEN ?2 IS NOT NULL THEN ?2 WHEN ?3 THEN NULL ELSE challenge_hash END,
                    challenge_expires_at = CASE WHEN ?4 IS NOT NULL THEN ?4 WHEN ?3 THEN NULL ELSE challenge_expires_at END,
                    result_token_hash = coalesce(?5, result_token_hash),
                    result_expires_at = coalesce(?6, result_expires_at),
                    payload = coalesce(?7, payload),
                    updated_at = ?8
                WHERE id = ?9 AND expires_at > ?8 AND status IN (\(statuses.indices.map { "?\($0 + 10)" }.joined(separator: ", ")))
                RETURNING \(FlowRows.columns)
                """,
                binds
            ).first.map(FlowRows.decode)
        }
    }

    public func consumeChallenge(
        flowID: String,
        challengeHash: [UInt8],
        at time: Date
    ) async throws(StoreError) -> FlowRecord? {
        try await lease.withTransaction { session in
            guard let flow = try await Self.flow(session, id: flowID), flow.challengeHash == challengeHash,
                let expiry = flow.challengeExpiresAt, expiry > time
            else { return nil }
            try await Self.write(
                session,
                FlowUpdate(status: .verifying, clearChallenge: true).applied(to: flow, at: time)
            )
            return flow
        }
    }

    public func redeemResult(
        flowID: String,
        resultTokenHash: [UInt8],
        at time: Date
    ) async throws(StoreError) -> FlowRecord? {
        try await lease.withTransaction { session in
            guard let flow = try await Self.flow(session, id: flowID), flow.status == .completed,
                flow.resultTokenHash == resultTokenHash, let expiry = flow.resultExpiresAt, expiry > time
            else { return nil }
            try await Self.write(session, FlowUpdate(status: .redeemed).applied(to: flow, at: time))
            return flow
        }
    }

    public func insertCredential(
        _ credential: CredentialRecordRow,
        maximumActive: Int,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError) {
        let binds = try CredentialRows.binds(credential)
        try await lease.withTransaction { session in
            // A reservation that expired without being settled no longer holds its id: the new credential
            // replaces it. Both happen in this transaction, or neither.
            try await session.execute(
                """
                DELETE FROM credentials
                WHERE id = ? AND status = 'reserved' AND (reserved_until IS NULL OR reserved_until <= ?)
                """,
                [Bind.bytes(credential.id), Bind.date(time)]
            )
            guard try await Self.credential(session, id: credential.id) == nil else {
                throw StoreError(.credentialExists, "This credential is registered already.")
            }
            let live = try await Self.liveCredentials(
                session,
                userID: credential.userID,
                nameKey: credential.nameKey,
                at: time
            )
            guard live.count < maximumActive else {
                throw StoreError(.limitReached, "The user has \(live.count) credentials, the maximum.")
            }
            guard live.withName == 0 else {
                throw StoreError(.nameTaken, "Another credential of this user is named '\(credential.name)'.")
            }
            guard let flow = try await Self.flow(session, id: flowID) else {
                throw StoreError(.notFound, "No flow \(flowID).")
            }
            guard try await Self.user(session, where: "id = ?", Bind.text(credential.userID)) != nil else {
                throw StoreError(.notFound, "No user \(credential.userID) for the credential.")
            }
            try await session.execute(
                "INSERT INTO credentials (\(CredentialRows.columns)) VALUES (\(CredentialRows.placeholders))",
                binds
            )
            try await Self.write(session, flowUpdate.applied(to: flow, at: time))
        }
    }

    public func settleReservation(
        flowID: String,
        finalize: Bool,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError)
        -> CredentialRecordRow?
    {
        try await lease.withTransaction { session in
            let reserved = try await session.rows(
                """
                SELECT \(CredentialRows.columns) FROM credentials
                WHERE flow_id = ? AND status = 'reserved' AND reserved_until > ? ORDER BY rowid LIMIT 1
                """,
                [Bind.text(flowID), Bind.date(time)]
            )
            guard var credential = try reserved.first.map(CredentialRows.decode), credential.isLive(at: time),
                let flow = try await Self.flow(session, id: flowID)
            else { return nil }
            if finalize {
                try await session.execute(
                    "UPDATE credentials SET status = 'active', reserved_until = NULL WHERE id = ?",
                    [Bind.bytes(credential.id)]
                )
                credential.status = .active
                credential.reservedUntil = nil
            } else {
                try await session.execute("DELETE FROM credentials WHERE id = ?", [Bind.bytes(credential.id)])
            }
            try await Self.write(session, flowUpdate.applied(to: flow, at: time))
            return credential
        }
    }

    // MARK: Audit

    @discardableResult
    public func appendAuditEvent(_ event: AuditEvent) async throws(StoreError) -> AuditEvent {
        let details = try Bind.json(event.details)
        return try await lease.withSession { session in
            let rows = try await session.rows(
                """
                INSERT INTO audit_events (time, actor, action, user_id, subject, request_id, details)
                VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING sequence
                """,
                [
                    Bind.date(event.time), Bind.text(event.actor), Bind.text(event.action), Bind.text(event.userID),
                    Bind.text(event.subject), Bind.text(event.requestID), details,
                ]
            )
            guard let sequence = rows.first?.column("sequence")?.integer else {
                throw StoreError(.corrupt, "The database returned no sequence number for an audit event.")
            }
            var event = event
            event.sequence = Int64(sequence)
            return event
        }
    }

    public func auditEvents(after: Int64, limit: Int, userID: String?) async throws(StoreError) -> [AuditEvent] {
        guard limit > 0 else { return [] }
        return try await lease.withSession { session in
            var sql = "SELECT \(AuditRows.columns) FROM audit_events WHERE sequence > ?"
            var binds = [Bind.integer(after)]
            if let userID {
                sql += " AND user_id = ?"
                binds.append(Bind.text(userID))
            }
            sql += " ORDER BY sequence LIMIT ?"
            binds.append(Bind.integer(limit))
            return try await session.rows(sql, binds).map(AuditRows.decode)
        }
    }

    public func auditEvents(before: Int64?, limit: Int, userID: String?) async throws(StoreError) -> [AuditEvent] {
        guard limit > 0 else { return [] }
        return try await lease.withSession { session in
            // Read backwards along the primary key, or along audit_events_by_user (user_id, sequence) for one user.
            var conditions: [String] = []
            var binds: [SQLiteData] = []
            if let before {
                conditions.append("sequence < ?")
                binds.append(Bind.integer(before))
            }
            if let userID {
                conditions.append("user_id = ?")
                binds.append(Bind.text(userID))
            }
            var sql = "SELECT \(AuditRows.columns) FROM audit_events"
            if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
            sql += " ORDER BY sequence DESC LIMIT ?"
            binds.append(Bind.integer(limit))
            return try await session.rows(sql, binds).map(AuditRows.decode)
        }
    }

    // MARK: Statements shared by the operations

    private static func user(
        _ session: Session,
        where condition: String,
        _ bind: SQLiteData
    ) async throws -> UserRecord? {
        try await session.rows("SELECT \(UserRows.columns) FROM users WHERE \(condition)", [bind]).first.map(
            UserRows.decode
        )
    }

    private static func credential(_ session: Session, id: [UInt8]) async throws -> CredentialRecordRow? {
        try await session.rows("SELECT \(CredentialRows.columns) FROM credentials WHERE id = ?", [Bind.bytes(id)])
            .first.map(CredentialRows.decode)
    }

    static func flow(_ session: Session, id: String) async throws -> FlowRecord? {
        try await session.rows("SELECT \(FlowRows.columns) FROM flows WHERE id = ?", [Bind.text(id)]).first.map(
            FlowRows.decode
        )
    }

    /// How many of the user's credentials are live at `time` (active, or reserved until after `time`), and how
    /// many of those have the name key; `excluding` one credential.
    private static func liveCredentials(
        _ session: Session,
        userID: String,
        nameKey: String,
        at time: Date,
        excluding excluded: [UInt8]? = nil
    ) async throws -> (count: Int, withName: Int) {
        let rows = try await session.rows(
            """
            SELECT count(*) AS live, coalesce(sum(name_key = ?), 0) AS with_name FROM credentials
            WHERE user_id = ? AND (status = 'active' OR (status = 'reserved' AND reserved_until > ?))
            AND (? IS NULL OR id != ?)
            """,
            [Bind.text(nameKey), Bind.text(userID), Bind.date(time), Bind.bytes(excluded), Bind.bytes(excluded)]
        )
        guard let row = rows.first else {
            throw StoreError(.corrupt, "The database returned no count of the user's credentials.")
        }
        let reader = RowReader(row: row, table: "credentials")
        return (try reader.int("live"), try reader.int("with_name"))
    }

    /// Stores a flow's mutable columns (what ``FlowUpdate`` changes).
    private static func write(_ session: Session, _ flow: FlowRecord) async throws {
        try await session.execute(
            """
            UPDATE flows SET status = ?, challenge_hash = ?, challenge_expires_at = ?, result_token_hash = ?,
            result_expires_at = ?, payload = ?, updated_at = ? WHERE id = ?
            """,
            [
                Bind.text(flow.status.rawValue), Bind.bytes(flow.challengeHash), Bind.date(flow.challengeExpiresAt),
                Bind.bytes(flow.resultTokenHash), Bind.date(flow.resultExpiresAt), Bind.bytes(flow.payload),
                Bind.date(flow.updatedAt), Bind.text(flow.id),
            ]
        )
    }
}
