import Foundation
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

/// Assesses an attestation trust path (§7.1 step 23) with swift-certificates, at an injected time.
enum TrustEvaluation {
    /// Returns the anchor `path` verifies to; nil when there is nothing to verify against.
    /// Without anchors the path must still be internally consistent: each certificate signed by the next.
    static func evaluate(
        _ path: [Certificate],
        format: AttestationFormat,
        anchors: [Certificate],
        time: Date
    ) async throws(WebAuthnError) -> Certificate? {
        guard let leaf = path.first else { return nil }
        guard !anchors.isEmpty else {
            for (certificate, issuer) in zip(path, path.dropFirst()) {
                guard issuer.publicKey.isValidSignature(certificate.signature, for: certificate) else {
                    throw WebAuthnError(
                        .attestationCertificateInvalid,
                        "\(format.rawValue) attestation: the certificate '\(certificate.subject)' is not signed by the next certificate in the chain."
                    )
                }
            }
            return nil
        }
        var verifier = Verifier(rootCertificates: CertificateStore(anchors)) {
            AttestationChainPolicy(validationTime: time)
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(path.dropFirst()))
        switch result {
        case .validCertificate(let chain):
            return chain.root
        case .couldNotValidate(let failures):
            let reasons = failures.prefix(3).map { "\($0.policyFailureReason)" }
            throw WebAuthnError(
                .attestationUntrusted,
                "\(format.rawValue) attestation: the certificate chain does not verify to a configured trust anchor at \(time)\(reasons.isEmpty ? "" : " (\(reasons.joined(separator: "; ")))")."
            )
        }
    }
}

/// RFC 5280 path validation at a fixed time. Attestation certificates may mark extensions critical that
/// the formats check themselves (TPM's subject alternative name, extended key usage), so those count as handled.
struct AttestationChainPolicy: VerifierPolicy {
    let base: RFC5280Policy
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier]

    init(validationTime: Date) {
        base = RFC5280Policy(fixedExpiryValidationTime: validationTime)
        verifyingCriticalExtensions =
            base.verifyingCriticalExtensions + [
                .X509ExtensionID.subjectAlternativeName,
                .X509ExtensionID.extendedKeyUsage,
                [2, 5, 29, 32],  // certificate policies
            ]
    }

    mutating func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        base.chainMeetsPolicyRequirements(chain: chain)
    }
}
