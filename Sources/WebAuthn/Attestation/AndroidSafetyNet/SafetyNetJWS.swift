import Foundation

/// A SafetyNet attestation result: a JWS in compact serialization (RFC 7515 §7.1),
/// `BASE64URL(header) '.' BASE64URL(payload) '.' BASE64URL(signature)`.
///
/// Parsing is bounded and strict: at most ``maximumSize`` bytes, exactly three non-empty unpadded
/// base64url parts, and a JSON header with a string `alg` and an `x5c` array of standard-base64 DER
/// certificates (RFC 7515 §4.1.6). A header with `crit` is rejected: no JWS extension is understood here.
/// The signature is not verified here; see ``AndroidSafetyNetAttestation``.
struct SafetyNetJWS: Sendable {
    /// The largest response accepted. Real responses are 5–9 KB, mostly the header's certificates.
    static let maximumSize = 32 * 1024
    /// The most certificates accepted in `x5c`.
    static let maximumCertificates = 8

    struct Header: Sendable {
        /// The JWS `alg`, such as `RS256`.
        let algorithm: String
        /// The `x5c` certificates, DER, leaf first.
        let certificates: [[UInt8]]
    }

    let header: Header
    /// The decoded payload (JSON, see ``SafetyNetResponse``).
    let payload: [UInt8]
    /// The decoded signature.
    let signature: [UInt8]
    /// The JWS signing input: the ASCII bytes `BASE64URL(header) '.' BASE64URL(payload)`.
    let signingInput: [UInt8]

    private struct WireHeader: Decodable {
        let alg: String
        let x5c: [String]
        let crit: JSONValue?
    }

    init(compact bytes: [UInt8]) throws(WebAuthnError) {
        guard !bytes.isEmpty else { throw Self.malformed("it is empty") }
        guard bytes.count <= Self.maximumSize else {
            throw Self.malformed("it is \(bytes.count) bytes; the limit is \(Self.maximumSize)")
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw Self.malformed("it has \(parts.count) dot-separated parts instead of header.payload.signature")
        }
        let headerBytes = try Self.decodePart(parts[0], name: "header")
        payload = try Self.decodePart(parts[1], name: "payload")
        signature = try Self.decodePart(parts[2], name: "signature")
        signingInput = Array(bytes[bytes.startIndex..<parts[1].endIndex])

        let wire: WireHeader
        do {
            wire = try JSONDecoder().decode(WireHeader.self, from: Data(headerBytes))
        } catch {
            throw Self.malformed(
                "the header is not a JSON object with a string 'alg' and an array of strings 'x5c': \(JSONErrorText.describe(error))"
            )
        }
        guard wire.crit == nil else {
            throw Self.malformed("the header has critical extensions ('crit'), which are not supported")
        }
        guard (1...Self.maximumCertificates).contains(wire.x5c.count) else {
            throw Self.malformed(
                "the header's x5c must hold 1 to \(Self.maximumCertificates) certificates; it holds \(wire.x5c.count)"
            )
        }
        var certificates = [[UInt8]]()
        for (index, text) in wire.x5c.enumerated() {
            // x5c entries are standard base64 (with padding), not base64url.
            guard let der = Data(base64Encoded: text), !der.isEmpty else {
                throw Self.malformed("x5c[\(index)] is not a standard base64 DER certificate")
            }
            certificates.append(Array(der))
        }
        header = Header(algorithm: wire.alg, certificates: certificates)
    }

    /// One part: non-empty, unpadded base64url.
    private static func decodePart(_ part: ArraySlice<UInt8>, name: String) throws(WebAuthnError) -> [UInt8] {
        guard !part.isEmpty else { throw malformed("the \(name) is empty") }
        guard !part.contains(UInt8(ascii: "=")) else {
            throw malformed("the \(name) is padded; JWS parts are unpadded base64url")
        }
        do {
            return try Base64URL.decode(String(decoding: part, as: UTF8.self))
        } catch {
            throw malformed("the \(name) is not base64url")
        }
    }

    static func malformed(_ reason: String) -> WebAuthnError {
        WebAuthnError(
            .attestationInvalid,
            "\(AttestationFormat.androidSafetyNet.rawValue) attestation: the response is not a valid compact JWS: \(reason)."
        )
    }
}
