public import Foundation
public import Logging
public import WebAuthn

/// Everything a server instance is configured with (DESIGN §4). Decoded from a JSON, YAML or TOML file, then
/// overridden by environment variables and flags, then validated (``validate()``) with errors that name the field.
public struct ServerConfiguration: Sendable, Codable, Equatable {
    /// The RP ID: the registrable domain passkeys are bound to (`localhost` for development).
    public var rpId: String
    /// The name authenticators show.
    public var rpName: String
    /// Origins of the relying party's web pages (`https://example.com`, `http://localhost:8080`).
    public var webOrigins: [String]
    /// Other origins allowed to use the RP ID (served at `/.well-known/webauthn`).
    public var relatedOrigins: [String]
    public var appleApps: [AppleApp]
    public var androidApps: [AndroidApp]
    public var host: String
    public var port: Int
    /// `sqlite:PATH`, `postgres://user:password@host:port/database`, or `memory`.
    public var database: Database
    public var apiKeys: [APIKey]
    public var policy: Policy
    public var expiries: Expiries
    public var limits: Limits
    public var retention: Retention
    public var audit: Audit
    public var web: Web
    public var identityVerification: IdentityVerification
    public var crossDevice: CrossDevice
    public var recovery: Recovery
    public var webhooks: Webhooks
    public var sessions: Sessions
    /// The least severe messages logged. Not a file setting: `PASSKEYS_LOG_LEVEL` or `--log-level` (see ``load``).
    public var logLevel: Logger.Level = .info

    /// The file's members: every setting but ``logLevel``.
    enum CodingKeys: String, CodingKey {
        case rpId, rpName, webOrigins, relatedOrigins, appleApps, androidApps, host, port, database, apiKeys, policy
        case expiries, limits, retention, audit, web, identityVerification, crossDevice, recovery, webhooks, sessions
    }

    public struct AppleApp: Sendable, Codable, Equatable {
        public var teamId: String
        public var bundleId: String
        /// The paths of this site the app opens as universal links (`applinks` in the served
        /// apple-app-site-association), such as `/approve` for a handoff's `crossDevice.linkBase`; `*` and `?` match as
        /// Apple's `components` do. None: the app opens no links.
        public var appLinkPaths: [String]?
        public init(teamId: String, bundleId: String, appLinkPaths: [String]? = nil) {
            self.teamId = teamId
            self.bundleId = bundleId
            self.appLinkPaths = appLinkPaths
        }

        /// The app's identifier in association files: `TEAMID.bundle.id`.
        public var appID: String { "\(teamId).\(bundleId)" }
    }

    public struct AndroidApp: Sendable, Codable, Equatable {
        public var packageName: String
        /// SHA-256 fingerprints of the app's signing certificates, as `AB:CD:…` (32 bytes in hex).
        public var sha256CertFingerprints: [String]
        public init(packageName: String, sha256CertFingerprints: [String]) {
            self.packageName = packageName
            self.sha256CertFingerprints = sha256CertFingerprints
        }
    }

    /// A backend API key. Give `sha256` (the key's SHA-256 in hex, as `passkeys api-key hash` prints it, so the file
    /// holds no secret) or `key` (the secret itself: for development; a server on another rpId than localhost warns
    /// at start). `scopes` names what the key may do (``APIScope``); a key without `scopes` may do everything (`*`).
    public struct APIKey: Sendable, Codable, Equatable {
        public var name: String
        public var key: String?
        public var sha256: String?
        public var scopes: [String]?
        public init(name: String, key: String? = nil, sha256: String? = nil, scopes: [APIScope]? = nil) {
            self.name = name
            self.key = key
            self.sha256 = sha256
            self.scopes = scopes?.map(\.rawValue)
        }
    }

    public struct Policy: Sendable, Codable, Equatable {
        public var userVerification: UserVerificationRequirement = .preferred
        public var residentKey: ResidentKeyRequirement = .required
        public var authenticatorAttachment: AuthenticatorAttachment?
        public var attestation: AttestationConveyancePreference = .none
        /// Accepted attestation formats (default: all).
        public var attestationFormats: [AttestationFormat] = AttestationFormat.supported
        /// PEM files of trust anchors, per attestation format.
        public var trustAnchors: [String: [String]] = [:]
        /// The FIDO Metadata Service BLOB as a further source of trust anchors, and of authenticator models to refuse.
        public var metadata: Metadata?
        public var requireTrustedAttestation = false
        /// Whether synced (backup-eligible) passkeys are accepted.
        public var allowSyncedCredentials = true
        /// `reject` (default) or `report` a signature counter that did not increase.
        public var signCount: SignCount = .reject
        /// Offered credential algorithms, in order of preference (COSE identifiers).
        public var algorithms: [Int] = [-7, -8, -257]
        public var maxCredentialsPerUser = 10
        public var stepUp = StepUpPolicy()
        public var enrollment = EnrollmentPolicy()

