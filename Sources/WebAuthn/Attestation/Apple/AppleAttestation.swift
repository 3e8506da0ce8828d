import Crypto
import SwiftASN1
import X509

/// The `apple` anonymous attestation statement format (WebAuthn §8.8): `{x5c}`.
enum AppleAttestation: AttestationStatementVerifier {
    static let format = AttestationFormat.apple
    /// The extension that carries the nonce in the credential certificate.
    static let nonceExtension: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 8, 2]

    static func verify(_ statement: AttestationStatement) throws(WebAuthnError) -> AttestationStatementResult {
        try statement.requireKeys(["x5c", "alg"])
        guard let chain = try statement.certificateChain() else { throw statement.fail("the statement has no x5c.") }
        let credentialCertificate = chain[0]
        // §8.8 steps 2–3: nonce = SHA-256(authenticatorData || clientDataHash).
        let nonce = Array(SHA256.hash(data: statement.signedData))
        // §8.8 step 4: the nonce extension holds that nonce.
        guard let ext = credentialCertificate.extensions[oid: nonceExtension] else {
            throw statement.certificateFailure(
                "the credential certificate has no nonce extension (1.2.840.113635.100.8.2)."
            )
        }
        guard try certificateNonce(Array(ext.value), statement: statement) == nonce else {
            throw statement.fail(
                "the nonce in the credential certificate does not match SHA-256(authenticatorData || clientDataHash)."
            )
        }
        // §8.8 step 5: the credential public key equals the certificate's subject public key.
        let certificateKey = try SignatureVerifier(credentialCertificate.publicKey)
        guard certificateKey.publicKeyBytes == statement.credential.credentialPublicKey.verifier.publicKeyBytes else {
            throw statement.fail("the credential public key differs from the credential certificate's key.")
        }
        return AttestationStatementResult(type: .anonCA, trustPath: chain)
    }

    /// The extension value is `SEQUENCE { [1] EXPLICIT OCTET STRING nonce }`.
    private static func certificateNonce(
        _ der: [UInt8],
        statement: AttestationStatement
    ) throws(WebAuthnError) -> [UInt8] {
        do {
            let root = try DER.parse(der)
            return try DER.sequence(root, identifier: .sequence) { nodes in
                try DER.explicitlyTagged(&nodes, tagNumber: 1, tagClass: .contextSpecific) { node in
                    Array(try ASN1OctetString(derEncoded: node).bytes)
                }
            }
        } catch {
            throw statement.certificateFailure("the nonce extension is not SEQUENCE { [1] OCTET STRING }.")
        }
    }
}
