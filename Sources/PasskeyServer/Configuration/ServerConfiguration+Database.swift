import Foundation

extension ServerConfiguration {
    /// `database`: where the server keeps its data, parsed once from its setting — `sqlite:PATH` (optionally
    /// `?synchronous=full` or `?synchronous=normal`), `postgres://…` (or `postgresql://…`), or `memory` — so the
    /// server and the command line open the same store from the same value. In a file it is written as that text.
    public enum Database: Sendable, Hashable, Codable, CustomStringConvertible {
        /// Nothing kept: a store in the process's memory, for tests and demos.
        case memory
        /// A SQLite file.
        case sqlite(SQLiteDatabase)
        /// A PostgreSQL server, named by its connection URL (`postgres://user:password@host:port/database`).
        case postgres(url: String)

        /// Parses a setting; `field` names where it came from in errors (`database`, `PASSKEYS_DATABASE`, `--database`).
        public init(_ setting: String, field: String = "database") throws(ConfigurationError) {
            if setting == "memory" {
                self = .memory
            } else if setting.hasPrefix("sqlite:") {
                self = .sqlite(try SQLiteDatabase(parsing: setting.dropFirst("sqlite:".count), field: field))
            } else if setting.hasPrefix("postgres://") || setting.hasPrefix("postgresql://") {
                self = .postgres(url: setting)
            } else {
                throw ConfigurationError(field: field, "must be sqlite:PATH, postgres://… or memory")
            }
        }

        /// The setting as a file writes it.
        public var description: String {
            switch self {
            case .memory: "memory"
            case .sqlite(let database):
                "sqlite:\(database.path)" + (database.syncsEveryCommit ? "?synchronous=full" : "")
            case .postgres(let url): url
            }
        }

        /// The setting without its password, for messages and logs.
        public var forDisplay: String {
            guard case .postgres(let url) = self else { return description }
            guard var components = URLComponents(string: url), components.password != nil else { return url }
            components.password = "***"
            return components.string ?? "(database URL)"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let field = decoder.codingPath.dottedPath
            try self.init(container.decode(String.self), field: field.isEmpty ? "database" : field)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(description)
        }
    }
}

/// A `sqlite:PATH` database setting, optionally followed by `?synchronous=full` (sync every commit) or
/// `?synchronous=normal` (sync at checkpoints, the default), after SQLite's own pragma.
public struct SQLiteDatabase: Sendable, Hashable {
    public let path: String
    /// Whether every commit is synced to the disk before it returns.
    public let syncsEveryCommit: Bool

    public init(path: String, syncsEveryCommit: Bool = false) {
        self.path = path
        self.syncsEveryCommit = syncsEveryCommit
    }

    /// The part after `sqlite:`; throws when its path is empty or its option is unknown.
    init(parsing setting: Substring, field: String) throws(ConfigurationError) {
        var path = setting
        var everyCommit = false
        if let mark = path.lastIndex(of: "?") {
            switch path[path.index(after: mark)...].lowercased() {
            case "synchronous=full": everyCommit = true
            case "synchronous=normal": everyCommit = false
            default:
                throw ConfigurationError(
                    field: field,
                    "has an unknown SQLite option; use sqlite:PATH, sqlite:PATH?synchronous=full or ?synchronous=normal"
                )
            }
            path = path[..<mark]
        }
        guard !path.isEmpty else { throw ConfigurationError(field: field, "must name a file: sqlite:PATH") }
        self.init(path: String(path), syncsEveryCommit: everyCommit)
    }
}
