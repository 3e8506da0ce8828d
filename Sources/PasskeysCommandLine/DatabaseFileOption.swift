import ArgumentParser
import PasskeyServer
import PasskeyStorage
import WebAuthn

/// The `--database` of `passkeys backup` and `passkeys restore`: a SQLite file. A PostgreSQL database is backed up
/// with its own tools, which the refusal names.
struct DatabaseFileOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The server's database: sqlite:PATH (postgres:// is backed up with pg_dump).",
            valueName: "url"
        )
    )
    var database: String

    /// The SQLite file, or the failure to report.
    func sqlitePath(for command: String) -> Result<String, CommandLineError> {
        let parsed: ServerConfiguration.Database
        do {
            parsed = try ServerConfiguration.Database(database, field: "--database")
        } catch {
            return .failure(CommandLineError(.invalidDatabase, "\(error)"))
        }
        switch parsed {
        case .sqlite(let sqlite):
            return .success(sqlite.path)
        case .postgres:
            return .failure(
                CommandLineError(
                    .backupUnsupported,
                    "passkeys \(command) copies SQLite files; back up PostgreSQL with its own tools: "
                        + "pg_dump --format=custom --file FILE 'URL', and pg_restore --clean --if-exists "
                        + "--no-owner --dbname 'URL' FILE (see the server guide, Backup and restore)."
                )
            )
        case .memory:
            return .failure(
                CommandLineError(.backupUnsupported, "A memory database keeps nothing to back up or restore.")
            )
        }
    }
}

extension DatabaseFileOption {
    /// Runs `body` with the SQLite file and prints what it returns; a refused `--database` or a failure of `body`
    /// is printed with its code.
    func run(
        _ command: String,
        _ body: (String) async throws(StoreError) -> String
    ) async -> CommandResult {
        switch sqlitePath(for: command) {
        case .failure(let failure):
            return failure.result
        case .success(let path):
            do throws(StoreError) {
                return CommandResult(exitCode: CommandResult.success, standardOutput: try await body(path))
            } catch {
                return CommandLineError(.init(rawValue: error.code.rawValue), error.reason).result
            }
        }
    }
}

extension WebAuthnError.Code {
    /// `--database` is not a database setting.
    static let invalidDatabase = Self(rawValue: "INVALID_DATABASE")
    /// `passkeys backup`/`restore` on a database they do not copy (PostgreSQL, memory).
    static let backupUnsupported = Self(rawValue: "BACKUP_UNSUPPORTED")
}

extension CommandLineError {
    /// The failure as the command prints it, with its exit code: 2 for a bad `--database`, 1 otherwise.
    var result: CommandResult {
        CommandResult(
            exitCode: code == .invalidDatabase ? CommandResult.usage : CommandResult.failure,
            standardError: "error: \(code.rawValue): \(message)\n"
        )
    }
}
