import Foundation

/// A JWS in compact serialization (RFC 7515 §7.1), `BASE64URL(header) '.' BASE64URL(payload) '.' BASE64URL(signature)`,
/// whose header names its algorithm and carries its certificate chain: the shape of SafetyNet responses
/// (WebAuthn §8.5) and of the FIDO Metadata Service BLOB.
///
/// Parsing is bounded and strict: at most ``Limits/maximumSize`` bytes, exactly three non-empty unpadded base64url
/// parts, and a JSON header with a string `alg` and an `x5c` array of standard-base64 DER certificates
/// (RFC 7515 §4.1.6, leaf first) whose count is within ``Limits/certificates``. A header with `crit` is refused (no
/// JWS extension is understood here), and so is one with `x5u` (certificates are never fetched: they must travel in
/// `x5c`). The signature is not verified here; see ``verifySignature(with:accepting:)``.
struct CompactJWS: Sendable {
    /// The bounds a caller sets for its kind of JWS.
    struct Limits: Sendable {
        /// The largest serialization accepted, in bytes.
        var maximumSize: Int
        /// How many `x5c` certificates are accepted (0 allows a header without `x5c`).
        var certificates: ClosedRange<Int>
    }

    struct Header: Sendable {
        /// The JWS `alg`, such as `RS256`.
        let algorithm: String
        /// The `x5c` certificates, DER, leaf first.
        let certificates: [[UInt8]]
    }

    /// Why a serialization was refused, in words that complete "the JWS is not valid: …".
    struct Malformed: Error {
        let reason: String
    }

    let header: Header
    /// The decoded payload.
    let payload: [UInt8]
    /// The decoded signature.
    let signature: [UInt8]
    /// The JWS signing input: the ASCII bytes `BASE64URL(header) '.' BASE64URL(payload)`.
    let signingInput: [UInt8]

    private struct WireHeader: Decodable {
        let alg: String
        let x5c: [String]?
        let x5u: JSONValue?
        let crit: JSONValue?
    }

    init(compact bytes: [UInt8], limits: Limits) throws(Malformed) {
        guard !bytes.isEmpty else { throw Malformed(reason: "it is empty") }
        guard bytes.count <= limits.maximumSize else {
            throw Malformed(reason: "it is \(bytes.count) bytes; the limit is \(limits.maximumSize)")
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw Malformed(reason: "it has \(parts.count) dot-separated parts instead of header.payload.signature")
        }
        let headerBytes = try Self.decodePart(parts[0], name: "header")
        payload = try Self.decodePart(parts[1], name: "payload")
        signature = try Self.decodePart(parts[2], name: "signature")
        signingInput = Array(bytes[bytes.startIndex..<parts[1].endIndex])

        let wire: WireHeader
        do {
            wire = try JSONDecoder().decode(WireHeader.self, from: Data(headerBytes))
        } catch {
            throw Malformed(
                reason:
                    "the header is not a JSON object with a string 'alg' and an array of strings 'x5c': \(JSONErrorText.describe(error))"
            )
        }
        guard wire.crit == nil else {
            throw Malformed(reason: "the header has critical extensions ('crit'), which are not supported")
        }
        guard wire.x5u == nil else {
            throw Malformed(reason: "the header names a certificate URL ('x5u'), which is never fetched; send 'x5c'")
        }
        let texts = wire.x5c ?? []
        guard limits.certificates.contains(texts.count) else {
            throw Malformed(
                reason:
                    "the header's x5c must hold \(limits.certificates.lowerBound) to \(limits.certificates.upperBound) certificates; it holds \(texts.count)"
            )
        }
        var certificates = [[UInt8]]()
        for (index, text) in texts.enumerated() {
            // x5c entries are standard base64 (with padding), not base64url.
            guard let der = Data(base64Encoded: text), !der.isEmpty else {
                throw Malformed(reason: "x5c[\(index)] is not a standard base64 DER certificate")
            }
            certificates.append(Array(der))
        }
        header = Header(algorithm: wire.alg, certificates: certificates)
    }

    /// One part: non-empty, unpadded base64url.
    private static func decodePart(_ part: ArraySlice<UInt8>, name: String) throws(Malformed) -> [UInt8] {
        guard !part.isEmpty else { throw Malformed(reason: "the \(name) is empty") }
        guard !part.contains(UInt8(ascii: "=")) else {
            throw Malformed(reason: "the \(name) is padded; JWS parts are unpadded base64url")
        }
        do {
            return try Base64URL.decode(String(decoding: part, as: UTF8.self))
        } catch {
            throw Malformed(reason: "the \(name) is not base64url")
        }
    }
}
