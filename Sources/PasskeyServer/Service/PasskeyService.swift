public import Foundation
public import Logging
public import PasskeyStorage
public import WebAuthn
import X509

/// The relying-party service: the flows of DESIGN §3 on top of a ``PasskeyStore``, independent of HTTP.
/// ``PasskeyApplication`` exposes it over HTTP; tests may call it directly.
public struct PasskeyService: Sendable {
    public let configuration: ServerConfiguration
    public let store: any PasskeyStore
    let now: @Sendable () -> Date
    let logger: Logger
    let apiKeys: APIKeys
    let origins: OriginPolicy
    /// Origins whose pages may call the client API from a browser.
    let corsOrigins: Set<String>
    let attestationPolicy: AttestationPolicy
    /// The client API's request rate per client address, counted in this process only.
    let clientRequestLimiter = RateLimiter()
    /// The handoff status streams open in this process (`limits.maxEventStreams`).
    let eventStreams = EventStreamGate()
    /// The proxies whose `X-Forwarded-For` entries are believed.
    let trustedProxies: TrustedProxies
    /// Where identity-verification runs are created (`identityVerification.provider`).
    let identityVerifier: any IdentityVerificationProvider
    let metrics: ServerMetrics

    /// - Parameters:
    ///   - now: the clock (injected so tests can move time).
    ///   - metadata: the FIDO metadata that `policy.metadata` names, from ``ServerConfiguration/loadMetadata(at:)``;
    ///     required exactly when the configuration names one. Its set-aside entries are logged here, at start.
    public init(
        configuration: ServerConfiguration,
        store: any PasskeyStore,
        logger: Logger = Logger(label: "passkeys"),
        now: @escaping @Sendable () -> Date = { Date() },
        metadata: MetadataPolicy? = nil
    ) throws(ConfigurationError) {
        try configuration.validate()
        switch (configuration.policy.metadata, metadata) {
        case (.some, nil):
            throw ConfigurationError(
                field: "policy.metadata",
                "names a metadata BLOB that was not loaded: pass `metadata: try await configuration.loadMetadata()`"
            )
        case (nil, .some):
            throw ConfigurationError(field: "policy.metadata", "is not set, but metadata was passed to the service")
        default:
            break
        }
        self.configuration = configuration
        self.store = store
        self.now = now
        self.logger = logger
        self.apiKeys = APIKeys(configuration.apiKeys)
        self.origins = OriginPolicy(allowedOrigins: Set(configuration.allowedOrigins))
        self.corsOrigins = Set(configuration.webOrigins + configuration.relatedOrigins)
        self.trustedProxies = TrustedProxies(
            ranges: configuration.limits.trustedProxies.compactMap(IPAddressRange.init)
        )
        self.attestationPolicy = try Self.attestationPolicy(configuration.policy, metadata: metadata)
        self.metrics = ServerMetrics()
        self.identityVerifier = configuration.identityVerification.makeProvider
        if let blob = metadata?.blob { Self.logUnusableEntries(of: blob, to: logger) }
    }

    static func attestationPolicy(
        _ policy: ServerConfiguration.Policy,
        metadata: MetadataPolicy?
    ) throws(ConfigurationError) -> AttestationPolicy {
        var anchors: [AttestationFormat: [Certificate]] = [:]
        for (format, paths) in policy.trustAnchors {
            for (index, path) in paths.enumerated() {
                anchors[AttestationFormat(rawValue: format), default: []] += try ServerConfiguration.pemCertificates(
                    at: path,
                    field: "policy.trustAnchors.\(format)[\(index)]"
                )
            }
        }
        return AttestationPolicy(
            allowedFormats: Set(policy.attestationFormats),
            trustAnchors: anchors,
            requireTrustedAttestation: policy.requireTrustedAttestation,
            metadata: metadata
        )
    }

    /// The FIDO metadata the service was started with, if any.
    var metadataBLOB: MetadataBLOB? { attestationPolicy.metadata?.blob }

    /// Whether `presented` is a configured backend API key; returns the key's name.
    public func apiKeyName(for presented: String) -> String? { apiKeys.name(for: presented) }
}

/// Who is acting, for the audit log and rate limits.
public struct Caller: Sendable {
    /// `api-key:<name>`, `client` or `operator:<name>`.
    public var actor: String
    public var requestID: String?
    public var clientIP: String?

    public init(actor: String, requestID: String? = nil, clientIP: String? = nil) {
        self.actor = actor
        self.requestID = requestID
        self.clientIP = clientIP
    }
}

extension PasskeyService {
    func audit(
        _ action: String,
        by caller: Caller,
        userID: String?,
        subject: String?,
        details: [String: String] = [:]
    ) async {
        do {
            try await store.appendAuditEvent(
                AuditEvent(
                    time: now(),
                    actor: caller.actor,
                    action: action,
                    userID: userID,
                    subject: subject,
                    requestID: caller.requestID,
                    details: details
                )
            )
        } catch {
            logger.error("audit event could not be stored", metadata: ["action": "\(action)", "error": "\(error)"])
        }
    }

    /// Runs a store operation, turning storage failures into API errors.
    func storage<T>(_ body: () async throws -> T) async throws(APIError) -> T {
        do {
            return try await body()
        } catch let error as APIError {
            throw error
        } catch {
            logger.error("storage failure", metadata: ["error": "\(error)"])
            throw (error as? StoreError)?.code == .unavailable ? .storageUnavailable : .unexpected
        }
    }

    func expiry(_ seconds: Int) -> Date { now().addingTimeInterval(TimeInterval(seconds)) }
}
