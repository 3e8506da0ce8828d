import Crypto
import PasskeyTesting
import Testing

@testable import WebAuthn

/// Malformed or inconsistent COSE keys are rejected (WebAuthn §5.8.5, RFC 9053).
struct COSEKeyRejectionTests {
    /// A valid ES256 key as COSE entries, to remove from or change.
    static func es256Entries() -> [CBORMapEntry] {
        let point = Array(P256.Signing.PrivateKey().publicKey.x963Representation)
        return [
            CBORMapEntry(CBORValue(1), CBORValue(2)), CBORMapEntry(CBORValue(3), CBORValue(-7)),
            CBORMapEntry(CBORValue(-1), CBORValue(1)),
            CBORMapEntry(CBORValue(-2), .bytes(Array(point[1...32]))),
            CBORMapEntry(CBORValue(-3), .bytes(Array(point[33...]))),
        ]
    }

    static func decode(_ entries: [CBORMapEntry]) throws(WebAuthnError) -> COSEKey {
        try COSEKey(cborRepresentation: CBOREncoder.encode(.map(entries)))
    }

    static func replacing(_ label: Int, with value: CBORValue?, in entries: [CBORMapEntry]) -> [CBORMapEntry] {
        var entries = entries.filter { $0.key != CBORValue(label) }
        if let value { entries.append(CBORMapEntry(CBORValue(label), value)) }
        return entries
    }

    @Test("The unmodified fixture key decodes (so each rejection below is caused by its one change)")
    func baseline() throws {
        #expect(try Self.decode(Self.es256Entries()).algorithm == .es256)
    }

