import ArgumentParser
import PasskeyStorage
import PasskeyStoreSQLite
import WebAuthn

/// `passkeys restore`: puts a backup in place of the server's SQLite database.
struct RestoreCommand: ExecutableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace the server's SQLite database with a backup made by passkeys backup.",
        discussion: """
            Checks the backup first (SQLite's integrity check, the store's tables, a schema version this build \
            knows; an older one is migrated when the server opens it), copies it beside the database and renames \
            it into place. Refuses while a process (a running server) has the database open: stop the server, or \
            pass --force to replace it anyway — what that server writes afterwards is lost.
            """
    )

    @Option(help: ArgumentHelp("The backup file.", valueName: "file"))
    var from: String

    @OptionGroup var database: DatabaseFileOption

    @Flag(help: "Replace the database even while a process has it open.")
    var force = false

    func execute(in environment: CommandEnvironment) async -> CommandResult {
        await database.run("restore") { path throws(StoreError) in
            let restored = try await SQLiteBackup.restore(backupAt: from, to: path, force: force)
            return "Restored \(from) to \(path): \(restored.summary). Start the server on it.\n"
        }
    }
}
