import Testing

@testable import WebAuthn

/// `CBOREncoder` writes the CTAP2 canonical form, which the strict decoder reads back unchanged.
struct CBORRoundTripTests {
    static let values: [CBORValue] = [
        .unsigned(0), .unsigned(23), .unsigned(24), .unsigned(255), .unsigned(256), .unsigned(65535), .unsigned(65536),
        .unsigned(0xFFFF_FFFF), .unsigned(0x1_0000_0000), .unsigned(UInt64.max),
        .negative(0), .negative(23), .negative(24), .negative(0xFFFF), .negative(UInt64.max),
        .bytes([]), .bytes(Array(repeating: 0xAB, count: 23)), .bytes(Array(repeating: 1, count: 24)),
        .bytes(Array(repeating: 2, count: 300)),
        .text(""), .text("public-key"), .text(String(repeating: "é", count: 200)),
        .array([]), .array([.null, .undefined, .boolean(true), .boolean(false)]),
        .array(Array(repeating: .unsigned(1), count: 25)),
        .float(1.5), .float(-0.0), .float(.infinity),
        .map([
            CBORMapEntry(CBORValue(1), CBORValue(2)), CBORMapEntry(CBORValue(3), CBORValue(-7)),
            CBORMapEntry(CBORValue(-1), CBORValue(1)),
            CBORMapEntry(CBORValue(-2), .bytes(Array(repeating: 7, count: 32))),
        ]),
        .map([
            CBORMapEntry(.text("fmt"), .text("none")), CBORMapEntry(.text("attStmt"), .map([])),
            CBORMapEntry(.text("authData"), .bytes([1, 2, 3])),
        ]),
        .array([.map([CBORMapEntry(.text("a"), .array([.map([CBORMapEntry(.text("b"), .bytes([0]))])]))])]),
    ]

    @Test("RFC 8949 §4.2 / CTAP2 §8: encode then decode gives the value back", arguments: values)
    func encodeDecode(_ value: CBORValue) throws {
        let decoded = try CBORDecoder().decode(CBOREncoder.encode(value))
        // Maps come back in canonical key order, so compare as sets of entries and by re-encoding.
        #expect(CBOREncoder.encode(decoded) == CBOREncoder.encode(value))
        if case .map(let entries) = value {
            #expect(Set(decoded.mapEntries ?? []) == Set(entries))
        } else {
            #expect(decoded == value)
        }
    }

    @Test(
        "Canonical bytes decode and re-encode to the same bytes",
        arguments: [
            "00", "17", "1818", "18ff", "190100", "1a00010000", "1b0000000100000000", "3863",
            "4401020304", "6449455446", "83010203", "a201020304", "a26161016162820203", "f5", "f6",
            // COSE key order: 1, 3, -1, -2, -3 (major type 0 before 1).
            "a5 01 02 03 26 20 01 21 41 00 22 41 01",
            // Shorter keys sort first, then bytewise: "b" < "aa".
            "a2 61 62 00 62 61 61 00",
        ]
    )
    func bytesRoundTrip(_ encoded: String) throws {
        let bytes = hex(encoded)
        #expect(CBOREncoder.encode(try CBORDecoder().decode(bytes)) == bytes)
    }

    @Test("CTAP2 §8: the encoder sorts map keys by major type, then length, then bytes")
    func encoderSortsKeys() throws {
        let unsorted = CBORValue.map([
            CBORMapEntry(.text("aa"), .unsigned(0)), CBORMapEntry(CBORValue(-1), .unsigned(0)),
            CBORMapEntry(.text("b"), .unsigned(0)), CBORMapEntry(CBORValue(24), .unsigned(0)),
            CBORMapEntry(CBORValue(1), .unsigned(0)),
        ])
        let bytes = CBOREncoder.encode(unsorted)
        #expect(bytes == hex("a5 01 00 1818 00 20 00 6162 00 626161 00"))
        // And the strict decoder (canonical order required) accepts it.
        #expect(try CBORDecoder().decode(bytes).mapEntries?.count == 5)
    }
}
