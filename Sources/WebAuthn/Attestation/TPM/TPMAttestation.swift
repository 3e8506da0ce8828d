import Crypto
import X509

/// The `tpm` attestation statement format (WebAuthn §8.3):
/// `{ver: "2.0", alg, x5c: [aikCert, *caCert], sig, certInfo, pubArea}`.
///
/// The TPM certifies the credential key (`pubArea`) with `TPM2_Certify`, signing a `TPMS_ATTEST` (`certInfo`)
/// with its attestation identity key, whose certificate is `x5c[0]`.
enum TPMAttestation: AttestationStatementVerifier {
    static let format = AttestationFormat.tpm
    /// id-fido-gen-ce-aaguid, for messages.
    static let aaguidExtension = "1.3.6.1.4.1.45724.1.1.4"

    static func verify(_ statement: AttestationStatement) throws(WebAuthnError) -> AttestationStatementResult {
        // §8.3 step 1: attStmt follows the tpmStmtFormat syntax. Level 3 removed ECDAA, so x5c is required.
        guard statement.fields[text: "ecdaaKeyId"] == nil else {
            throw statement.fail(
                "ECDAA attestation (ecdaaKeyId) is not supported; WebAuthn Level 3 removed it, and a TPM statement must carry x5c."
            )
        }
        try statement.requireKeys(["ver", "alg", "x5c", "sig", "certInfo", "pubArea"])
        guard let version = statement.fields[text: "ver"]?.textValue else {
            throw statement.fail("the statement has no text 'ver'.")
        }
        guard version == "2.0" else {
            throw statement.fail("'ver' must be \"2.0\" (TPM 2.0), not \"\(version)\".")
        }
        let alg = try statement.algorithm()
        guard alg.family != .eddsa else {
            throw WebAuthnError(
                .unsupportedAlgorithm,
                "tpm attestation: 'alg' is \(alg.name); TPM attestation keys sign with RSA or ECDSA."
            )
        }
        guard let chain = try statement.certificateChain() else {
            throw statement.fail(
                "the statement has no x5c. TPM attestation without an AIK certificate (ECDAA) was removed in WebAuthn Level 3 and is not supported."
            )
        }
        let sig = try statement.bytes("sig")
        let certInfoBytes = try statement.bytes("certInfo")
        let pubAreaBytes = try statement.bytes("pubArea")
        let pubArea: TPMTPublic
        do throws(TPMParseError) {
            pubArea = try TPMTPublic(bytes: pubAreaBytes)
        } catch {
            throw statement.fail("pubArea is not a valid TPMT_PUBLIC: \(error.reason)")
        }
        let certInfo: TPMSAttest
        do throws(TPMParseError) {
            // §8.3 step 4 (type is TPM_ST_ATTEST_CERTIFY) is checked while decoding: `attested` depends on it.
            certInfo = try TPMSAttest(bytes: certInfoBytes)
        } catch {
            throw statement.fail("certInfo is not a valid TPMS_ATTEST of a certification: \(error.reason)")
        }

        // §8.3 step 2: the key in pubArea's parameters and unique is the credential public key.
        if let mismatch = pubArea.mismatch(with: statement.credential.credentialPublicKey.parameters) {
            throw statement.fail("the public key in pubArea is not the credential public key: \(mismatch)")
        }

        // §8.3 step 3: attToBeSigned = authenticatorData || clientDataHash.
        let attToBeSigned = statement.signedData

        // §8.3 step 4: certInfo is valid.
        // magic is TPM_GENERATED_VALUE.
        guard certInfo.magic == TPMSAttest.generatedValue else {
            throw statement.fail(
                "certInfo's magic is 0x\(String(certInfo.magic, radix: 16, uppercase: true)), not TPM_GENERATED_VALUE (0xFF544347)."
            )
        }
        // extraData is the hash of attToBeSigned with the hash algorithm of alg.
        guard certInfo.extraData == digest(attToBeSigned, alg.hash) else {
            throw statement.fail(
                "certInfo's extraData is not the \(alg.hash) hash of authenticatorData || clientDataHash."
            )
        }
        // attested is a TPMS_CERTIFY_INFO whose name is the Name of pubArea, computed with pubArea's nameAlg.
        guard let expectedName = pubArea.name else {
            throw statement.fail("pubArea's nameAlg \(pubArea.nameAlg) is not SHA-1, SHA-256, SHA-384 or SHA-512.")
        }
        guard certInfo.attested.name == expectedName else {
            throw statement.fail("certInfo's attested name is not the Name of pubArea (nameAlg \(pubArea.nameAlg)).")
        }
        // x5c is present (checked in step 1). qualifiedSigner, clockInfo and firmwareVersion are not used.
        // sig is a valid signature over certInfo with the public key of aikCert and alg.
        let aikCertificate = chain[0]
        try statement.verifySignature(sig, over: certInfoBytes, by: aikCertificate, algorithm: alg)
        // aikCert meets the requirements of §8.3.1.
        try TPMCertificateRequirements.check(aikCertificate, statement: statement)
        // An id-fido-gen-ce-aaguid extension in aikCert names the AAGUID in authenticatorData.
        if let (aaguid, _) = try aikCertificate.fidoAAGUID() {
            guard aaguid == statement.credential.aaguid.bytes else {
                throw statement.certificateFailure(
                    "the AIK certificate's id-fido-gen-ce-aaguid extension (\(aaguidExtension)) does not match the AAGUID \(statement.credential.aaguid) in authenticator data."
                )
            }
        }
        // Attestation type AttCA, trust path x5c.
        return AttestationStatementResult(type: .attCA, trustPath: chain)
    }

    /// The digest `extraData` must hold for `alg`'s hash function.
    private static func digest(_ data: [UInt8], _ hash: COSEAlgorithmIdentifier.Hash) -> [UInt8] {
        switch hash {
        case .sha1: Array(Insecure.SHA1.hash(data: data))
        case .sha256: Array(SHA256.hash(data: data))
        case .sha384: Array(SHA384.hash(data: data))
        case .sha512: Array(SHA512.hash(data: data))
        }
    }
}
