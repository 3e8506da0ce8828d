import Foundation
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

extension MetadataBLOB {
    /// The JWS algorithms a BLOB may be signed with (the real service signs with RS256).
    static let signatureAlgorithms = Set(CompactJWS.algorithms.values)

    /// The payload of a BLOB whose signature and signing chain verify (FIDO Metadata Service §3.2 steps 4–6).
    static func verifiedPayload(
        _ bytes: [UInt8],
        rootCertificates roots: [Certificate],
        at time: Date,
        limits: Limits
    ) async throws(WebAuthnError) -> [UInt8] {
        guard !roots.isEmpty else {
            throw invalid("no root certificate was given to verify it against; pass the metadata service's root")
        }
        let jws: CompactJWS
        do {
            jws = try CompactJWS(
                compact: bytes,
                limits: CompactJWS.Limits(
                    maximumSize: limits.maximumSize,
                    certificates: 0...limits.maximumSigningCertificates
                )
            )
        } catch {
            throw invalid("it is not a valid compact JWS: \(error.reason); use the file exactly as downloaded")
        }
        var chain = [Certificate]()
        for (index, der) in jws.header.certificates.enumerated() {
            guard let certificate = try? Certificate(derEncoded: der) else {
                throw invalid("x5c[\(index)] is not a DER X.509 certificate")
            }
            chain.append(certificate)
        }
        guard let leaf = chain.first else {
            // §3.2 step 5: without x5c, the trust anchor itself is the signing certificate chain.
            for root in roots where root.notValidBefore <= time && time <= root.notValidAfter {
                if (try? verifySignature(jws, by: root)) != nil { return jws.payload }
            }
            throw invalid(
                "it has no x5c, and its signature does not verify with the key of a root certificate valid at \(time)"
            )
        }
        // §3.2 step 6: the signature verifies with the signing certificate's key …
        try verifySignature(jws, by: leaf)
        // … and that certificate chains to a trust anchor at the given time (§3.2 steps 4–5, with the x5c chain).
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
            RFC5280Policy(fixedExpiryValidationTime: time)
        }
        switch await verifier.validate(leaf: leaf, intermediates: CertificateStore(chain.dropFirst())) {
        case .validCertificate:
            return jws.payload
        case .couldNotValidate(let failures):
            let reasons = failures.prefix(3).map { "\($0.policyFailureReason)" }
            throw invalid(
                "its signing certificate '\(leaf.subject)' does not chain to a given root certificate at \(time)\(reasons.isEmpty ? "" : " (\(reasons.joined(separator: "; ")))")"
            )
        }
    }

    private static func verifySignature(_ jws: CompactJWS, by certificate: Certificate) throws(WebAuthnError) {
        let key: SignatureVerifier
        do {
            key = try SignatureVerifier(certificate.publicKey)
        } catch {
            throw invalid("the signing certificate's key type is not supported")
        }
        do throws(CompactJWS.SignatureFailure) {
            try jws.verifySignature(with: key, accepting: signatureAlgorithms)
        } catch {
            switch error {
            case .algorithmNotAccepted:
                throw invalid(
                    "its alg '\(jws.header.algorithm)' is not one of \(signatureAlgorithms.map(\.name).sorted().joined(separator: ", "))"
                )
            case .keyMismatch:
                throw invalid(
                    "its alg is \(jws.header.algorithm) but the signing certificate holds another kind of key"
                )
            case .malformedSignature:
                throw invalid("its \(jws.header.algorithm) signature is not r || s of the key's curve")
            case .invalid:
                throw invalid("its signature does not verify with the signing certificate's key")
            }
        }
    }

    private static func invalid(_ reason: String) -> WebAuthnError {
        WebAuthnError(.metadataInvalid, "The metadata BLOB is not valid: \(reason).")
    }
}
