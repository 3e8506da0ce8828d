import PasskeyStorage
import PostgresNIO

extension Migrations {
    /// The newest schema version this code knows.
    static var latestVersion: Int { all.map(\.version).max() ?? 0 }

    /// Brings the schema up to ``latestVersion`` in one transaction. Processes that start at once queue on an
    /// advisory lock, so each step runs once; the ones that come later find nothing left to do. A database
    /// migrated by newer code is refused: this code would misread it.
    static func apply(on connection: PostgresConnection) async throws {
        try await connection.withTransaction(logger: connection.logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(lockClass), 0)", logger: connection.logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version integer PRIMARY KEY,
                    description text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                logger: connection.logger
            )
            var applied: Set<Int> = []
            for try await version in try await connection.query(
                "SELECT version FROM schema_migrations",
                logger: connection.logger
            )
            .decode(Int.self) {
                applied.insert(version)
            }
            if let newest = applied.max(), newest > latestVersion {
                throw StoreError(
                    .unavailable,
                    "The database's schema is at version \(newest), but this build of swift-passkeys knows versions up to "
                        + "\(latestVersion): a newer release has migrated it. Run that release (or a newer one) against it; "
                        + "this one refuses to start rather than misread the data."
                )
            }
            for migration in all where !applied.contains(migration.version) {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: connection.logger)
                }
                try await connection.query(
                    "INSERT INTO schema_migrations (version, description) VALUES (\(migration.version), \(migration.name))",
                    logger: connection.logger
                )
            }
        }
    }
}
