import ArgumentParser
import Foundation
import PasskeyClient

/// Environment variables of the device commands. Tests set ``overrides`` for one task instead of changing the
/// process's environment.
enum DeviceEnvironment {
    @TaskLocal static var overrides: [String: String]?

    static func value(_ name: String) -> String? {
        let value = (overrides ?? ProcessInfo.processInfo.environment)[name]
        return value?.isEmpty == false ? value : nil
    }

    static let apiKey = "PASSKEYS_API_KEY"
    static let keyStore = "PASSKEYS_KEY_STORE"
    static let passphrase = "PASSKEYS_KEY_STORE_PASSPHRASE"
    /// Used when ``passphrase`` is unset, with a warning: fine for a development key store, not for keys that matter.
    static let developmentPassphrase = "swift-passkeys-development-key-store"
}

/// The options of the commands that act as a device (`register`, `sign-in`).
struct DeviceOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The passkey server's base URL, such as http://localhost:8080 (approve: by default the link's origin).",
            valueName: "url"
        )
    )
    var server: String?

    @Option(
        help: ArgumentHelp(
            "The origin this device reports in clientDataJSON (default: the server's origin, which the local development server allows).",
            valueName: "origin"
        )
    )
    var origin: String?

    @OptionGroup var store: KeyStoreOptions

    /// The server's URL, checked: https, or http for localhost. Without --server, `fallback` (approve passes the
    /// origin of the link it was given), else a usage error.
    func serverURL(fallback: String? = nil) throws(PasskeyError) -> URL {
        guard let server = server ?? fallback else {
            throw PasskeyError(
                .invalidInput,
                "--server is required: the passkey server's base URL, such as http://localhost:8080."
            )
        }
        return try Self.serverURL(server)
    }

    /// `server` as a URL, checked: https, or http for localhost.
    static func serverURL(_ server: String) throws(PasskeyError) -> URL {
        guard let url = URL(string: server), let scheme = url.scheme, let host = url.host, !host.isEmpty else {
            throw PasskeyError(.invalidInput, "--server '\(server)' is not a URL such as http://localhost:8080.")
        }
        guard scheme == "https" || (scheme == "http" && ["localhost", "127.0.0.1"].contains(host)) else {
            throw PasskeyError(.invalidInput, "--server must use https (http only for localhost and 127.0.0.1).")
        }
        guard url.path.isEmpty || url.path == "/", url.query == nil else {
            throw PasskeyError(
                .invalidInput,
                "--server is the server's address without a path, such as \(scheme)://\(host)\(url.port.map { ":\($0)" } ?? "") (drop '\(url.path)'): the commands add /v1/… themselves."
            )
        }
        return url
    }

    /// The origin: --origin, or the server URL's `scheme://host[:port]`.
    func effectiveOrigin(_ serverURL: URL) -> String {
        if let origin { return origin }
        var text = "\(serverURL.scheme ?? "https")://\(serverURL.host ?? "localhost")"
        if let port = serverURL.port { text += ":\(port)" }
        return text
    }

    /// The backend API key from PASSKEYS_API_KEY.
    func apiKey() throws(PasskeyError) -> String { try Self.apiKey() }

    /// The backend API key from PASSKEYS_API_KEY.
    static func apiKey() throws(PasskeyError) -> String {
        guard let key = DeviceEnvironment.value(DeviceEnvironment.apiKey) else {
            throw PasskeyError(
                .invalidConfiguration,
                "PASSKEYS_API_KEY is not set. Set it to a backend API key of the server (passkeys serve prints its development key)."
            )
        }
        return key
    }
}

/// Where the device's passkeys are kept.
struct KeyStoreOptions: ParsableArguments {
    @Option(
        name: .customLong("key-store"),
        help: ArgumentHelp(
            "The key store file (default: PASSKEYS_KEY_STORE, else $XDG_CONFIG_HOME/passkeys/keys.json or ~/.config/passkeys/keys.json).",
            valueName: "path"
        )
    )
    var keyStore: String?

    /// --key-store, PASSKEYS_KEY_STORE, or the user's configuration folder.
    var path: String {
        if let keyStore { return keyStore }
        if let path = DeviceEnvironment.value(DeviceEnvironment.keyStore) { return path }
        if let config = DeviceEnvironment.value("XDG_CONFIG_HOME") { return "\(config)/passkeys/keys.json" }
        let home = DeviceEnvironment.value("HOME") ?? NSHomeDirectory()
        return "\(home)/.config/passkeys/keys.json"
    }

    /// The passphrase, and a warning when the development default stands in for it in a key store that does not
    /// exist yet: said once, when the choice is made, not on every command that opens the store afterwards.
    func passphrase() -> (passphrase: String, warning: String?) {
        if let passphrase = DeviceEnvironment.value(DeviceEnvironment.passphrase) { return (passphrase, nil) }
        guard !FileManager.default.fileExists(atPath: path) else {
            return (DeviceEnvironment.developmentPassphrase, nil)
        }
        return (
            DeviceEnvironment.developmentPassphrase,
            "warning: PASSKEYS_KEY_STORE_PASSPHRASE is not set: a key store made at \(path) is protected only by the development passphrase. Set the variable before the first command to protect the keys with a passphrase of your own.\n"
        )
    }