        public enum SignCount: String, Sendable, Codable { case reject, report }
        public init() {}

        /// `policy.metadata`: a FIDO Metadata Service BLOB, read and verified when the server starts (see
        /// ``ServerConfiguration/loadMetadata(at:)``).
        public struct Metadata: Sendable, Codable, Equatable {
            /// The BLOB file, as downloaded from the FIDO Metadata Service.
            public var blob: String
            /// PEM files of the roots the BLOB's signing chain must reach (the service's root).
            public var rootCertificates: [String]
            /// Refuse attested registrations of authenticators the BLOB has no entry for.
            public var requireEntry: Bool
            /// Keep using the BLOB after its `nextUpdate` has passed.
            public var allowStale: Bool

            public init(blob: String, rootCertificates: [String], requireEntry: Bool = false, allowStale: Bool = false)
            {
                self.blob = blob
                self.rootCertificates = rootCertificates
                self.requireEntry = requireEntry
                self.allowStale = allowStale
            }

            public init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                blob = try container.decode(String.self, forKey: .blob)
                rootCertificates = try container.decode([String].self, forKey: .rootCertificates)
                requireEntry = try container.decodeIfPresent(Bool.self, forKey: .requireEntry) ?? false
                allowStale = try container.decodeIfPresent(Bool.self, forKey: .allowStale) ?? false
            }
        }
    }

    /// Lifetimes, in seconds.
    public struct Expiries: Sendable, Codable, Equatable {
        public var challenge: Int = 120
        public var registrationAttempt: Int = 600
        public var authenticationSession: Int = 300
        public var resultToken: Int = 60
        /// How long a credential registered with explicit finalize stays reserved.
        public var reservation: Int = 600
        /// How long a handoff to a phone (cross-device approval) may be claimed.
        public var handoff: Int = 120
        public init() {}
    }

    public struct Limits: Sendable, Codable, Equatable {
        /// Largest request body, in bytes.
        public var maxRequestBodyBytes = 64 * 1024
        /// Client API requests per minute per client IP.
        public var clientRequestsPerMinute = 300
        /// Failed sign-ins allowed per credential, and per client IP, within `failureWindowSeconds`.
        public var failedAssertionsPerCredential = 10
        public var failedAssertionsPerIP = 50
        public var failureWindowSeconds = 900
        /// The reverse proxies in front of the server, as addresses or CIDR ranges (`10.0.0.0/8`). A request from
        /// one of them is attributed to the first address in `X-Forwarded-For`, read from the right, that is not one
        /// of them. Empty (the default): the header is ignored and the connection's peer is the client.
        public var trustedProxies: [String] = []
        /// Seconds a kept-alive connection may wait between requests (and a request's body may pause) before the
        /// server closes it.
        public var idleTimeoutSeconds = 60
        /// Seconds a new connection has to send its first request's headers in full.
        public var requestHeaderTimeoutSeconds = 10
        /// Seconds a request's body has to arrive in full, counted from its headers.
        public var requestBodyTimeoutSeconds = 30
        /// The most connections open at once; further clients wait in the listen queue. At start it is lowered to
        /// what the process's file-descriptor limit leaves room for (see ``ConnectionLimits``).
        public var maxConnections = 10_000
        /// The most handoff status streams (`…/events`) open at once in a process; a stream past it, or past one of
        /// the two limits below, is refused with 429 `RATE_LIMITED`, and its client polls `…/status` instead.
        public var maxEventStreams = 1000
        /// The most status streams one handoff (one poll token) holds open at once in a process: a page and its reload.
        public var maxEventStreamsPerHandoff = 2
        /// The most status streams one client address holds open at once in a process.
        public var maxEventStreamsPerClient = 20
        public init() {}
    }

    /// How long the database keeps what is over, and how the background purge deletes it (see ``StorePurge``).
    /// Flows, reservations, web sessions and limit windows go an hour after they end; users who never completed a
    /// sign-up, with their last flow.
    public struct Retention: Sendable, Codable, Equatable {
        /// Days the audit log (and identity-verification runs, which credentials name) are kept; 0 keeps them forever.
        public var auditDays = 365
        /// Seconds between purges; the first comes one interval after the server starts.
        public var purgeIntervalSeconds = 300
        /// Rows of each kind one store call deletes at most; a purge repeats a full batch up to ten times.
        public var purgeBatch = 1000
        public init() {}
    }

    /// The audit log's signed checkpoints (see ``AuditCheckpoints``): the key that signs them and how often.
    public struct Audit: Sendable, Codable, Equatable {
        /// Seconds between checkpoints; the first is signed at start.
        public var checkpointIntervalSeconds = 300
        /// The file holding the Ed25519 key that signs checkpoints, made (readable by its owner only) when missing.
        /// Keep it off the database's machine or disk where you can: whoever holds it and the database can rewrite
        /// the log. Without it a key is made for each run (`passkeys serve` keeps one beside a SQLite database);
        /// servers sharing a database should share the file.
        public var checkpointKeyFile: String?
        public init() {}
    }

    /// The web pages the server serves besides its API.
    public struct Web: Sendable, Codable, Equatable {
        /// The demo at `/` and the account page at `/account`: sign-up and sign-in in a browser, with the server
        /// acting as its own integrator.
        public var demo = true
        /// The operator console at `/console`; an operator signs in to it with a passkey (see `operators`) or, as a
        /// break-glass, with a backend API key.
        public var console = true
        /// The users (by user id) who may sign in to the console with their own passkeys: an operator signs up on the
        /// demo page (or is registered by the backend) and is named here. Only a passkey enrolled for the console
        /// opens it, with user verification: an operator already in the console, or a break-glass session, enrols it
        /// on the operator's user page. The console audits them as `user:<id>`.
        public var operators: [String] = []
        /// The key that signs the pages' session cookies (at least 32 characters). Without it a random key is made
        /// at start, so sessions end when the server restarts; servers sharing a database need the same key.
        public var sessionSecret: String?
        /// How long a signed-in session lasts, in seconds.
        public var sessionLifetime = 43_200
        /// Signed-in sessions a user keeps at most (of the demo and the console together): a new sign-in ends the
        /// user's oldest sessions beyond it.
        public var maxSessionsPerUser = 10
        public init() {}
    }

    /// Cross-device approval: a session started in one browser, approved on the phone that holds the passkey.
    public struct CrossDevice: Sendable, Codable, Equatable {
        /// The link a handoff's QR code and deep link open, followed by `#` and the handoff token: a page or a
        /// universal/app link of yours. Without it, the server's own approval page, `<first web origin>/approve`.
        public var linkBase: String?
        /// Wrong verification codes after which a handoff is rejected.
        public var codeAttempts = 3
        public init() {}
    }

    /// A working local instance: rpId `localhost`, origin `http://localhost:<port>`, SQLite in the current folder.
    public init(port: Int = 8080) {
        rpId = "localhost"
        rpName = "swift-passkeys (development)"
        webOrigins = ["http://localhost:\(port)"]
        relatedOrigins = []
        appleApps = []
        androidApps = []
        host = "127.0.0.1"
        self.port = port
        database = .sqlite(SQLiteDatabase(path: "passkeys.sqlite"))
        apiKeys = []
        policy = Policy()
        expiries = Expiries()
        limits = Limits()
        retention = Retention()
        audit = Audit()
        web = Web()
        identityVerification = IdentityVerification()
        crossDevice = CrossDevice()
        recovery = Recovery()
        webhooks = Webhooks()
        sessions = Sessions()
    }
}

