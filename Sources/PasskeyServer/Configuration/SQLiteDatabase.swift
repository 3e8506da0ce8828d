/// A `sqlite:PATH` database setting, optionally followed by `?synchronous=full` (sync every commit) or
/// `?synchronous=normal` (sync at checkpoints, the default), after SQLite's own pragma.
public struct SQLiteDatabase: Sendable, Equatable {
    public let path: String
    /// Whether every commit is synced to the disk before it returns.
    public let syncsEveryCommit: Bool

    /// Nil when `setting` is not a `sqlite:` setting; throws when its path is empty or its option is unknown.
    public init?(_ setting: String) throws(ConfigurationError) {
        guard setting.hasPrefix("sqlite:") else { return nil }
        var path = Substring(setting.dropFirst("sqlite:".count))
        var everyCommit = false
        if let mark = path.lastIndex(of: "?") {
            switch path[path.index(after: mark)...].lowercased() {
            case "synchronous=full": everyCommit = true
            case "synchronous=normal": everyCommit = false
            default:
                throw ConfigurationError(
                    field: "database",
                    "has an unknown SQLite option; use sqlite:PATH, sqlite:PATH?synchronous=full or ?synchronous=normal"
                )
            }
            path = path[..<mark]
        }
        guard !path.isEmpty else { throw ConfigurationError(field: "database", "must name a file: sqlite:PATH") }
        self.path = String(path)
        self.syncsEveryCommit = everyCommit
    }
}
