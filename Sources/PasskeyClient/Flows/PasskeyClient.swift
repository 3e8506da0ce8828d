import Foundation
public import Logging
import WebAuthn

/// The SDK's client: enrollment and sign-in against the passkey server's client API, with an ``Authenticator``
/// that holds the passkeys, and the local passkey list.
///
/// ```swift
/// let client = PasskeyClient(configuration: configuration, authenticator: authenticator)
/// let attempt = try await myBackend.startPasskeyEnrollment()          // your server calls POST /v1/registrations
/// try await client.enroll(EnrollmentInput(registrationAttemptId: attempt.id, clientToken: attempt.clientToken, userId: userId))
/// ```
public struct PasskeyClient: PasskeyClientProtocol {
    public let configuration: PasskeyClientConfiguration
    public let authenticator: any Authenticator
    public let api: PasskeyClientAPI
    /// Runs the identity verification vendor's capture when an enrollment or a step-up requires it.
    public let identityVerifier: (any IdentityVerifier)?
    /// How long the SDK waits, after the ``identityVerifier`` returned, for the server to learn the decision
    /// (while it answers `WORKFLOW_NOT_COMPLETED`) before failing with that code.
    public let identityVerificationWait: Duration
    /// Where the SDK's steps are logged when ``PasskeyClientConfiguration/debugLogging`` is on (at `debug`; never a
    /// secret). With the switch off, nothing is logged.
    public let logger: Logger
    let webAuthn: WebAuthnClient

    public init(
        configuration: PasskeyClientConfiguration,
        authenticator: any Authenticator,
        transport: any HTTPTransport = URLSessionTransport(),
        ceremonyTimeoutRange: ClosedRange<Duration> = .seconds(10) ... .seconds(600),
        identityVerifier: (any IdentityVerifier)? = nil,
        identityVerificationWait: Duration = .seconds(60),
        logger: Logger = Logger(label: "swift-passkeys.client")
    ) {
        var logger = logger
        if configuration.debugLogging { logger.logLevel = min(logger.logLevel, .debug) }
        self.logger = logger
        self.configuration = configuration
        self.authenticator = authenticator
        self.identityVerifier = identityVerifier
        self.identityVerificationWait = identityVerificationWait
        self.api = PasskeyClientAPI(
            serverBaseURL: configuration.serverBaseURL,
            timeout: configuration.requestTimeout,
            transport: transport
        )
        self.webAuthn = WebAuthnClient(
            authenticator: authenticator,
            origin: configuration.origin,
            timeoutRange: ceremonyTimeoutRange
        )
    }

    public func enroll(_ input: EnrollmentInput) async throws(PasskeyError) -> EnrollmentResult {
        try await traced("enroll", ["registrationAttemptId": "\(input.registrationAttemptId)"]) {
            () async throws(PasskeyError) in try await enrollSteps(input)
        }
    }

    private func enrollSteps(_ input: EnrollmentInput) async throws(PasskeyError) -> EnrollmentResult {
        try Self.validateFlowID(input.registrationAttemptId, field: "registrationAttemptId")
        try Self.validateToken(input.clientToken)
        if let userId = input.userId { try Self.validateUserID(userId) }
        let options: PublicKeyCredentialCreationOptionsJSON
        if let verification = input.identityVerification {
            let verifier = try requireIdentityVerifier(for: "EnrollmentInput.identityVerification")
            try Self.validateFlowID(verification.workflowRunId, field: "identityVerification.workflowRunId")
            try Self.validateToken(verification.idvToken, field: "identityVerification.idvToken")
            trace("enroll: identity verification", ["workflowRunId": "\(verification.workflowRunId)"])
            try await verifier.verify(
                IdentityVerificationRequest(
                    workflowRunId: verification.workflowRunId,
                    idvToken: verification.idvToken,
                    purpose: .enrollment,
                    expiresAt: verification.expiresAt
                )
            )
            options = try await awaitingApproval { () async throws(PasskeyError) in
                try await api.registrationOptions(
                    registrationAttemptId: input.registrationAttemptId,
                    clientToken: input.clientToken
                )
            }
        } else {
            options = try await api.registrationOptions(
                registrationAttemptId: input.registrationAttemptId,
                clientToken: input.clientToken
            )
        }
        try checkRelyingParty(options.rp.id)
        trace(
            "enroll: creation options received",
            [
                "rpId": "\(options.rp.id ?? "")", "excludeCredentials": "\(options.excludeCredentials?.count ?? 0)",
                "userVerification": "\(options.authenticatorSelection?.userVerification?.rawValue ?? "default")",
            ]
        )
        let response: RegistrationResponseJSON
        do {
            response = try await webAuthn.create(options, userId: input.userId)
        } catch  where error.code == .passkeyAlreadyExists && input.treatExistingPasskeyAsSuccess {
            let excluded = Set((options.excludeCredentials ?? []).map(\.id.base64URL))
            let local = try await listCredentials().first { excluded.contains($0.credentialId) }
            return EnrollmentResult(
                status: .alreadyEnrolled,
                credentialId: local?.credentialId ?? "",
                registered: nil,
                credential: local
            )
        }
        trace("enroll: passkey created; completing the registration", ["credentialId": "\(response.id)"])
        let registered: RegisteredCredential
        do {
            registered = try await api.completeRegistration(
                registrationAttemptId: input.registrationAttemptId,
                clientToken: input.clientToken,
                credential: response,
                name: input.credentialName
            )
        } catch {
            // The server refused the passkey: the key just made would only stand in the way of the next enrolment
            // (shouldPromptToCreatePasskey false, sign-in PASSKEY_NOT_FOUND). When the answer was lost on the way
            // the server may hold it, so the key stays.
            if ![.networkError, .timeout, .serverError].contains(error.code) {
                trace("enroll: the server refused the passkey; deleting it here", ["code": "\(error.code)"])
                _ = try? await deleteCredential(id: response.id)
            }
            throw error
        }
        let local = try? await getCredential(id: response.id)
        return EnrollmentResult(status: .enrolled, credentialId: response.id, registered: registered, credential: local)
    }

