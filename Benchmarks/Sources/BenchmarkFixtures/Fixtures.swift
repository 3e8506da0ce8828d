import Crypto
import CryptoExtras
public import Foundation
import PasskeyTesting
public import WebAuthn

/// The fixtures of one credential algorithm: responses as JSON text, the ceremonies that accept them, and the
/// raw signature check that the authentication response carries (the ceiling for authentication verification).
///
/// Everything is built once, outside any measured loop. The authentication response reports a signature
/// counter of 0 and the record stores 0, so verifying it can be repeated without a counter regression.
public struct AlgorithmFixtures: Sendable {
    public let algorithm: COSEAlgorithmIdentifier
    /// The JSON text of `create()` responses with `none`, `packed` self and `packed` x5c attestation.
    public let registrationNone: [UInt8]
    public let registrationPackedSelf: [UInt8]
    public let registrationPackedCertificate: [UInt8]
    public let registrationCeremony: RegistrationCeremony
    /// The JSON text of a `get()` response.
    public let authentication: [UInt8]
    public let authenticationCeremony: AuthenticationCeremony
    public let record: CredentialRecord
    /// The same signature over the same data, checked with swift-crypto alone.
    public let rawSignature: RawSignature

    public static let relyingPartyID = "example.com"
    public static let origin = "https://example.com"
    /// A time inside the validity of the test certificate authority's certificates.
    public static let verificationTime = Date(timeIntervalSince1970: 1_767_225_600)

    public init(_ algorithm: COSEAlgorithmIdentifier) throws {
        self.algorithm = algorithm
        let rpID = Self.relyingPartyID
        let origin = Self.origin
        var authenticator = TestAuthenticator(algorithm: algorithm)
        let authority = try TestCertificateAuthority()

        let registrationChallenge = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
        func registration(_ attestation: TestAuthenticator.Attestation) throws -> [UInt8] {
            let response = try authenticator.registrationResponse(
                challenge: registrationChallenge,
                origin: origin,
                rpID: rpID,
                attestation: attestation
            )
            return WebAuthnJSON.encode(response)
        }
        registrationNone = try registration(.none)
        registrationPackedSelf = try registration(.packedSelf)
        registrationPackedCertificate = try registration(.packedCertificate(authority))
        registrationCeremony = RegistrationCeremony(
            challenge: registrationChallenge,
            relyingPartyID: rpID,
            origins: OriginPolicy(origin)
        )

        let authenticationChallenge = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
        let assertion = authenticator.authenticationResponse(
            challenge: authenticationChallenge,
            origin: origin,
            rpID: rpID,
            incrementCounter: false
        )
        authentication = WebAuthnJSON.encode(assertion)
        authenticationCeremony = AuthenticationCeremony(
            challenge: authenticationChallenge,
            relyingPartyID: rpID,
            origins: OriginPolicy(origin),
            user: .discoverable
        )
        record = authenticator.record

        let signedData =
            assertion.response.authenticatorData.bytes
            + Array(SHA256.hash(data: assertion.response.clientDataJSON.bytes))
        rawSignature = RawSignature(
            key: authenticator.key,
            signature: assertion.response.signature.bytes,
            data: signedData
        )
    }

    /// Checks once that every fixture verifies, so that no benchmark measures a failure path.
    public func check() async throws {
        for json in [registrationNone, registrationPackedSelf, registrationPackedCertificate] {
            _ = try await registrationCeremony.verify(
                RegistrationResponseJSON(jsonBytes: json),
                at: Self.verificationTime
            )
        }
        _ = try verifyAuthentication()
        guard rawSignature.verify() else { throw FixtureError.rawSignatureInvalid(algorithm) }
    }

    /// Full authentication verification from the JSON text.
    public func verifyAuthentication() throws -> VerifiedAuthentication {
        try authenticationCeremony.verify(AuthenticationResponseJSON(jsonBytes: authentication), credential: record)
    }

    /// Full registration verification from the JSON text.
    public func verifyRegistration(_ json: [UInt8]) async throws -> VerifiedRegistration {
        try await registrationCeremony.verify(RegistrationResponseJSON(jsonBytes: json), at: Self.verificationTime)
    }
}

public enum FixtureError: Error {
    case rawSignatureInvalid(COSEAlgorithmIdentifier)
}

/// A signature check with swift-crypto only: the public key is built once; each check parses the signature
/// (DER for ECDSA) and verifies it over `authenticatorData || SHA-256(clientDataJSON)`.
public struct RawSignature: Sendable {
    enum Key: Sendable {
        case p256(P256.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey)
    }

    let key: Key
    public let signature: [UInt8]
    public let data: [UInt8]

    init(key: TestSigningKey, signature: [UInt8], data: [UInt8]) {
        switch key {
        case .p256(let privateKey): self.key = .p256(privateKey.publicKey)
        case .ed25519(let privateKey): self.key = .ed25519(privateKey.publicKey)
        case .rsa(let privateKey, _): self.key = .rsa(privateKey.publicKey)
        default: preconditionFailure("The benchmarks use ES256, EdDSA and RS256 only.")
        }
        self.signature = signature
        self.data = data
    }

    public func verify() -> Bool {
        switch key {
        case .p256(let publicKey):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return publicKey.isValidSignature(parsed, for: data)
        case .ed25519(let publicKey):
            return publicKey.isValidSignature(signature, for: data)
        case .rsa(let publicKey):
            return publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature),
                for: data,
                padding: .insecurePKCS1v1_5
            )
        }
    }
}