extension ServerConfiguration {
    /// Decodes a configuration file in `format` (at most ``ConfigurationFileFormat/maximumFileBytes``). Members left
    /// out take their defaults; unknown members are refused, so a misspelt setting cannot be silently ignored.
    public init(data: Data, format: ConfigurationFileFormat) throws(ConfigurationError) {
        let fileObject = try format.tree(from: data)
        let port = fileObject["port"] as? Int ?? 8080
        let defaults = ServerConfiguration(port: port)
        // The defaults are our own value: their JSON is an object unless the configuration type itself is broken.
        guard
            let defaultObject = try? JSONSerialization.jsonObject(with: JSONEncoder().encode(defaults))
                as? [String: Any]
        else {
            throw ConfigurationError(field: "(defaults)", "cannot be encoded; this is a bug in the server, report it")
        }
        try Self.checkKnown(fileObject, against: defaultObject, path: "")
        let merged = Self.merge(defaultObject, fileObject)
        do {
            self = try JSONDecoder().decode(
                ServerConfiguration.self,
                from: JSONSerialization.data(withJSONObject: merged)
            )
        } catch let error as ConfigurationError {
            throw error
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw ConfigurationError(field: context.codingPath.dottedPath, "has the wrong type")
        } catch let DecodingError.keyNotFound(key, context) {
            throw ConfigurationError(field: (context.codingPath + [key]).dottedPath, "is required")
        } catch let DecodingError.dataCorrupted(context) {
            throw ConfigurationError(field: context.codingPath.dottedPath, "is not valid: \(context.debugDescription)")
        } catch {
            throw ConfigurationError(field: "(file)", "cannot be read: \(error)")
        }
    }

