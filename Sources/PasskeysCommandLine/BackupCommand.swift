import ArgumentParser
import PasskeyStorage
import PasskeyStoreSQLite
import WebAuthn

/// `passkeys backup`: a consistent copy of the server's SQLite database, taken while it runs.
struct BackupCommand: ExecutableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the server's SQLite database to a file, consistently, while the server runs.",
        discussion: """
            Uses SQLite's online backup: the copy holds everything committed when the backup began, the server \
            goes on serving meanwhile, and the copy passes SQLite's integrity check before it takes the name FILE \
            (written beside it first, then renamed). Restore it with passkeys restore. For PostgreSQL use pg_dump.
            """
    )

    @OptionGroup var database: DatabaseFileOption

    @Option(help: ArgumentHelp("The backup file to write (replaced when it exists).", valueName: "file"))
    var to: String

    @Option(name: .customLong("pages-per-step"), help: "Database pages copied per step (default 1024).")
    var pagesPerStep: Int32 = SQLiteBackup.defaultPagesPerStep

    func execute(in environment: CommandEnvironment) async -> CommandResult {
        await database.run("backup") { path throws(StoreError) in
            let copy = try await SQLiteBackup.backup(databaseAt: path, to: to, pagesPerStep: pagesPerStep)
            return "Backed up \(path) to \(to): \(copy.summary); integrity check ok.\n"
        }
    }
}

extension BackupInspection {
    /// `schema version 11, 3 users, 5 credentials, 42 pages`.
    var summary: String {
        "schema version \(schemaVersion), \(users) user\(users == 1 ? "" : "s"), "
            + "\(credentials) credential\(credentials == 1 ? "" : "s"), \(pages) pages"
    }
}
