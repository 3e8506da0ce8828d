import Foundation
public import PasskeyStorage
import VaporCSQLite

/// What a check of a backup (or of any database file of the store) found: it passed SQLite's integrity check,
/// and holds the store's schema at `schemaVersion`.
public struct BackupInspection: Sendable, Hashable {
    /// The newest migration applied to the file.
    public let schemaVersion: Int
    public let users: Int
    public let credentials: Int
    /// The file's size in pages of the database.
    public let pages: Int

    /// Checks the file at `path` without changing it: SQLite's `PRAGMA integrity_check` must answer ok, the file
    /// must hold the store's schema, and its version must not be newer than this build's.
    ///
    /// - Throws: `.notFound` when there is no file; `.corrupt` when it is not an SQLite database, fails the
    ///   integrity check or is not a database of the store; `.newerSchema` when a newer version wrote it.
    public static func inspect(path: String) throws(StoreError) -> BackupInspection {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError(.notFound, "There is no file at \(path).")
        }
        do {
            let database = try Database(path: path, flags: SQLITE_OPEN_READONLY)
            defer { database.close() }
            return try inspect(database, path: path)
        } catch let failure as SQLiteFailure {
            throw StoreErrors.map(failure, path: path, doing: "check")
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.unavailable, "Checking \(path) failed: \(error).")
        }
    }

    static func inspect(_ database: Database, path: String) throws -> BackupInspection {
        let problems = try database.rows("PRAGMA integrity_check(20)").compactMap { row -> String? in
            guard case .text(let text)? = row.values.first, text != "ok" else { return nil }
            return text
        }
        guard problems.isEmpty else {
            throw StoreError(
                .corrupt,
                "\(path) fails SQLite's integrity check (\(problems.prefix(3).joined(separator: "; "))): "
                    + "use another backup."
            )
        }
        let tables = try database.rows(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name IN ('schema_migrations', 'users', 'credentials')"
        )
        guard tables.count == 3 else {
            throw StoreError(
                .corrupt,
                "\(path) is an SQLite database but not one of swift-passkeys (it lacks the store's tables)."
            )
        }
        let version = try count(database, "SELECT coalesce(max(version), 0) FROM schema_migrations")
        guard version <= SQLitePasskeyStore.schemaVersion else {
            throw StoreError(
                .newerSchema,
                "\(path) has schema version \(version), newer than this build of swift-passkeys knows "
                    + "(\(SQLitePasskeyStore.schemaVersion)): restore it with the version that wrote it."
            )
        }
        return BackupInspection(
            schemaVersion: version,
            users: try count(database, "SELECT count(*) FROM users"),
            credentials: try count(database, "SELECT count(*) FROM credentials"),
            pages: try count(database, "PRAGMA page_count")
        )
    }

    private static func count(_ database: Database, _ sql: String) throws -> Int {
        guard case .integer(let value)? = try database.rows(sql).first?.values.first else { return 0 }
        return Int(value)
    }
}