    /// Decodes a JSON configuration file: ``init(data:format:)`` with ``ConfigurationFileFormat/json``.
    public init(jsonData data: Data) throws(ConfigurationError) {
        try self.init(data: data, format: .json)
    }

    /// Members that may appear although the defaults leave them out, and the members of those that are objects.
    private static let optionalMembers: Set<String> = [
        "policy.authenticatorAttachment", "web.sessionSecret", "policy.metadata", "audit.checkpointKeyFile",
        "identityVerification.autoDecision", "identityVerification.webhook", "crossDevice.linkBase",
        "sessions.issuer", "sessions.audience",
    ]
    private static let optionalObjectMembers: [String: Set<String>] = [
        "policy.metadata": ["blob", "rootCertificates", "requireEntry", "allowStale"],
        "identityVerification.webhook": ["url", "secret"],
    ]
    /// Maps whose keys are data (attestation formats), not settings.
    private static let openMaps: Set<String> = ["policy.trustAnchors"]
    /// The members of the objects in list settings (the defaults' lists are empty, so they cannot show them).
    private static let elementMembers: [String: Set<String>] = [
        "appleApps": ["teamId", "bundleId", "appLinkPaths"], "androidApps": ["packageName", "sha256CertFingerprints"],
        "apiKeys": ["name", "key", "sha256", "scopes"],
        "webhooks.endpoints": ["name", "url", "secret", "previousSecret", "events"],
    ]

    private static func checkKnown(
        _ object: [String: Any],
        against defaults: [String: Any],
        path: String
    ) throws(ConfigurationError) {
        for (key, value) in object {
            let field = path.isEmpty ? key : "\(path).\(key)"
            guard let known = defaults[key] else {
                if optionalMembers.contains(field) {
                    if let members = optionalObjectMembers[field], let object = value as? [String: Any] {
                        try refuseUnknown(object, known: members, path: field)
                    }
                    continue
                }
                throw ConfigurationError(
                    field: field,
                    "is not a known setting (known here: \(defaults.keys.sorted().joined(separator: ", ")))"
                )
            }
            if let nested = value as? [String: Any], let knownNested = known as? [String: Any],
                !openMaps.contains(field)
            {
                try checkKnown(nested, against: knownNested, path: field)
            }
            if let elements = value as? [Any], let members = elementMembers[field] {
                for case (let index, let element as [String: Any]) in elements.enumerated() {
                    try refuseUnknown(element, known: members, path: "\(field)[\(index)]")
                }
            }
        }
    }

    /// Refuses the first member of `object` (in name order) that is not in `known`.
    private static func refuseUnknown(
        _ object: [String: Any],
        known: Set<String>,
        path: String
    ) throws(ConfigurationError) {
        guard let unknown = object.keys.sorted().first(where: { !known.contains($0) }) else { return }
        throw ConfigurationError(
            field: "\(path).\(unknown)",
            "is not a known setting (known here: \(known.sorted().joined(separator: ", ")))"
        )
    }

    private static func merge(_ base: [String: Any], _ override: [String: Any]) -> [String: Any] {
        var result = base
        for (key, value) in override {
            if let nested = value as? [String: Any], let baseNested = base[key] as? [String: Any] {
                result[key] = merge(baseNested, nested)
            } else {
                result[key] = value
            }
        }
        return result
    }
}

extension [any CodingKey] {
    var dottedPath: String {
        let path = map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return path.hasPrefix(".") ? String(path.dropFirst()) : path
    }
}
