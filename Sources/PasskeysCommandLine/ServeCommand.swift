import ArgumentParser
import Foundation
import Hummingbird
import Logging
import PasskeyServer
import PasskeyStorage
import ServiceLifecycle
import WebAuthn

/// `passkeys serve`: runs the relying-party server.
struct ServeCommand: ExecutableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the passkey server.",
        discussion: """
            Without a configuration file it starts a working local instance: rpId localhost, origin \
            http://localhost:PORT, the SQLite database passkeys.sqlite in the current folder, and — when no API \
            key is configured — a development API key, kept beside the database (passkeys.sqlite.api-key) so it \
            stays the same across restarts. Any rpId other than localhost needs a configured API key.

            Settings come from the --config file (JSON, YAML or TOML, by its extension), then environment \
            variables (PASSKEYS_DATABASE, PASSKEYS_PORT, PASSKEYS_HOST, PASSKEYS_API_KEY, PASSKEYS_LOG_LEVEL), then \
            these flags. SIGTERM or SIGINT shuts the server down gracefully.

            --identity-verification simulated makes identity verification runs decidable through the backend API \
            (passkeys idv decide, the SDK's SimulatedIdentityVerifier): for development and demos, never production.
            """
    )

    @Option(help: "The port to listen on (default 8080; 0 for a free port, which the first line printed names).")
    var port: Int?

    @Option(help: "The address to listen on (default 127.0.0.1).")
    var host: String?

    @Option(
        help: ArgumentHelp(
            "sqlite:PATH (?synchronous=full syncs every commit), postgres://USER:PASSWORD@HOST:PORT/DB, or memory.",
            valueName: "url"
        )
    )
    var database: String?

    @Option(help: ArgumentHelp("A configuration file: .json, .yaml, .yml or .toml.", valueName: "file"))
    var config: String?

    @Option(name: .customLong("api-key"), help: "A backend API key to accept (also PASSKEYS_API_KEY).")
    var apiKey: String?

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp(
            "The least severe messages logged: trace, debug, info (the default: a line per request), notice, warning, error or critical.",
            valueName: "level"
        )
    )
    var logLevel: String?

    /// The identity verification providers the flag can choose.
    enum IdentityVerificationProvider: String, ExpressibleByArgument, CaseIterable {
        /// Runs are decided through the backend API (`passkeys idv decide`): development, demos, tests.
        case simulated
        case disabled

        var provider: ServerConfiguration.IdentityVerification.Provider {
            self == .simulated ? .simulated : .disabled
        }
    }

    @Option(
        name: .customLong("identity-verification"),
        help: ArgumentHelp(
            "The identity verification provider: simulated (runs decided with passkeys idv decide; never in production) or disabled.",
            valueName: "provider"
        )
    )
    var identityVerification: IdentityVerificationProvider?

    func execute(in environment: CommandEnvironment) async -> CommandResult {
        var configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration.load(
                file: config,
                environment: ProcessInfo.processInfo.environment,
                overrides: ServerConfiguration.Overrides(
                    port: port,
                    host: host,
                    database: database,
                    apiKey: apiKey,
                    logLevel: logLevel,
                    identityVerification: identityVerification?.provider
                )
            )
        } catch {
            return CommandResult(exitCode: CommandResult.usage, standardError: "error: \(error)\n")
        }
        // Port 0: the system chooses a free port, held until the server listens on it (see PortReservation).
        let reservation: PortReservation?
        do {
            reservation = configuration.port == 0 ? try PortReservation.reserve(host: configuration.host) : nil
        } catch {
            return CommandResult(exitCode: CommandResult.failure, standardError: "error: \(error)\n")
        }
        defer { reservation?.release() }
        if let reservation { configuration = configuration.listening(on: reservation.port) }
        var developmentKey: DevelopmentAPIKey?
        if configuration.apiKeys.isEmpty {
            let key: DevelopmentAPIKey
            do {
                key = try DevelopmentAPIKey.load(for: configuration)
            } catch {
                return CommandResult(exitCode: CommandResult.usage, standardError: "error: \(error)\n")
            }
            configuration.apiKeys = [.init(name: "development", key: key.key)]
            developmentKey = key
        }
        if configuration.audit.checkpointKeyFile == nil, case .sqlite(let database) = configuration.database {
            // Kept beside the database, so checkpoints verify with one key across restarts: name a file elsewhere
            // (audit.checkpointKeyFile) for the log to withstand whoever can write the database's folder.
            configuration.audit.checkpointKeyFile = database.path + ".audit-key"
        }
        LoggingSystem.bootstrapOnce()
        var logger = Logger(label: "passkeys")
        logger.logLevel = configuration.logLevel
        for warning in configuration.clearAPIKeyWarnings { logger.warning("\(warning)") }
        let opened: OpenedStore
        do {
            opened = try await OpenedStore.open(configuration.database)
        } catch {
            return CommandResult(exitCode: CommandResult.failure, standardError: "error: \(error)\n")
        }
        do {
            let metadata = try await configuration.loadMetadata()
            let service = try PasskeyService(
                configuration: configuration,
                store: opened.store,
                logger: logger,
                metadata: metadata
            )
            await service.prepareSessionSigningKey()
            var banner =
                "passkeys serving \(configuration.baseURL) (rpId \(configuration.rpId), database \(configuration.databaseForDisplay))\n"
            if let developmentKey {
                let kept = developmentKey.file.map { "kept in \($0)" } ?? "for this run only"
                banner += "development API key (\(kept)): \(developmentKey.key)\n"
            }
            if let blob = metadata?.blob {
                let setAside =
                    blob.unusableEntries.isEmpty
                    ? "" : ", \(blob.unusableEntries.count) entries set aside (see the log)"
                banner +=
                    "FIDO metadata: BLOB no \(blob.number), \(blob.entries.count) authenticator models\(setAside), next update \(blob.nextUpdate)\n"
            }
            if configuration.identityVerification.provider == .simulated {
                banner +=
                    "identity verification: simulated — decide runs with passkeys idv decide (never in production)\n"
            }
            if configuration.web.demo { banner += "demo: \(configuration.baseURL)/\n" }
            if configuration.web.console {
                banner += "operator console: \(configuration.baseURL)/console (sign in with an API key)\n"
            }
            // The banner once the address is bound: a busy port fails before anything says it serves.
            let announcement = banner
            let say: @Sendable (String) -> Void = { FileHandle.standardOutput.write(Data($0.utf8)) }
            let application = PasskeyApplication.build(
                service: service,
                services: opened.services + [ShutdownAnnouncement(announce: say)],
                logger: logger
            ) { _ in
                reservation?.release()
                say(announcement)
            }
            try await application.runService()
            await opened.close()
            say("passkeys stopped\n")
            return CommandResult(exitCode: CommandResult.success)
        } catch {
            await opened.close()
            // strerror(EADDRINUSE), as NIO reports a failed bind on Linux and macOS.
            if "\(error)".contains("Address already in use") {
                return CommandResult(
                    exitCode: CommandResult.failure,
                    standardError:
                        "error: \(configuration.host):\(configuration.port) is in use by another program; choose another port with --port or PASSKEYS_PORT.\n"
                )
            }
            return CommandResult(exitCode: CommandResult.failure, standardError: "error: \(error)\n")
        }
    }
}

extension LoggingSystem {
    private static let bootstrapped: Void = LoggingSystem.bootstrap { label in
        LogLineHandler(label: label)
    }

    static func bootstrapOnce() { _ = bootstrapped }
}
