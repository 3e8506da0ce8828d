import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore {
    /// Where the store's database is and how to reach it, usually read from a `postgres://` URL.
    public struct Configuration: Sendable, Hashable, CustomStringConvertible {
        /// Whether connections use TLS.
        public enum TLSMode: String, Sendable, Hashable, CaseIterable {
            /// Plain TCP.
            case disable
            /// TLS when the server offers it, without checking its certificate (as libpq's `prefer`); plain TCP
            /// otherwise. This protects against eavesdropping, not against an impostor.
            case prefer
            /// TLS, with the server's certificate checked against the system's trusted roots and the host name
            /// (as libpq's `verify-full`, which is also accepted). Stricter than libpq's `require`, which does not
            /// check the certificate: a server with a private CA needs that CA in the system's trust store.
            case require
        }

        public var host: String
        public var port: Int
        public var username: String
        public var password: String?
        public var database: String
        public var tls: TLSMode
        /// The schema search path of every connection (the `search_path` URL parameter). The store creates its
        /// tables in the first schema of the path, which must exist. Nil: the server's default (`public`).
        public var searchPath: String?
        /// Shown in `pg_stat_activity`.
        public var applicationName: String
        /// How long opening a TCP connection may take.
        public var connectTimeout: Duration
        /// How many connections this process's pool may open.
        public var maximumConnections: Int
        /// How many connections the pool keeps open even when idle (`pool_min`; less than ``maximumConnections``, or
        /// taken as one less).
        /// A connection beyond them is closed after 60 s unused, which costs the pool a timer each time it is given
        /// back (see docs/benchmarks.md).
        public var minimumConnections: Int
        /// How long a connection may sit idle before the pool checks it with `SELECT 1` (`keepalive`, seconds), so
        /// that one the network dropped is found before a request needs it; nil: never (no timer each time a
        /// connection is given back, but a dropped connection fails the next request that uses it).
        public var keepAlive: Duration?
        /// How long an operation waits for a pooled connection before it fails with `.unavailable`: all of them
        /// busy, or the server unreachable.
        public var connectionWaitTimeout: Duration

        public init(
            host: String,
            port: Int = 5432,
            username: String,
            password: String?,
            database: String,
            tls: TLSMode = .prefer,
            searchPath: String? = nil,
            applicationName: String = "swift-passkeys",
            connectTimeout: Duration = .seconds(10),
            maximumConnections: Int = 20,
            minimumConnections: Int = 0,
            keepAlive: Duration? = .seconds(30),
            connectionWaitTimeout: Duration = .seconds(10)
        ) {
            self.host = host
            self.port = port
            self.username = username
            self.password = password
            self.database = database
            self.tls = tls
            self.searchPath = searchPath
            self.applicationName = applicationName
            self.connectTimeout = connectTimeout
            self.maximumConnections = maximumConnections
            self.minimumConnections = minimumConnections
            self.keepAlive = keepAlive
            self.connectionWaitTimeout = connectionWaitTimeout
        }

        /// Reads `postgres://USER:PASSWORD@HOST:PORT/DATABASE?PARAMETERS` (or `postgresql://`). User, password
        /// and database may be percent-encoded. The host defaults to `localhost`, the port to 5432, the database
        /// to the user's name. Parameters: `sslmode` (`disable`, `prefer` — the default —, `require` or
        /// `verify-full`), `search_path`, `application_name`, `connect_timeout` (seconds), `pool_size`, `pool_min`
        /// (see ``minimumConnections``), `pool_timeout` (seconds, see ``connectionWaitTimeout``) and `keepalive`
        /// (seconds, 0 for none; see ``keepAlive``).
        /// Any other parameter is refused, so that a misspelt one does not go unnoticed.
        public init(url: String) throws(StoreError) {
            func invalid(_ problem: String) -> StoreError {
                StoreError(
                    .unavailable,
                    "The PostgreSQL URL is not usable: \(problem). Expected postgres://USER:PASSWORD@HOST:PORT/DATABASE."
                )
            }
            guard let components = URLComponents(string: url) else { throw invalid("it is not a URL") }
            guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
                throw invalid("the scheme must be postgres:// or postgresql://")
            }
            guard let username = components.user, !username.isEmpty else { throw invalid("it names no user") }
            var host = components.host ?? ""
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }  // IPv6
            if host.isEmpty { host = "localhost" }
            let port = components.port ?? 5432
            guard (1...65_535).contains(port) else { throw invalid("port \(port) is out of range") }
            var encodedDatabase = components.percentEncodedPath
            if encodedDatabase.hasPrefix("/") { encodedDatabase.removeFirst() }
            guard !encodedDatabase.contains("/") else {
                throw invalid("the path '\(components.path)' is more than a database name")
            }
            guard let database = encodedDatabase.removingPercentEncoding else {
                throw invalid("the database name is not valid percent-encoding")
            }
            self.init(
                host: host,
                port: port,
                username: username,
                password: components.password,
                database: database.isEmpty ? username : database
            )

            for item in components.queryItems ?? [] {
                let value = item.value ?? ""
                switch item.name {
                case "sslmode":
                    switch value {
                    case "disable": tls = .disable
                    case "prefer": tls = .prefer
                    case "require", "verify-full": tls = .require
                    default: throw invalid("sslmode '\(value)' is not one of disable, prefer, require, verify-full")
                    }
                case "search_path":
                    guard !value.isEmpty else { throw invalid("search_path is empty") }
                    searchPath = value
                case "application_name":
                    applicationName = value
                case "connect_timeout":
                    guard let seconds = Int(value), seconds > 0 else {
                        throw invalid("connect_timeout must be a positive number of seconds")
                    }
                    connectTimeout = .seconds(seconds)
                case "pool_timeout":
                    guard let seconds = Int(value), seconds > 0 else {
                        throw invalid("pool_timeout must be a positive number of seconds")
                    }
                    connectionWaitTimeout = .seconds(seconds)
                case "pool_size":
                    guard let size = Int(value), size > 0 else { throw invalid("pool_size must be a positive number") }
                    maximumConnections = size
                case "pool_min":
                    guard let size = Int(value), size >= 0 else { throw invalid("pool_min must be 0 or more") }
                    minimumConnections = size
                case "keepalive":
                    guard let seconds = Int(value), seconds >= 0 else {
                        throw invalid("keepalive must be a number of seconds (0: no keep-alive queries)")
                    }
                    keepAlive = seconds == 0 ? nil : .seconds(seconds)
                default:
                    throw invalid(
                        "the parameter '\(item.name)' is not supported (supported: sslmode, search_path, application_name, connect_timeout, pool_size, pool_min, pool_timeout, keepalive)"
                    )
                }
            }
            guard minimumConnections < maximumConnections else {
                throw invalid("pool_min (\(minimumConnections)) must be less than pool_size (\(maximumConnections))")
            }
        }

        /// The URL without the password, for messages and logs.
        public var description: String {
            var text =
                "postgres://\(username)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)?sslmode=\(tls.rawValue)"
            if let searchPath { text += "&search_path=\(searchPath)" }
            return text
        }

        /// Where this configuration points, for error messages: never includes the password.
        var target: String { "PostgreSQL at \(host):\(port) (database '\(database)', user '\(username)')" }

        var startupParameters: [(String, String)] {
            var parameters = [("application_name", applicationName)]
            if let searchPath { parameters.append(("search_path", searchPath)) }
            return parameters
        }

        var tlsConfiguration: TLSConfiguration {
            var configuration = TLSConfiguration.makeClientConfiguration()
            if tls == .prefer { configuration.certificateVerification = .none }
            return configuration
        }

        /// The configuration of the connection pool that serves the store's operations.
        var clientConfiguration: PostgresClient.Configuration {
            let tls: PostgresClient.Configuration.TLS =
                switch self.tls {
                case .disable: .disable
                case .prefer: .prefer(tlsConfiguration)
                case .require: .require(tlsConfiguration)
                }
            var configuration = PostgresClient.Configuration(
                host: host,
                port: port,
                username: username,
                password: password,
                database: database,
                tls: tls
            )
            configuration.options.connectTimeout = connectTimeout
            configuration.options.additionalStartupParameters = startupParameters
            configuration.options.maximumConnections = maximumConnections
            configuration.options.minimumConnections = max(0, min(minimumConnections, maximumConnections - 1))
            configuration.options.keepAliveBehavior = keepAlive.map { .init(frequency: $0) }
            return configuration
        }

        /// The configuration of the single connection that applies migrations at start.
        func connectionConfiguration() throws(StoreError) -> PostgresConnection.Configuration {
            let tls: PostgresConnection.Configuration.TLS
            do {
                switch self.tls {
                case .disable: tls = .disable
                case .prefer: tls = .prefer(try NIOSSLContext(configuration: tlsConfiguration))
                case .require: tls = .require(try NIOSSLContext(configuration: tlsConfiguration))
                }
            } catch {
                throw StoreError(
                    .unavailable,
                    "Could not set up TLS for \(target): \(error). Check the system's trusted certificates, or the URL's sslmode."
                )
            }
            var configuration = PostgresConnection.Configuration(
                host: host,
                port: port,
                username: username,
                password: password,
                database: database,
                tls: tls
            )
            configuration.options.connectTimeout = TimeAmount(connectTimeout)
            configuration.options.additionalStartupParameters = startupParameters
            return configuration
        }
    }
}