    func open() -> (store: EncryptedFileKeyStore, warning: String?) {
        let (passphrase, warning) = passphrase()
        return (EncryptedFileKeyStore(path: path, protection: .passphrase(passphrase)), warning)
    }
}

/// How device commands report failures: the code, the message, and what to do; exit code 1 (2 for bad input).
enum DeviceFailure {
    static func result(_ error: PasskeyError, warning: String? = nil, context: Context = .init()) -> CommandResult {
        var text = warning ?? ""
        text += "error: \(error.code.rawValue): \(error.message)\n"
        if let serverCode = error.serverCode, serverCode != error.code.rawValue {
            text += "server code: \(serverCode)\n"
        }
        if let hint = hint(error, context) { text += "what to do: \(hint)\n" }
        let usage = error.code == .invalidInput && error.serverCode == nil
        return CommandResult(exitCode: usage ? CommandResult.usage : CommandResult.failure, standardError: text)
    }

    struct Context {
        var server: String?
        var user: String?
        var keyStore: String?
        /// The identity verification run the command works on.
        var workflowRunId: String?
    }

    static func hint(_ error: PasskeyError, _ context: Context) -> String? {
        let server = context.server ?? "URL"
        switch error.code {
        case .networkError, .timeout:
            return "Check that the passkey server runs at \(server) (start one with: passkeys serve)."
        case .invalidConfiguration where error.serverCode == "UNAUTHENTICATED":
            return "Set PASSKEYS_API_KEY to one of the server's backend API keys."
        case .invalidOrExpiredSession, .challengeExpired, .challengeConsumed:
            return "Run the command again: each run starts a new session."
        case .passkeyNotFound where context.server == nil:
            return
                "\(context.keyStore ?? "The key store") has no passkey with that id: passkeys keys list shows the ids it holds."
        case .passkeyNotFound:
            return
                "Register a passkey on this device first: passkeys register --server \(server) --user \(context.user ?? "NAME")."
        case .passkeyAlreadyExists:
            return
                "This device already has a passkey for this user; sign in with: passkeys sign-in --server \(server) --user \(context.user ?? "NAME")."
        case .notFound where context.workflowRunId != nil:
            return
                "The server has no run \(context.workflowRunId ?? ""), or its identity verification provider is not simulated (start it with: passkeys serve --identity-verification simulated)."
        case .workflowNotCompleted, .workflowDeclined, .workflowUnderReview:
            return
                "The identity verification was not approved. A server without --identity-verification simulated cannot decide it here; start a new sign-in."
        case .authContextMismatch:
            return "Do not sign: the challenge does not belong to what was shown. Start a new sign-in."
        case .handoffTokenInvalid:
            return "Pass the QR code's whole link (or the part after its '#'), from the server given with --server."
        case .handoffAlreadyClaimed, .handoffExpired, .handoffRejected:
            return "Start the sign-in again on the other device and approve its new QR code."
        case .handoffCodeMismatch:
            return
                "Check the number on the other device. This run holds the handoff, so another run cannot claim it: run without --code and type the number when asked (it asks again after a wrong one), or start the sign-in again on the other device."
        case .notFound:
            return context.user.map { "The server has no user '\($0)'; register one first with passkeys register." }
                ?? "Check --server: it must be the passkey server's base URL."
        case .relyingPartyMismatch:
            return
                "Pass --origin with an origin the server allows (its webOrigins, or https://RPID when Apple apps are configured)."
        case .keyStoreWrongPassphrase where DeviceEnvironment.value(DeviceEnvironment.passphrase) == nil:
            return
                "This key store was made with a passphrase of its own: set PASSKEYS_KEY_STORE_PASSPHRASE to it."
        case .keyStoreWrongPassphrase:
            return
                "If this key store was made while PASSKEYS_KEY_STORE_PASSPHRASE was not set, it uses the development passphrase: unset the variable to open it. Otherwise set the variable to the passphrase the key store was made with."
        case .keyStoreCorrupt, .keyStoreUnrecognized:
            return
                "Restore \(context.keyStore ?? "the key store") from a backup, or choose another file with --key-store."
        case .keyStoreInsecure:
            return "Run: chmod 600 \(context.keyStore ?? "the key store file")."
        case .keyStoreUnavailable:
            return "Check that the key store folder exists and is writable, or choose another path with --key-store."
        case .invalidConfiguration:
            return nil
        case .maxCredentialsReached:
            return
                "Revoke one of the user's passkeys on the server (DELETE /v1/credentials/ID) before registering another."
        case .rateLimited:
            return "Wait a minute and try again."
        case .serverError:
            return "Look at the server's log (request id \(error.requestId ?? "unknown"))."
        default:
            return nil
        }
    }
}
