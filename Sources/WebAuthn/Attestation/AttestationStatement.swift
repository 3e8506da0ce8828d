import Foundation
import SwiftASN1
import X509

/// What an attestation statement verifier gets: the statement's fields, the authenticator data it attests,
/// and the hash of the client data (WebAuthn §8: the verification procedure's inputs).
struct AttestationStatement: Sendable {
    let format: AttestationFormat
    let fields: CBORValue
    let authenticatorData: AuthenticatorData
    let credential: AttestedCredentialData
    let clientDataHash: [UInt8]
    let policy: AttestationPolicy
    let time: Date

    /// `authenticatorData || clientDataHash`: what most formats sign.
    var signedData: [UInt8] { authenticatorData.rawRepresentation + clientDataHash }

    func fail(_ reason: String) -> WebAuthnError {
        WebAuthnError(.attestationInvalid, "\(format.rawValue) attestation: \(reason)")
    }

    func certificateFailure(_ reason: String) -> WebAuthnError {
        WebAuthnError(.attestationCertificateInvalid, "\(format.rawValue) attestation: \(reason)")
    }

    /// A byte-string field.
    func bytes(_ key: String) throws(WebAuthnError) -> [UInt8] {
        guard let value = fields[text: key]?.bytesValue else {
            throw fail("the statement has no byte string '\(key)'.")
        }
        return value
    }

    /// The `alg` field, checked against the statement algorithms policy allows.
    func algorithm() throws(WebAuthnError) -> COSEAlgorithmIdentifier {
        guard let raw = fields[text: "alg"]?.intValue else { throw fail("the statement has no integer 'alg'.") }
        let alg = COSEAlgorithmIdentifier(rawValue: raw)
        guard alg.family != nil else {
            throw WebAuthnError(
                .unsupportedAlgorithm,
                "\(format.rawValue) attestation uses COSE algorithm \(raw), which is not supported."
            )
        }
        guard policy.statementAlgorithms.contains(alg) else {
            throw WebAuthnError(
                .unsupportedAlgorithm,
                "\(format.rawValue) attestation uses \(alg.name), which the attestation policy does not accept."
            )
        }
        return alg
    }

    /// The `x5c` chain, leaf first, or nil when absent. An empty chain, or a leaf that is not a certificate,
    /// is an error. An intermediate that swift-certificates cannot decode (real TPM vendors have issued
    /// intermediates with negative serial numbers, which RFC 5280 asks software to tolerate) ends the chain
    /// there: the statement can still verify, but the chain can then only be trusted if an anchor issued what remains.
    func certificateChain(_ key: String = "x5c") throws(WebAuthnError) -> [Certificate]? {
        guard let value = fields[text: key] else { return nil }
        guard let items = value.arrayValue, !items.isEmpty, items.count <= 8 else {
            throw fail("'\(key)' must be an array of 1 to 8 certificates.")
        }
        var chain = [Certificate]()
        for item in items {
            guard let der = item.bytesValue else {
                throw fail("'\(key)' holds something other than a DER certificate.")
            }
            guard chain.isEmpty else {
                guard let certificate = try? Certificate(derEncoded: der) else { break }
                chain.append(certificate)
                continue
            }
            chain.append(try Certificate.decode(der: der, in: format))
        }
        return chain
    }

    /// Checks the statement has exactly the expected keys, so unknown members cannot hide.
    func requireKeys(_ allowed: Set<String>) throws(WebAuthnError) {
        for entry in fields.mapEntries ?? [] {
            guard let key = entry.key.textValue, allowed.contains(key) else {
                throw fail("unexpected member \(entry.key) in the statement.")
            }
        }
    }

    /// Verifies `signature` over `data` with a certificate's key and `algorithm`.
    func verifySignature(
        _ signature: [UInt8],
        over data: [UInt8],
        by certificate: Certificate,
        algorithm: COSEAlgorithmIdentifier
    ) throws(WebAuthnError) {
        let verifier = try SignatureVerifier(certificate.publicKey)
        guard verifier.supports(algorithm) else {
            throw fail("'alg' is \(algorithm.name) but the attestation certificate holds a different kind of key.")
        }
        guard verifier.isValidSignature(signature, for: data, algorithm: algorithm) else {
            throw fail("the signature does not verify with the attestation certificate's key.")
        }
    }

    /// Verifies `signature` over `data` with the credential public key (self attestation).
    func verifySelfSignature(
        _ signature: [UInt8],
        over data: [UInt8],
        algorithm: COSEAlgorithmIdentifier
    ) throws(WebAuthnError) {
        guard algorithm == credential.credentialPublicKey.algorithm else {
            throw fail(
                "self attestation must use the credential's algorithm \(credential.credentialPublicKey.algorithm.name), not \(algorithm.name)."
            )
        }
        guard credential.credentialPublicKey.isValidSignature(signature, for: data) else {
            throw fail("the self-attestation signature does not verify with the credential public key.")
        }
    }
}

/// What a format's verification procedure establishes, before trust is assessed.
struct AttestationStatementResult: Sendable {
    let type: AttestationType
    let trustPath: [Certificate]
}

/// One attestation statement format's verification procedure (WebAuthn §8.x).
protocol AttestationStatementVerifier {
    static var format: AttestationFormat { get }
    static func verify(_ statement: AttestationStatement) throws(WebAuthnError) -> AttestationStatementResult
}

extension Certificate {
    static func decode(der: [UInt8], in format: AttestationFormat) throws(WebAuthnError) -> Certificate {
        do {
            return try Certificate(derEncoded: der)
        } catch {
            throw WebAuthnError(
                .attestationCertificateInvalid,
                "\(format.rawValue) attestation: a certificate is not valid DER X.509 (\(error))."
            )
        }
    }
}
