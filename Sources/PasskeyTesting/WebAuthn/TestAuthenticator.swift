import Crypto
import PasskeyClient
public import WebAuthn
import X509

/// A software authenticator for tests and benchmarks: it makes WebAuthn registration and authentication
/// responses in the Level 3 JSON shapes, with the attestation, flags and counter a test asks for.
public struct TestAuthenticator: Sendable {
    /// How the registration response is attested.
    public enum Attestation: Sendable {
        case none
        /// `packed` self attestation, signed with the credential key.
        case packedSelf
        /// `packed` with an attestation certificate issued by `authority` (an ES256 attestation key).
        case packedCertificate(TestCertificateAuthority)
        /// `fido-u2f` with an attestation certificate issued by `authority` (needs an ES256 credential).
        case fidoU2F(TestCertificateAuthority)
    }

    public let credentialID: [UInt8]
    public let key: TestSigningKey
    public var aaguid: [UInt8]
    public var signCount: UInt32
    public var userHandle: [UInt8]

    public init(
        algorithm: COSEAlgorithmIdentifier = .es256,
        credentialID: [UInt8]? = nil,
        userHandle: [UInt8] = Array("user-1".utf8)
    ) {
        self.key = TestSigningKey.generate(algorithm)
        self.credentialID = credentialID ?? (0..<32).map { _ in UInt8.random(in: 0...255) }
        self.aaguid = [UInt8](repeating: 0xAA, count: 16)
        self.signCount = 0
        self.userHandle = userHandle
    }

    /// The record a relying party stores after registering this credential.
    public var record: CredentialRecord {
        // The key was made by this type, so its COSE form always decodes.
        CredentialRecord(
            id: credentialID,
            publicKey: try! COSEKey(cborRepresentation: key.coseKey),
            signCount: signCount,
            userHandle: userHandle
        )
    }

    /// A `create()` response. `modify` can alter the authenticator data or client data before signing.
    public func registrationResponse(
        challenge: [UInt8],
        origin: String,
        rpID: String,
        attestation: Attestation = .none,
        flags: AuthenticatorDataFlags = [.userPresent, .userVerified],
        modify: (inout AuthenticatorDataBuilder, inout ClientDataBuilder) -> Void = { _, _ in }
    ) throws -> RegistrationResponseJSON {
        var authenticatorData = AuthenticatorDataBuilder(rpID: rpID, flags: flags, signCount: signCount)
        authenticatorData.aaguid = aaguid
        authenticatorData.credentialID = credentialID
        authenticatorData.credentialPublicKey = key.coseKey
        var clientData = ClientDataBuilder(type: "webauthn.create", challenge: challenge, origin: origin)
        modify(&authenticatorData, &clientData)
        let authData = authenticatorData.build()
        let clientDataJSON = clientData.build()
        let clientDataHash = Array(SHA256.hash(data: clientDataJSON))

        let format: String
        var statement: [CBORMapEntry] = []
        switch attestation {
        case .none:
            format = "none"
        case .packedSelf:
            format = "packed"
            statement = AttestationObjectEncoding.packedSelfStatement(
                algorithm: key.algorithm,
                signature: key.sign(authData + clientDataHash)
            )
        case .packedCertificate(let authority):
            format = "packed"
            let attestationKey = P256.Signing.PrivateKey()
            let certificate = try authority.issue(for: .init(attestationKey.publicKey))
            statement = [
                .init(.text("alg"), CBORValue(COSEAlgorithmIdentifier.es256.rawValue)),
                .init(.text("sig"), .bytes(TestSigningKey.p256(attestationKey).sign(authData + clientDataHash))),
                .init(.text("x5c"), .array([.bytes(certificate.derBytes)])),
            ]
        case .fidoU2F(let authority):
            format = "fido-u2f"
            let attestationKey = P256.Signing.PrivateKey()
            let certificate = try authority.issue(for: .init(attestationKey.publicKey))
            let point: [UInt8]
            if case .p256(let credentialKey) = key {
                point = Array(credentialKey.publicKey.x963Representation)
            } else {
                point = []
            }
            let signed = [0x00] + authenticatorData.rpIDHash + clientDataHash + credentialID + point
            statement = [
                .init(.text("sig"), .bytes(TestSigningKey.p256(attestationKey).sign(signed))),
                .init(.text("x5c"), .array([.bytes(certificate.derBytes)])),
            ]
        }
        let attestationObject = AttestationObjectEncoding.encode(
            format: format,
            statement: statement,
            authenticatorData: authData
        )
        return RegistrationResponseJSON(
            id: Base64URL.encode(credentialID),
            rawId: Base64URLBytes(credentialID),
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: Base64URLBytes(clientDataJSON),
                attestationObject: Base64URLBytes(attestationObject),
                transports: [.internal]
            ),
            authenticatorAttachment: .platform
        )
    }

    /// A `get()` response. The counter increments first, as most security keys do (leave `signCount` at 0
    /// and pass `incrementCounter: false` to mimic platforms that always report 0).
    public mutating func authenticationResponse(
        challenge: [UInt8],
        origin: String,
        rpID: String,
        flags: AuthenticatorDataFlags = [.userPresent, .userVerified],
        incrementCounter: Bool = true,
        includeUserHandle: Bool = true,
        modify: (inout AuthenticatorDataBuilder, inout ClientDataBuilder) -> Void = { _, _ in }
    ) -> AuthenticationResponseJSON {
        if incrementCounter { signCount += 1 }
        var authenticatorData = AuthenticatorDataBuilder(rpID: rpID, flags: flags, signCount: signCount)
        var clientData = ClientDataBuilder(type: "webauthn.get", challenge: challenge, origin: origin)
        modify(&authenticatorData, &clientData)
        let authData = authenticatorData.build()
        let clientDataJSON = clientData.build()
        let signature = key.sign(authData + Array(SHA256.hash(data: clientDataJSON)))
        return AuthenticationResponseJSON(
            id: Base64URL.encode(credentialID),
            rawId: Base64URLBytes(credentialID),
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: Base64URLBytes(clientDataJSON),
                authenticatorData: Base64URLBytes(authData),
                signature: Base64URLBytes(signature),
                userHandle: includeUserHandle ? Base64URLBytes(userHandle) : nil
            ),
            authenticatorAttachment: .platform
        )
    }
}
