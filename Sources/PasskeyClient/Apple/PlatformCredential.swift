public import WebAuthn

/// A credential AuthenticationServices returned, as the bytes the adapter read from it on the main actor, and
/// the Level 3 responses made from it. Platform-neutral, so the responses are tested on Linux.
public struct PlatformCredential: Sendable, Hashable {
    public var id: [UInt8]
    public var clientDataJSON: [UInt8]
    /// A registration's attestation object (the system may leave it out; then there is no response).
    public var attestationObject: [UInt8]?
    /// An assertion's authenticator data, signature and user handle.
    public var authenticatorData: [UInt8]?
    public var signature: [UInt8]?
    public var userHandle: [UInt8]?
    public var source: PlatformCredentialSource

    public init(
        id: [UInt8],
        clientDataJSON: [UInt8],
        attestationObject: [UInt8]? = nil,
        authenticatorData: [UInt8]? = nil,
        signature: [UInt8]? = nil,
        userHandle: [UInt8]? = nil,
        source: PlatformCredentialSource
    ) {
        self.id = id
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
        self.source = source
    }

    /// The registration response; `HARDWARE_NOT_AVAILABLE` when the system gave no attestation object.
    public func registrationResponse() throws(PasskeyError) -> RegistrationResponseJSON {
        guard let attestationObject else {
            throw PasskeyError(
                .hardwareNotAvailable,
                "The system returned a passkey without an attestation object; it cannot be registered."
            )
        }
        return RegistrationResponseJSON(
            id: Base64URL.encode(id),
            rawId: Base64URLBytes(id),
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: Base64URLBytes(clientDataJSON),
                attestationObject: Base64URLBytes(attestationObject),
                transports: source.registrationTransports
            ),
            authenticatorAttachment: source.attachment
        )
    }

    /// The authentication response; `HARDWARE_NOT_AVAILABLE` when the system gave no assertion.
    public func authenticationResponse() throws(PasskeyError) -> AuthenticationResponseJSON {
        guard let authenticatorData, let signature else {
            throw PasskeyError(
                .hardwareNotAvailable,
                "The system returned a credential without an assertion (authenticator data and signature)."
            )
        }
        return AuthenticationResponseJSON(
            id: Base64URL.encode(id),
            rawId: Base64URLBytes(id),
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: Base64URLBytes(clientDataJSON),
                authenticatorData: Base64URLBytes(authenticatorData),
                signature: Base64URLBytes(signature),
                userHandle: userHandle.flatMap { $0.isEmpty ? nil : Base64URLBytes($0) }
            ),
            authenticatorAttachment: source.attachment
        )
    }
}
