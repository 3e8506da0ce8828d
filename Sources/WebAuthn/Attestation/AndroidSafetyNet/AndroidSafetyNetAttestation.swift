import Crypto
import Foundation
import SwiftASN1
import X509

/// The `android-safetynet` attestation statement format (WebAuthn §8.5): `{ver, response}`, where
/// `response` is the SafetyNet attestation result, a compact JWS signed by `attest.android.com`.
enum AndroidSafetyNetAttestation: AttestationStatementVerifier {
    static let format = AttestationFormat.androidSafetyNet
    /// The host name SafetyNet's signing certificate is issued to.
    static let signingHostname = "attest.android.com"
    /// Real responses are 5–9 KB, mostly the header's certificates.
    static let jwsLimits = CompactJWS.Limits(maximumSize: 32 * 1024, certificates: 1...8)
    /// The algorithms SafetyNet signs with.
    static let jwsAlgorithms: Set<COSEAlgorithmIdentifier> = [.rs256, .es256]

    /// The SafetyNet attestation result: a compact JWS whose header carries the signing certificate chain.
    static func responseJWS(_ response: [UInt8]) throws(WebAuthnError) -> CompactJWS {
        do {
            return try CompactJWS(compact: response, limits: jwsLimits)
        } catch {
            throw WebAuthnError(
                .attestationInvalid,
                "\(format.rawValue) attestation: the response is not a valid compact JWS: \(error.reason)."
            )
        }
    }

    static func verify(_ statement: AttestationStatement) throws(WebAuthnError) -> AttestationStatementResult {
        // §8.5 step 1: attStmt is CBOR of the defined syntax.
        try statement.requireKeys(["ver", "response"])
        guard let ver = statement.fields[text: "ver"]?.textValue, !ver.isEmpty else {
            throw statement.fail("the statement has no non-empty text 'ver'.")
        }
        let response = try statement.bytes("response")

        // §8.5 step 2: response is a valid SafetyNet response (a JWS; one format exists, whatever ver says).
        let jws = try responseJWS(response)
        var chain = [Certificate]()
        for der in jws.header.certificates {
            chain.append(try Certificate.decode(der: der, in: format))
        }
        let leaf = chain[0]

        // §8.5 step 4, checked before the payload is trusted: the response came from the SafetyNet service.
        // The JWS signature verifies with the leaf certificate of the header's x5c …
        try verifySignature(jws, by: leaf, statement: statement)
        // … and that certificate is issued to attest.android.com. (The chain itself is assessed by trust evaluation.)
        guard try isIssued(leaf, to: signingHostname) else {
            throw statement.certificateFailure("the JWS signing certificate is not issued to \(signingHostname).")
        }
        let payload = try SafetyNetResponse(jsonBytes: jws.payload)

        // §8.5 step 3: nonce is the base64 of SHA-256(authenticatorData || clientDataHash).
        let expectedNonce = Data(SHA256.hash(data: statement.signedData)).base64EncodedString()
        guard payload.nonce == expectedNonce else {
            throw statement.fail("the response's nonce is not base64(SHA-256(authenticatorData || clientDataHash)).")
        }

        // §8.5 step 4 (SafetyNet documentation): the device verdict …
        if statement.policy.safetyNetRequiresCTSProfileMatch, !payload.ctsProfileMatch {
            throw statement.fail(
                "ctsProfileMatch is false: the device did not pass Android compatibility testing (policy requires it)."
            )
        }
        // … and the response is fresh.
        let age = statement.time.timeIntervalSince(payload.timestamp)
        guard age <= statement.policy.safetyNetMaximumAge else {
            throw statement.fail(
                "the response is \(seconds(age)) old at \(statement.time); policy allows \(seconds(statement.policy.safetyNetMaximumAge))."
            )
        }
        guard -age <= statement.policy.safetyNetClockSkew else {
            throw statement.fail(
                "the response's timestamp lies \(seconds(-age)) after \(statement.time); policy allows \(seconds(statement.policy.safetyNetClockSkew)) of clock skew."
            )
        }

        // §8.5 step 5: attestation type Basic, trust path x5c (from the JWS header).
        return AttestationStatementResult(type: .basic, trustPath: chain)
    }

    /// Verifies the JWS signature over `ASCII(header '.' payload)`: RS256 with an RSA key, or ES256 with a P-256 key.
    private static func verifySignature(
        _ jws: CompactJWS,
        by leaf: Certificate,
        statement: AttestationStatement
    ) throws(WebAuthnError) {
        let accepted = jwsAlgorithms.intersection(statement.policy.statementAlgorithms)
        let key = try SignatureVerifier(leaf.publicKey)
        do throws(CompactJWS.SignatureFailure) {
            try jws.verifySignature(with: key, accepting: accepted)
        } catch {
            switch error {
            case .algorithmNotAccepted:
                throw WebAuthnError(
                    .unsupportedAlgorithm,
                    "\(format.rawValue) attestation: the JWS alg '\(jws.header.algorithm)' is not accepted; SafetyNet responses are signed with RS256 or ES256, and the attestation policy accepts \(accepted.map(\.name).sorted())."
                )
            case .keyMismatch:
                throw statement.fail(
                    "the JWS alg is \(jws.header.algorithm) but the signing certificate holds a different kind of key."
                )
            case .malformedSignature:
                throw statement.fail("the \(jws.header.algorithm) JWS signature is not r || s of the key's curve.")
            case .invalid:
                throw statement.fail("the JWS signature does not verify with the signing certificate's key.")
            }
        }
    }

    /// A duration for an error message.
    private static func seconds(_ interval: TimeInterval) -> String {
        interval.isFinite && abs(interval) < 1e15 ? "\(Int(interval.rounded())) s" : "\(interval) s"
    }

    /// Whether the certificate names `hostname` as a subject alternative name (dNSName) or as its subject common name.
    static func isIssued(_ certificate: Certificate, to hostname: String) throws(WebAuthnError) -> Bool {
        func matches(_ name: String) -> Bool { name.lowercased() == hostname }
        let alternativeNames: SubjectAlternativeNames?
        do {
            alternativeNames = try certificate.extensions.subjectAlternativeNames
        } catch {
            throw WebAuthnError(
                .attestationCertificateInvalid,
                "\(format.rawValue) attestation: the signing certificate's subject alternative name extension cannot be decoded."
            )
        }
        for name in alternativeNames.map(Array.init) ?? [] {
            if case .dnsName(let dnsName) = name, matches(dnsName) { return true }
        }
        return certificate.subjectValues(ASN1ObjectIdentifier.RDNAttributeType.commonName).contains(where: matches)
    }
}
