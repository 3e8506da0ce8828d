import Crypto
import CryptoExtras
import Foundation
import X509

@testable import WebAuthn

/// Builds synthetic SafetyNet statements: a JWS signed by a self-issued "attest.android.com" certificate.
struct AndroidSafetyNetFixture {
    typealias F = AndroidTestFixtures

    enum SigningKey {
        case es256(P256.Signing.PrivateKey)
        case rs256(_RSA.Signing.PrivateKey)
    }

    var signingKey = SigningKey.es256(P256.Signing.PrivateKey())
    /// The header's `alg`; defaults to the key's algorithm.
    var algorithm: String?
    var commonName = "attest.android.com"
    var dnsNames = ["attest.android.com"]
    /// The payload nonce; defaults to the correct one.
    var nonce: String?
    var timestamp = F.now
    /// Overrides `timestamp` with a raw `timestampMs`.
    var timestampMs: Int64?
    var ctsProfileMatch: Bool? = true
    var basicIntegrity: Bool? = true
    var extraHeader: [String: Any] = [:]
    var ver: CBORValue? = .text("250632000")
    var policy = AttestationPolicy()
    var time = F.now

    /// The statement and the compact JWS it carries.
    func build(mutateJWS: (String) -> String = { $0 }) throws -> (statement: AttestationStatement, jws: String) {
        let authenticatorData = try F.authenticatorData(credentialKey: P256.Signing.PrivateKey().publicKey)
        let expectedNonce = Data(SHA256.hash(data: authenticatorData.rawRepresentation + F.clientDataHash))
            .base64EncodedString()

        let certificatePublicKey: Certificate.PublicKey
        let issuerKey: Certificate.PrivateKey
        let signatureAlgorithm: Certificate.SignatureAlgorithm
        switch signingKey {
        case .es256(let key):
            (certificatePublicKey, issuerKey, signatureAlgorithm) = (
                Certificate.PublicKey(key.publicKey), Certificate.PrivateKey(key), .ecdsaWithSHA256
            )
        case .rs256(let key):
            (certificatePublicKey, issuerKey, signatureAlgorithm) = (
                Certificate.PublicKey(key.publicKey), Certificate.PrivateKey(key), .sha256WithRSAEncryption
            )
        }
        var extensions = [Certificate.Extension]()
        if !dnsNames.isEmpty {
            extensions.append(try SubjectAlternativeNames(dnsNames.map { .dnsName($0) }).makeCertificateExtension())
        }
        let certificate = try F.certificate(
            commonName: commonName,
            publicKey: certificatePublicKey,
            signedBy: issuerKey,
            signatureAlgorithm: signatureAlgorithm,
            extensions: extensions
        )

        var header: [String: Any] = [
            "alg": algorithm ?? { if case .rs256 = signingKey { "RS256" } else { "ES256" } }(),
            "x5c": [Data(try F.der(certificate)).base64EncodedString()],
        ]
        header.merge(extraHeader) { $1 }
        var payload: [String: Any] = [
            "nonce": nonce ?? expectedNonce,
            "timestampMs": timestampMs ?? Int64((timestamp.timeIntervalSince1970 * 1000).rounded()),
            "apkPackageName": "com.google.android.gms",
        ]
        if let ctsProfileMatch { payload["ctsProfileMatch"] = ctsProfileMatch }
        if let basicIntegrity { payload["basicIntegrity"] = basicIntegrity }

        let signingInput =
            Self.base64URL(try JSONSerialization.data(withJSONObject: header)) + "."
            + Self.base64URL(try JSONSerialization.data(withJSONObject: payload))
        let signature: [UInt8]
        switch signingKey {
        case .es256(let key):
            signature = Array(try key.signature(for: Array(signingInput.utf8)).rawRepresentation)
        case .rs256(let key):
            signature = Array(
                try key.signature(for: Array(signingInput.utf8), padding: .insecurePKCS1v1_5).rawRepresentation
            )
        }
        let jws = mutateJWS(signingInput + "." + Base64URL.encode(signature))

        var fields: [String: CBORValue] = ["response": .bytes(Array(jws.utf8))]
        if let ver { fields["ver"] = ver }
        let statement = F.statement(
            format: .androidSafetyNet,
            fields: fields,
            authenticatorData: authenticatorData,
            policy: policy,
            time: time
        )
        return (statement, jws)
    }

    static func base64URL(_ data: Data) -> String { Base64URL.encode(Array(data)) }

    /// The error verification throws, or nil when it succeeds.
    func verifyError(mutateJWS: (String) -> String = { $0 }) throws -> WebAuthnError? {
        let statement = try build(mutateJWS: mutateJWS).statement
        return F.error { _ = try AndroidSafetyNetAttestation.verify(statement) }
    }
}
