import X509

/// The `fido-u2f` attestation statement format (WebAuthn §8.6): `{sig, x5c}` from a U2F authenticator.
enum FIDOU2FAttestation: AttestationStatementVerifier {
    static let format = AttestationFormat.fidoU2F

    static func verify(_ statement: AttestationStatement) throws(WebAuthnError) -> AttestationStatementResult {
        try statement.requireKeys(["sig", "x5c"])
        // §8.6 step 2: x5c has exactly one certificate, whose key is EC P-256.
        guard let chain = try statement.certificateChain(), chain.count == 1 else {
            throw statement.fail("x5c must hold exactly one attestation certificate.")
        }
        let attestationCertificate = chain[0]
        guard case .p256 = try SignatureVerifier(attestationCertificate.publicKey) else {
            throw statement.certificateFailure("the attestation certificate's key must be EC P-256.")
        }
        // §8.6 steps 3–4: the credential key must be EC2 P-256; publicKeyU2F = 0x04 || x || y.
        guard case .ec2(.p256, let x, let y) = statement.credential.credentialPublicKey.parameters, x.count == 32,
            y.count == 32
        else {
            throw statement.fail("the credential public key must be an EC2 P-256 key with 32-byte coordinates.")
        }
        // §8.6 step 5: verificationData = 0x00 || rpIdHash || clientDataHash || credentialId || publicKeyU2F.
        let verificationData =
            [0x00] + statement.authenticatorData.rpIDHash + statement.clientDataHash
            + statement.credential.credentialID + [0x04] + x + y
        // §8.6 step 6: verify sig (ECDSA with SHA-256).
        try statement.verifySignature(
            try statement.bytes("sig"),
            over: verificationData,
            by: attestationCertificate,
            algorithm: .es256
        )
        return AttestationStatementResult(type: .basic, trustPath: chain)
    }
}