    public func authenticate(_ input: AuthenticationInput) async throws(PasskeyError) -> AuthenticationResult {
        try await traced("sign-in", ["sessionId": "\(input.sessionId)", "mode": "\(input.mode.logName)"]) {
            () async throws(PasskeyError) in try await authenticateSteps(input)
        }
    }

    private func authenticateSteps(_ input: AuthenticationInput) async throws(PasskeyError) -> AuthenticationResult {
        var stepUp: AuthenticationInput.StepUp?
        switch input.mode {
        case .standard: break
        case .stepUp(let details): stepUp = details
        case .crossPlatform(let crossPlatform): return try await approveCrossPlatform(input, crossPlatform)
        }
        try Self.validateFlowID(input.sessionId, field: "sessionId")
        try Self.validateToken(input.clientToken)
        let narrowed = try input.allowCredentials.map { ids throws(PasskeyError) -> Set<[UInt8]> in
            guard !ids.isEmpty else {
                // An empty list allows nothing: no sign-in could ever succeed with it, a mistake in the app's set-up.
                throw PasskeyError(
                    .invalidConfiguration,
                    "AuthenticationInput.allowCredentials is empty: leave it nil to use the server's list (or sign in without a user name)."
                )
            }
            var set = Set<[UInt8]>()
            for id in ids { set.insert(try CredentialID.decode(id)) }
            return set
        }
        let request = try await authenticationRequest(input, stepUp: stepUp)
        return try await sign(request, session: input, narrowed: narrowed)
    }

    /// Checks the options, has the user confirm a bound transaction, signs and completes the sign-in.
    func sign(
        _ request: AuthenticationRequest,
        session input: AuthenticationInput,
        narrowed: Set<[UInt8]>? = nil,
        crossPlatformSessionId: String? = nil
    ) async throws(PasskeyError) -> AuthenticationResult {
        try checkRelyingParty(request.publicKey.rpId)
        let options = try Self.apply(input, narrowed: narrowed, to: request.publicKey)
        trace(
            "sign-in: request options received",
            [
                "rpId": "\(options.rpId ?? "")", "allowCredentials": "\(options.allowCredentials?.count ?? 0)",
                "userVerification": "\(options.userVerification?.rawValue ?? "default")",
                "transaction": "\(request.transaction != nil)",
            ]
        )
        if let transaction = request.transaction {
            var stepUp: AuthenticationInput.StepUp?
            if case .stepUp(let details) = input.mode { stepUp = details }
            try await confirm(transaction, challenge: options.challenge.bytes, stepUp: stepUp)
        }
        let response = try await webAuthn.get(options)
        trace("sign-in: assertion signed; completing the sign-in", ["credentialId": "\(response.id)"])
        let completion = try await api.completeAuthentication(
            sessionId: input.sessionId,
            clientToken: input.clientToken,
            credential: response
        )
        return AuthenticationResult(
            sessionId: input.sessionId,
            resultToken: completion.resultToken,
            expiresAt: completion.expiresAt,
            credentialId: response.id,
            userHandle: response.response.userHandle?.base64URL,
            transaction: request.transaction,
            crossPlatformSessionId: crossPlatformSessionId
        )
    }

