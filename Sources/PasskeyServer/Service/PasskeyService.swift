public import Foundation
public import Logging
public import PasskeyStorage
public import WebAuthn
import X509

/// The relying-party service: the flows of DESIGN §3 on top of a ``PasskeyStore``, independent of HTTP. Each flow is
/// a type holding the shared ``FlowContext``; the service builds them once and keeps them. ``PasskeyApplication``
/// exposes them over HTTP (the route table and the pages); tests may call them directly.
public struct PasskeyService: Sendable {
    public let configuration: ServerConfiguration
    /// What the flows share: the store, the clock, the log, the metrics and the verification policy.
    let context: FlowContext
    /// Resolves a client's token to what it may drive, before any client route's handler runs.
    let authorization: ClientAuthorization
    /// Every backend POST passes here: idempotent with an `Idempotency-Key`.
    let idempotentRequests: IdempotentRequests

    let registration: RegistrationFlow
    let signIn: SignInFlow
    let handoff: HandoffFlow
    let recovery: RecoveryFlow
    let identityVerification: IdentityVerificationFlow
    let accounts: AccountFlow
    let webSessions: WebSessionsFlow
    let webhooks: WebhooksFlow
    let sessions: SessionsFlow

    let apiKeys: APIKeys
    /// Signs the audit log's checkpoints (``AuditCheckpoints``).
    public let auditCheckpointKey: AuditCheckpointKey
    /// Origins whose pages may call the client API from a browser.
    let corsOrigins: Set<String>
    /// The client API's request rate per client address, counted in this process only.
    let clientRequestLimiter = RateLimiter()
    /// The proxies whose `X-Forwarded-For` entries are believed.
    let trustedProxies: TrustedProxies

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
        let context = FlowContext(
            configuration: configuration,
            store: store,
            now: now,
            logger: logger,
            metrics: ServerMetrics(),
            origins: OriginPolicy(allowedOrigins: Set(configuration.allowedOrigins)),
            attestationPolicy: try Self.attestationPolicy(configuration.policy, metadata: metadata),
            identityVerifier: configuration.identityVerification.makeProvider,
            webhooks: WebhookOutbox(endpoints: configuration.webhooks.endpoints)
        )
        self.context = context
        let authorization = ClientAuthorization(context: context)
        self.authorization = authorization
        self.idempotentRequests = IdempotentRequests(context: context)
        let identityVerification = IdentityVerificationFlow(context: context)
        let registration = RegistrationFlow(context: context, identityVerification: identityVerification)
        let handoff = HandoffFlow(
            context: context,
            identityVerification: identityVerification,
            eventStreams: EventStreamGate(),
            watch: HandoffWatch(context: context)
        )
        self.identityVerification = identityVerification
        self.registration = registration
        self.handoff = handoff
        let sessions = SessionsFlow(context: context)
        self.sessions = sessions
        self.signIn = SignInFlow(
            context: context,
            identityVerification: identityVerification,
            handoff: handoff,
            sessions: sessions
        )
        self.recovery = RecoveryFlow(
            context: context,
            identityVerification: identityVerification,
            registration: registration,
            authorization: authorization
        )
        self.accounts = AccountFlow(context: context)
        self.webSessions = WebSessionsFlow(context: context)
        self.webhooks = WebhooksFlow(context: context)
        self.apiKeys = APIKeys(configuration.apiKeys)
        self.auditCheckpointKey = try AuditCheckpointKey.load(for: configuration)
        self.corsOrigins = Set(configuration.webOrigins + configuration.relatedOrigins)
        self.trustedProxies = TrustedProxies(
            ranges: configuration.limits.trustedProxies.compactMap(IPAddressRange.init)
        )
        if let blob = metadata?.blob { Self.logUnusableEntries(of: blob, to: logger) }
    }

    var logger: Logger { context.logger }
    var metrics: ServerMetrics { context.metrics }
    func now() -> Date { context.now() }

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

    /// The configured backend API key `presented` is, if any (its name and scopes, never its secret's hash).
    public func apiKey(for presented: String) -> ServerConfiguration.APIKey? { apiKeys.key(for: presented) }
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
