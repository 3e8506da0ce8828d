import ArgumentParser
import Foundation
import PasskeyServer

/// The `--database` of the commands that open a server's store beside it (`passkeys audit verify`, `passkeys sessions
/// rotate-key`): a SQLite file, by path or `sqlite:PATH`, or `postgres://…`. A SQLite file must exist already: these
/// commands read or change a server's database, never make one.
struct ServerDatabaseOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The server's database: sqlite:PATH, a SQLite file's path, or postgres://….",
            valueName: "url"
        )
    )
    var database: String

    /// The database setting, or the failure to report.
    func parsed() -> Result<ServerConfiguration.Database, CommandLineError> {
        let setting = database.contains(":") ? database : "sqlite:" + database
        let parsed: ServerConfiguration.Database
        do {
            parsed = try ServerConfiguration.Database(setting, field: "--database")
        } catch {
            return .failure(CommandLineError(.invalidDatabase, "\(error)"))
        }
        if case .sqlite(let sqlite) = parsed, !FileManager.default.fileExists(atPath: sqlite.path) {
            return .failure(CommandLineError(.fileUnreadable, "There is no database at \(sqlite.path)."))
        }
        return .success(parsed)
    }
}
