import WebAuthn

/// A passkey assertion request as a credential provider extension receives it (`ASPasskeyCredentialRequest`): the
/// system chose the passkey from the identities the app listed, and hashed the client data itself.
public struct ProviderAssertionRequest: Sendable, Hashable {
    public var rpID: String
    public var credentialID: [UInt8]
    /// The identity's user handle, when the system gives one: it must be the passkey's.
    public var userHandle: [UInt8]?
    /// SHA-256 of the client data the browser or app built: 32 bytes.
    public var clientDataHash: [UInt8]
    public var userVerification: UserVerificationRequirementValue

    public init(
        rpID: String,
        credentialID: [UInt8],
        userHandle: [UInt8]?,
        clientDataHash: [UInt8],
        userVerification: UserVerificationRequirementValue
    ) {
        self.rpID = rpID
        self.credentialID = credentialID
        self.userHandle = userHandle
        self.clientDataHash = clientDataHash
        self.userVerification = userVerification
    }
}

/// What the extension answers with (`ASPasskeyAssertionCredential`): the signature over the authenticator data and
/// the client data hash it was given.
public struct ProviderAssertion: Sendable, Hashable {
    public var rpID: String
    public var credentialID: [UInt8]
    public var userHandle: [UInt8]
    public var clientDataHash: [UInt8]
    public var authenticatorData: [UInt8]
    public var signature: [UInt8]
}

extension SoftwareAuthenticator {
    /// Answers a credential provider's assertion request (WebAuthn §6.3.3 with the client data already hashed):
    /// the passkey is the one the request names — its credential id, for its relying party, with its user handle —
    /// never another; the user is verified as the request asks; the authenticator data and signature are
    /// ``sign(_:rpID:clientDataHash:userVerification:)``'s, as for `getAssertion`.
    public func provideAssertion(
        _ request: ProviderAssertionRequest
    ) async throws(PasskeyError) -> ProviderAssertion {
        guard request.clientDataHash.count == 32 else {
            throw PasskeyError(
                .invalidInput,
                "The client data hash is \(request.clientDataHash.count) bytes; a SHA-256 hash is 32."
            )
        }
        let entries = try await keyStore.entries()
        guard
            let chosen = entries.first(where: {
                $0.rpId == request.rpID && $0.credentialId.bytes == request.credentialID
                    && (request.userHandle == nil || $0.userHandle.bytes == request.userHandle)
            })
        else {
            throw PasskeyError(
                .passkeyNotFound,
                "The passkey AutoFill chose is not on this device any more; sync the identities again (syncAll)."
            )
        }
        let signed = try await sign(
            chosen,
            rpID: request.rpID,
            clientDataHash: request.clientDataHash,
            userVerification: request.userVerification
        )
        return ProviderAssertion(
            rpID: request.rpID,
            credentialID: signed.entry.credentialId.bytes,
            userHandle: signed.entry.userHandle.bytes,
            clientDataHash: request.clientDataHash,
            authenticatorData: signed.authenticatorData,
            signature: signed.signature
        )
    }
}

/// How an extension refuses a request it cannot answer (`ASExtensionError.Code` on Apple platforms).
public enum ProviderRefusal: Sendable, Hashable {
    /// The user dismissed the prompt.
    case userCanceled
    /// The passkey named is not on this device.
    case credentialIdentityNotFound
    /// Anything else (no Secure Enclave, a locked key store, a malformed request).
    case failed

    public init(_ error: PasskeyError) {
        switch error.code {
        case .userCancelled: self = .userCanceled
        case .passkeyNotFound: self = .credentialIdentityNotFound
        default: self = .failed
        }
    }
}
