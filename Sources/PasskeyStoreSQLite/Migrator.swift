import Foundation
import PasskeyStorage

/// Brings a database file to the newest schema: applies each pending migration as one operation of the
/// connection (atomic, holding the write lock) together with its row in `schema_migrations`, so a failed migration
/// leaves the file as it was, and two processes opening the same file at once apply each migration once.
struct Migrator {
    let path: String
    let migrations: [Migration]

    /// Applies the pending migrations and returns their versions; refuses a file migrated past the newest
    /// version known here.
    func migrate(_ connection: ConnectionThread) async throws(StoreError) -> [Int] {
        var applied: [Int] = []
        while let version = try await applyNext(connection) {
            applied.append(version)
        }
        return applied
    }

    /// Applies the first migration the file lacks, and returns its version; nil when none is missing.
    private func applyNext(_ connection: ConnectionThread) async throws(StoreError) -> Int? {
        let migrations = migrations
        let path = path
        return try await connection.session { db in
            try db.execute(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    applied_at REAL NOT NULL
                ) STRICT
                """
            )
            let rows = try db.rows("SELECT version FROM schema_migrations ORDER BY version")
            let versions = try Set(
                rows.map { row throws(StoreError) in try RowReader(row: row, table: "schema_migrations").int("version")
                }
            )
            let known = Set(migrations.map(\.version))
            if let unknown = versions.subtracting(known).max() {
                throw StoreError(
                    .unavailable,
                    "The database at \(path) has schema version \(unknown), which is newer than this build of "
                        + "swift-passkeys knows (\(migrations.last?.version ?? 0)): a newer version migrated it. "
                        + "Run that version, or restore a backup taken before the upgrade."
                )
            }
            guard let next = migrations.first(where: { !versions.contains($0.version) }) else { return nil }
            do {
                for statement in next.statements {
                    try db.execute(statement)
                }
            } catch {
                let failure = StoreErrors.map(error, path: path, doing: "migrate")
                throw StoreError(
                    failure.code,
                    "Migration \(next.version) (\(next.name)) of \(path) failed and was rolled back: \(failure.reason)"
                )
            }
            try db.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                [Bind.integer(next.version), Bind.text(next.name), Bind.date(Date())]
            )
            return next.version
        }
    }
}
