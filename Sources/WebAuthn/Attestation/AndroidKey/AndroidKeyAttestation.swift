import SwiftASN1
import X509

/// The `android-key` attestation statement format (WebAuthn §8.4): `{alg, sig, x5c}`.
///
/// The authorization-list checks of §8.4 use `teeEnforced` only: the credential must have been
/// generated, and be usable for signing, inside the trusted execution environment.
enum AndroidKeyAttestation: AttestationStatementVerifier {
    static let format = AttestationFormat.androidKey

    static func verify(_ statement: AttestationStatement) throws(WebAuthnError) -> AttestationStatementResult {
        // §8.4 step 1: attStmt is CBOR of the defined syntax.
        try statement.requireKeys(["alg", "sig", "x5c"])
        let alg = try statement.algorithm()
        let sig = try statement.bytes("sig")
        guard let chain = try statement.certificateChain() else { throw statement.fail("the statement has no x5c.") }
        let attestationCertificate = chain[0]

        // §8.4 step 2: sig verifies over authenticatorData || clientDataHash with the first certificate's key and alg.
        try statement.verifySignature(sig, over: statement.signedData, by: attestationCertificate, algorithm: alg)

        // §8.4 step 3: the first certificate's public key is the credential public key.
        let certificateKey = try SignatureVerifier(attestationCertificate.publicKey)
        guard certificateKey.publicKeyBytes == statement.credential.credentialPublicKey.verifier.publicKeyBytes else {
            throw statement.fail("the credential public key differs from the attestation certificate's key.")
        }

        // §8.4 steps 4–5 read the attestation certificate extension data.
        let description = try keyDescription(of: attestationCertificate, statement: statement)
        // §8.4 step 4: attestationChallenge is identical to clientDataHash.
        guard description.attestationChallenge == statement.clientDataHash else {
            throw statement.fail("the key description's attestationChallenge is not the clientDataHash.")
        }
        // §8.4 step 5: allApplications is on neither list, so the key is scoped to the RP ID.
        guard !description.softwareEnforced.allApplications, !description.teeEnforced.allApplications else {
            throw statement.fail("the key description has allApplications: the key is not scoped to the RP ID.")
        }
        // §8.4 step 5: origin is KM_ORIGIN_GENERATED and purpose is KM_PURPOSE_SIGN, enforced by the TEE.
        let enforced = description.teeEnforced
        guard enforced.origin == AndroidAuthorizationList.originGenerated else {
            let found = enforced.origin.map { "\($0)" } ?? "absent"
            throw statement.fail("the teeEnforced origin must be KM_ORIGIN_GENERATED (0); it is \(found).")
        }
        guard let purpose = enforced.purpose, purpose.contains(AndroidAuthorizationList.purposeSign) else {
            let found = enforced.purpose.map { "\($0)" } ?? "absent"
            throw statement.fail("the teeEnforced purpose must include KM_PURPOSE_SIGN (2); it is \(found).")
        }

        // §8.4 step 6: attestation type Basic, trust path x5c.
        return AttestationStatementResult(type: .basic, trustPath: chain)
    }

    /// The parsed key attestation extension of the attestation certificate.
    static func keyDescription(
        of certificate: Certificate,
        statement: AttestationStatement
    ) throws(WebAuthnError) -> AndroidKeyDescription {
        guard let ext = certificate.extensions[oid: AndroidKeyDescription.extensionID] else {
            throw statement.certificateFailure(
                "the attestation certificate has no key attestation extension (1.3.6.1.4.1.11129.2.1.17)."
            )
        }
        return try AndroidKeyDescription(derEncoded: Array(ext.value))
    }
}
