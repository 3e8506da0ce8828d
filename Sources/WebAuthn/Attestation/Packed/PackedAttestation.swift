import X509

/// The `packed` attestation statement format (WebAuthn §8.2): `{alg, sig, x5c?}`.
enum PackedAttestation: AttestationStatementVerifier {
    static let format = AttestationFormat.packed

    static func verify(_ statement: AttestationStatement) throws(WebAuthnError) -> AttestationStatementResult {
        try statement.requireKeys(["alg", "sig", "x5c"])
        let alg = try statement.algorithm()
        let sig = try statement.bytes("sig")

        guard let chain = try statement.certificateChain() else {
            // §8.2 self attestation: alg matches the credential key, sig verifies with it.
            try statement.verifySelfSignature(sig, over: statement.signedData, algorithm: alg)
            return AttestationStatementResult(type: .self, trustPath: [])
        }
        // §8.2 with x5c: sig verifies with attestnCert's key and alg.
        let attestationCertificate = chain[0]
        try statement.verifySignature(sig, over: statement.signedData, by: attestationCertificate, algorithm: alg)
        // §8.2: attestnCert meets the requirements of §8.2.1.
        try PackedCertificateRequirements.check(attestationCertificate, statement: statement)
        // §8.2: the id-fido-gen-ce-aaguid extension, when present, names the authenticator's AAGUID.
        if let (aaguid, critical) = try attestationCertificate.fidoAAGUID() {
            guard !critical else {
                throw statement.certificateFailure("the id-fido-gen-ce-aaguid extension must not be critical.")
            }
            guard aaguid == statement.credential.aaguid.bytes else {
                throw statement.certificateFailure(
                    "the certificate's AAGUID extension does not match the AAGUID in authenticator data."
                )
            }
        }
        return AttestationStatementResult(type: .basic, trustPath: chain)
    }
}
