import Foundation
import Logging

extension ServerConfiguration {
    /// What the command line sets over the file and the environment; nil leaves a setting as they have it.
    public struct Overrides: Sendable, Equatable {
        public var port: Int?
        public var host: String?
        /// A database setting, parsed by ``ServerConfiguration/Database/init(_:field:)``.
        public var database: String?
        public var apiKey: String?
        /// A level's name: `trace`, `debug`, `info`, `notice`, `warning`, `error` or `critical`.
        public var logLevel: String?
        public var identityVerification: IdentityVerification.Provider?

        public init(
            port: Int? = nil,
            host: String? = nil,
            database: String? = nil,
            apiKey: String? = nil,
            logLevel: String? = nil,
            identityVerification: IdentityVerification.Provider? = nil
        ) {
            self.port = port
            self.host = host
            self.database = database
            self.apiKey = apiKey
            self.logLevel = logLevel
            self.identityVerification = identityVerification
        }
    }

    /// The configuration `passkeys serve` runs with: the file (if any; JSON, YAML or TOML by its extension), then
    /// environment variables (`PASSKEYS_DATABASE`, `PASSKEYS_PORT`, `PASSKEYS_HOST`, `PASSKEYS_API_KEY`,
    /// `PASSKEYS_SESSION_SECRET`, `PASSKEYS_AUDIT_KEY_FILE`, `PASSKEYS_LOG_LEVEL`), then the command line's `overrides` — each overriding the
    /// one before — validated. A value that cannot be parsed is an error naming the variable or the flag it came from.
    public static func load(
        file: String?,
        environment: [String: String],
        overrides: Overrides = Overrides()
    ) throws(ConfigurationError) -> ServerConfiguration {
        let environmentPort = try environment["PASSKEYS_PORT"].map { value throws(ConfigurationError) -> Int in
            guard let port = Int(value) else {
                throw ConfigurationError(field: "PASSKEYS_PORT", "must be a port number")
            }
            return port
        }
        let effectivePort = overrides.port ?? environmentPort
        var configuration: ServerConfiguration
        if let file {
            configuration = try ServerConfiguration(data: Self.read(file), format: Self.format(of: file))
            if let effectivePort { configuration = configuration.listening(on: effectivePort) }
        } else {
            configuration = ServerConfiguration(port: effectivePort ?? 8080)
        }
        if let value = overrides.host ?? environment["PASSKEYS_HOST"] { configuration.host = value }
        if case let (value, field)? = Self.pick(overrides.database, "--database", environment, "PASSKEYS_DATABASE") {
            configuration.database = try Database(value, field: field)
        }
        if let value = environment["PASSKEYS_SESSION_SECRET"] { configuration.web.sessionSecret = value }
        if let value = environment["PASSKEYS_AUDIT_KEY_FILE"] { configuration.audit.checkpointKeyFile = value }
        if let value = overrides.apiKey ?? environment["PASSKEYS_API_KEY"] {
            configuration.apiKeys.removeAll { $0.name == APIKey.commandLineName }
            configuration.apiKeys.append(APIKey(name: APIKey.commandLineName, key: value))
        }
        if case let (value, field)? = Self.pick(overrides.logLevel, "--log-level", environment, "PASSKEYS_LOG_LEVEL") {
            guard let level = Logger.Level(rawValue: value) else {
                let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
                throw ConfigurationError(field: field, "must be one of \(levels), not '\(value)'")
            }
            configuration.logLevel = level
        }
        if let provider = overrides.identityVerification { configuration.identityVerification.provider = provider }
        try configuration.validate()
        return configuration
    }

    /// The flag's value if given, else the environment variable's, with the name of the one it came from.
    private static func pick(
        _ flag: String?,
        _ flagName: String,
        _ environment: [String: String],
        _ variable: String
    ) -> (String, String)? {
        if let flag { return (flag, flagName) }
        return environment[variable].map { ($0, variable) }
    }

    /// This configuration with the server on `port`: web origins left to their default (`http://localhost:<port>`)
    /// follow the port; origins a file set stay as they are. `passkeys serve --port 0` calls it with the port the
    /// system chose before the service is built, so the origin and the bound address agree.
    public func listening(on port: Int) -> ServerConfiguration {
        var configuration = self
        if webOrigins == ServerConfiguration(port: self.port).webOrigins {
            configuration.webOrigins = ServerConfiguration(port: port).webOrigins
        }
        configuration.port = port
        return configuration
    }

    /// The format a file's extension names, or an error that lists the extensions accepted.
    static func format(of file: String) throws(ConfigurationError) -> ConfigurationFileFormat {
        let pathExtension = URL(fileURLWithPath: file).pathExtension
        guard let format = ConfigurationFileFormat(pathExtension: pathExtension) else {
            throw ConfigurationError(
                field: "--config",
                "must name a file ending in "
                    + ConfigurationFileFormat.pathExtensions.map { ".\($0)" }.joined(separator: ", ")
                    + " (JSON, YAML or TOML): \(file)"
            )
        }
        return format
    }

    /// The file's bytes, reading at most one byte past the size limit (which the decoder then refuses).
    static func read(_ file: String) throws(ConfigurationError) -> Data {
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
            defer { try? handle.close() }
            return try handle.read(upToCount: ConfigurationFileFormat.maximumFileBytes + 1) ?? Data()
        } catch {
            throw ConfigurationError(field: "--config", "names a file that cannot be read: \(file)")
        }
    }

    /// The database setting without its password, for messages and logs.
    public var databaseForDisplay: String { database.forDisplay }

    /// The base URL the server answers on, for messages.
    public var baseURL: String {
        let shown = host == "127.0.0.1" || host == "0.0.0.0" || host == "::" ? "localhost" : host
        return "http://\(shown):\(port)"
    }
}
