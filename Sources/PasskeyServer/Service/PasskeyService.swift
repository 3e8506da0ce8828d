public import Foundation
public import Logging
public import PasskeyStorage
import SwiftASN1
import WebAuthn
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
    let metrics: ServerMetrics

    /// - Parameters:
    ///   - now: the clock (injected so tests can move time).
    public init(
        configuration: ServerConfiguration,
        store: any PasskeyStore,
        logger: Logger = Logger(label: "passkeys"),
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        self.store = store
        self.now = now
        self.logger = logger
        self.apiKeys = APIKeys(configuration.apiKeys)
        self.origins = OriginPolicy(allowedOrigins: Set(configuration.allowedOrigins))
        self.corsOrigins = Set(configuration.webOrigins + configuration.relatedOrigins)
        self.attestationPolicy = try Self.attestationPolicy(configuration.policy)
        self.metrics = ServerMetrics()
    }

    static func attestationPolicy(_ policy: ServerConfiguration.Policy) throws(ConfigurationError) -> AttestationPolicy
    {
        var anchors: [AttestationFormat: [Certificate]] = [:]
        for (format, paths) in policy.trustAnchors {
            for (index, path) in paths.enumerated() {
                let field = "policy.trustAnchors.\(format)[\(index)]"
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    throw ConfigurationError(field: field, "names a file that cannot be read: \(path)")
                }
                guard
                    let certificates = try? PEMDocument.parseMultiple(pemString: text).map({
                        try Certificate(pemDocument: $0)
                    }), !certificates.isEmpty
                else {
                    throw ConfigurationError(field: field, "is not a PEM certificate file: \(path)")
                }
                anchors[AttestationFormat(rawValue: format), default: []] += certificates
            }
        }
        return AttestationPolicy(
            allowedFormats: Set(policy.attestationFormats),
            trustAnchors: anchors,
            requireTrustedAttestation: policy.requireTrustedAttestation
        )
    }

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