    @Test(
        "RFC 9052 §7: a required parameter that is missing is INVALID_COSE_KEY",
        arguments: [
            (1, "kty"), (3, "alg"), (-1, "crv"), (-2, "x"), (-3, "y"),
        ]
    )
    func missingParameter(_ label: Int, _ name: String) {
        #expect(throws: code(.invalidCOSEKey), "missing \(name)") {
            try Self.decode(Self.replacing(label, with: nil, in: Self.es256Entries()))
        }
    }

    @Test(
        "RFC 9052 §7: parameters of the wrong CBOR type are INVALID_COSE_KEY",
        arguments: [
            (1, CBORValue.text("EC2")), (3, .text("ES256")), (-1, .text("P-256")), (-2, .text("x")), (-3, .unsigned(1)),
            (-2, .bytes([])),
            (1, CBORValue(4)),  // kty Symmetric
        ]
    )
    func wrongType(_ label: Int, _ value: CBORValue) {
        #expect(throws: code(.invalidCOSEKey)) {
            try Self.decode(Self.replacing(label, with: value, in: Self.es256Entries()))
        }
    }

    @Test("§5.8.5: the key type must match the algorithm", arguments: [1, 3])
    func keyTypeAlgorithmMismatch(_ kty: Int) {
        #expect(throws: code(.invalidCOSEKey)) {
            try Self.decode(Self.replacing(1, with: CBORValue(kty), in: Self.es256Entries()))
        }
    }

    @Test("An EdDSA or RSA algorithm on an EC2 key is INVALID_COSE_KEY", arguments: [-8, -257, -37])
    func algorithmOfAnotherFamily(_ alg: Int) {
        #expect(throws: code(.invalidCOSEKey)) {
            try Self.decode(Self.replacing(3, with: CBORValue(alg), in: Self.es256Entries()))
        }
    }

    @Test(
        "RFC 9053 §2.1: ES256 needs P-256, ES384 P-384, ES512 P-521",
        arguments: [
            (-7, 2), (-7, 3), (-7, 6), (-7, 99), (-35, 1), (-36, 1),
        ]
    )
    func wrongCurve(_ alg: Int, _ crv: Int) {
        let entries = Self.replacing(
            -1,
            with: CBORValue(crv),
            in: Self.replacing(3, with: CBORValue(alg), in: Self.es256Entries())
        )
        #expect(throws: code(.invalidCOSEKey)) { try Self.decode(entries) }
    }

    @Test("An EC2 point that is not on the curve is INVALID_COSE_KEY", arguments: [0, 31])
    func pointNotOnCurve(_ index: Int) throws {
        var entries = Self.es256Entries()
        var y = try #require(entries[4].value.bytesValue, "the key's y coordinate")
        y[index] ^= 0x01
        entries[4].value = .bytes(y)
        #expect(throws: code(.invalidCOSEKey)) { try Self.decode(entries) }
    }

    @Test("EC2 coordinates of the wrong length are INVALID_COSE_KEY", arguments: [31, 33])
    func coordinateLength(_ length: Int) {
        let entries = Self.replacing(-2, with: .bytes(Array(repeating: 1, count: length)), in: Self.es256Entries())
        #expect(throws: code(.invalidCOSEKey)) { try Self.decode(entries) }
    }

    @Test("RFC 9053 §7.1.1: x and y must each be the curve's field size, even when together they make a valid point")
    func shiftedCoordinates() throws {
        var entries = Self.es256Entries()
        let x = try #require(entries[3].value.bytesValue, "the key's x coordinate")
        let y = try #require(entries[4].value.bytesValue, "the key's y coordinate")
        // Move the last byte of x to the front of y: 31 + 33 bytes, the same 64 bytes of point.
        entries[3].value = .bytes(Array(x.dropLast()))
        entries[4].value = .bytes([x.last!] + y)
        #expect(throws: code(.invalidCOSEKey)) { try Self.decode(entries) }
    }

    static func rsaEntries(modulus: [UInt8], alg: Int = -257) -> [CBORMapEntry] {
        [
            CBORMapEntry(CBORValue(1), CBORValue(3)), CBORMapEntry(CBORValue(3), CBORValue(alg)),
            CBORMapEntry(CBORValue(-1), .bytes(modulus)), CBORMapEntry(CBORValue(-2), .bytes([0x01, 0x00, 0x01])),
        ]
    }

    @Test("RSA moduli shorter than 2048 bits are WEAK_KEY", arguments: [512, 1024, 2040])
    func weakRSA(_ bits: Int) {
        let modulus: [UInt8] = [0xC3] + Array(repeating: 0xFF, count: bits / 8 - 1)
        #expect(throws: code(.weakKey)) { try Self.decode(Self.rsaEntries(modulus: modulus)) }
        // Leading zero bytes do not count towards the size.
        #expect(throws: code(.weakKey)) { try Self.decode(Self.rsaEntries(modulus: [0, 0] + modulus)) }
    }

    @Test("A 2047-bit RSA modulus (256 bytes, top bit clear) is WEAK_KEY")
    func weakRSA2047() {
        let modulus: [UInt8] = [0x7F] + Array(repeating: 0xFF, count: 255)
        #expect(throws: code(.weakKey)) { try Self.decode(Self.rsaEntries(modulus: modulus)) }
    }

    @Test("RSA keys without modulus or exponent are INVALID_COSE_KEY", arguments: [-1, -2])
    func rsaMissingParameter(_ label: Int) {
        let entries = Self.replacing(
            label,
            with: nil,
            in: Self.rsaEntries(modulus: [0xC3] + [UInt8](repeating: 0xFF, count: 255))
        )
        #expect(throws: code(.invalidCOSEKey)) { try Self.decode(entries) }
    }

    @Test(
        "An algorithm this library does not verify is UNSUPPORTED_ALGORITHM",
        arguments: [-999, 0, 1, -9, -47, -260, -65534]
    )
    func unknownAlgorithm(_ alg: Int) {
        #expect(throws: code(.unsupportedAlgorithm)) {
            try Self.decode(Self.replacing(3, with: CBORValue(alg), in: Self.es256Entries()))
        }
    }

    static func okpEntries(x: [UInt8], crv: Int = 6) -> [CBORMapEntry] {
        [
            CBORMapEntry(CBORValue(1), CBORValue(1)), CBORMapEntry(CBORValue(3), CBORValue(-8)),
            CBORMapEntry(CBORValue(-1), CBORValue(crv)), CBORMapEntry(CBORValue(-2), .bytes(x)),
        ]
    }

    @Test("RFC 8032: an Ed25519 public key must be 32 bytes", arguments: [1, 31, 33, 64])
    func ed25519Length(_ length: Int) throws {
        let valid = Array(Curve25519.Signing.PrivateKey().publicKey.rawRepresentation)
        _ = try Self.decode(Self.okpEntries(x: valid))
        #expect(throws: code(.invalidCOSEKey)) {
            try Self.decode(Self.okpEntries(x: Array(repeating: 9, count: length)))
        }
    }

    @Test("EdDSA keys must be on Ed25519 (X25519 and Ed448 are rejected)", arguments: [4, 5, 7, 1])
    func eddsaCurve(_ crv: Int) {
        let x = Array(Curve25519.Signing.PrivateKey().publicKey.rawRepresentation)
        #expect(throws: code(.invalidCOSEKey)) { try Self.decode(Self.okpEntries(x: x, crv: crv)) }
    }

    @Test("A COSE key that is not a CBOR map is INVALID_COSE_KEY", arguments: ["80", "01", "40", "f6"])
    func notAMap(_ encoded: String) {
        #expect(throws: code(.invalidCOSEKey)) { try COSEKey(cborRepresentation: hex(encoded)) }
    }

    @Test("A COSE key with trailing bytes or non-canonical CBOR is MALFORMED_CBOR")
    func malformedCBOR() {
        let bytes = CBOREncoder.encode(.map(Self.es256Entries()))
        #expect(throws: code(.malformedCBOR)) { try COSEKey(cborRepresentation: bytes + [0]) }
        // Swap the first two entries (kty and alg): keys out of canonical order.
        let unsorted = [bytes[0], bytes[3], bytes[4], bytes[1], bytes[2]] + bytes[5...]
        #expect(throws: code(.malformedCBOR)) { try COSEKey(cborRepresentation: Array(unsorted)) }
    }
}