    public func create(requestJSON: String) async throws(PasskeyError) -> String {
        let options = try OptionsJSON.decode(PublicKeyCredentialCreationOptionsJSON.self, from: requestJSON)
        try checkRelyingParty(options.rp.id)
        return String(decoding: WebAuthnJSON.encode(try await webAuthn.create(options)), as: UTF8.self)
    }

    public func authenticate(requestJSON: String) async throws(PasskeyError) -> String {
        let options = try OptionsJSON.decode(PublicKeyCredentialRequestOptionsJSON.self, from: requestJSON)
        try checkRelyingParty(options.rpId)
        return String(decoding: WebAuthnJSON.encode(try await webAuthn.get(options)), as: UTF8.self)
    }
}

extension PasskeyClient {
    /// The server's RP ID must be the configured domain (or a parent of it).
    func checkRelyingParty(_ rpID: String?) throws(PasskeyError) {
        guard let rpID else { return }
        let domain = configuration.rpDomain
        guard rpID == domain || (domain.hasSuffix("." + rpID) && rpID.contains(".")) else {
            throw PasskeyError(
                .relyingPartyMismatch,
                "The server's RP ID is '\(rpID)', but this client is configured for '\(domain)'; make rpDomain the server's rpId."
            )
        }
    }

    /// The input's narrowing of `allowCredentials`, its user verification and hints, applied to the server's options.
    static func apply(
        _ input: AuthenticationInput,
        narrowed: Set<[UInt8]>?,
        to options: PublicKeyCredentialRequestOptionsJSON
    ) throws(PasskeyError) -> PublicKeyCredentialRequestOptionsJSON {
        var options = options
        if let narrowed {
            let serverList = options.allowCredentials ?? []
            if serverList.isEmpty {
                options.allowCredentials = narrowed.map { PublicKeyCredentialDescriptorJSON(id: Base64URLBytes($0)) }
                    .sorted { $0.id.base64URL < $1.id.base64URL }
            } else {
                let kept = serverList.filter { narrowed.contains($0.id.bytes) }
                guard !kept.isEmpty else {
                    throw PasskeyError(
                        .passkeyNotFound,
                        "None of the passkeys in allowCredentials is one the server allows for this session."
                    )
                }
                options.allowCredentials = kept
            }
        }
        if let requested = input.userVerification,
            requested.strength > (options.userVerification ?? .preferred).strength
        {
            options.userVerification = requested
        }
        if !input.hints.isEmpty {
            var hints = options.hints ?? []
            for hint in input.hints where !hints.contains(hint) { hints.append(hint) }
            options.hints = hints
        }
        return options
    }

    /// Flow ids are the server's: 1–256 URL-safe characters.
    static func validateFlowID(_ id: String, field: String) throws(PasskeyError) {
        guard (1...256).contains(id.utf8.count),
            id.utf8.allSatisfy({ $0.isASCIILetterOrDigit || [0x2D, 0x2E, 0x5F, 0x7E].contains($0) })
        else {
            throw PasskeyError(
                .invalidInput,
                "\(field) must be the id your backend received from the server (1–256 URL-safe characters)."
            )
        }
    }

    static func validateToken(_ token: String, field: String = "clientToken") throws(PasskeyError) {
        guard (1...4096).contains(token.utf8.count), token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw PasskeyError(
                .invalidInput,
                "\(field) must be the token your backend received from the server (printable ASCII, no spaces)."
            )
        }
    }

    /// The integrator's user id: 1–128 URL-safe characters (DESIGN §3).
    static func validateUserID(_ id: String) throws(PasskeyError) {
        guard (1...128).contains(id.utf8.count),
            id.utf8.allSatisfy({ $0.isASCIILetterOrDigit || [0x2D, 0x2E, 0x5F, 0x7E].contains($0) })
        else {
            throw PasskeyError(
                .invalidInput,
                "userId must be 1 to 128 URL-safe characters (A–Z, a–z, 0–9, '-', '.', '_', '~')."
            )
        }
    }
}

extension UserVerificationRequirement {
    /// discouraged < preferred (and unknown values) < required.
    var strength: Int {
        switch self {
        case .required: 2
        case .discouraged: 0
        default: 1
        }
    }
}
