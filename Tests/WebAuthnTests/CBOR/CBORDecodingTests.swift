import Testing

@testable import WebAuthn

/// Every major type decodes (RFC 8949 Appendix A vectors, restricted to what the CTAP2 canonical form allows).
struct CBORDecodingTests {
    static let vectors: [(String, CBORValue)] = [
        // Major type 0: unsigned integers, every head width.
        ("00", .unsigned(0)), ("01", .unsigned(1)), ("17", .unsigned(23)), ("1818", .unsigned(24)),
        ("1864", .unsigned(100)), ("1903e8", .unsigned(1000)), ("1a000f4240", .unsigned(1_000_000)),
        ("1b000000e8d4a51000", .unsigned(1_000_000_000_000)), ("1bffffffffffffffff", .unsigned(UInt64.max)),
        // Major type 1: negative integers (-1 - n).
        ("20", .negative(0)), ("29", .negative(9)), ("3863", .negative(99)), ("3903e7", .negative(999)),
        ("3bffffffffffffffff", .negative(UInt64.max)),
        // Major type 2: byte strings.
        ("40", .bytes([])), ("4401020304", .bytes([1, 2, 3, 4])),
        // Major type 3: text strings, including multi-byte UTF-8.
        ("60", .text("")), ("6161", .text("a")), ("6449455446", .text("IETF")), ("62225c", .text("\"\\")),
        ("62c3bc", .text("\u{00fc}")), ("63e6b0b4", .text("\u{6c34}")), ("64f0908591", .text("\u{10151}")),
        // Major type 4: arrays.
        ("80", .array([])), ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])),
        (
            "8301820203820405",
            .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])
        ),
        // Major type 5: maps.
        ("a0", .map([])),
        ("a201020304", .map([CBORMapEntry(.unsigned(1), .unsigned(2)), CBORMapEntry(.unsigned(3), .unsigned(4))])),
        (
            "a26161016162820203",
            .map([
                CBORMapEntry(.text("a"), .unsigned(1)), CBORMapEntry(.text("b"), .array([.unsigned(2), .unsigned(3)])),
            ])
        ),
        // Major type 7: simple values and floats of every width.
        ("f4", .boolean(false)), ("f5", .boolean(true)), ("f6", .null), ("f7", .undefined),
        ("f90000", .float(0.0)), ("f93c00", .float(1.0)), ("f93e00", .float(1.5)), ("f97bff", .float(65504.0)),
        ("f90001", .float(5.960464477539063e-8)), ("f90400", .float(0.00006103515625)), ("f9c400", .float(-4.0)),
        ("f97c00", .float(.infinity)), ("f9fc00", .float(-.infinity)),
        ("fa47c35000", .float(100000.0)), ("fa7f7fffff", .float(3.4028234663852886e+38)),
        ("fb3ff199999999999a", .float(1.1)), ("fb7e37e43c8800759c", .float(1.0e+300)),
    ]

    @Test("CTAP2 §8 / RFC 8949: each major type decodes", arguments: vectors)
    func decodes(_ encoded: String, _ expected: CBORValue) throws {
        #expect(try CBORDecoder().decode(hex(encoded)) == expected)
    }

    @Test(
        "RFC 8949: NaN decodes from half, single and double precision",
        arguments: ["f97e00", "fa7fc00000", "fb7ff8000000000000"]
    )
    func nan(_ encoded: String) throws {
        guard case .float(let value) = try CBORDecoder().decode(hex(encoded)) else {
            Issue.record("not a float")
            return
        }
        #expect(value.isNaN)
    }

    @Test("Map entries keep their encoded (canonical) order and are found by key")
    func mapLookup() throws {
        // {1: 2, 3: -7, -1: 1, -2: h'01'} — a COSE-key-like map.
        let value = try CBORDecoder().decode(hex("a4 01 02 03 26 20 01 21 41 01"))
        #expect(value.mapEntries?.map(\.key) == [CBORValue(1), CBORValue(3), CBORValue(-1), CBORValue(-2)])
        #expect(value[int: 3]?.intValue == -7)
        #expect(value[int: -2]?.bytesValue == [1])
        #expect(value[int: 7] == nil)
        #expect(value[text: "x"] == nil)
    }

    @Test(
        "Integer items convert to Int when they fit",
        arguments: [
            (CBORValue.unsigned(0), 0 as Int?), (.unsigned(UInt64(Int.max)), Int.max),
            (.unsigned(UInt64(Int.max) + 1), nil),
            (.negative(0), -1), (.negative(99), -100), (.negative(UInt64(Int.max) - 1), Int.min + 1),
            (.negative(UInt64.max), nil),
            (.text("1"), nil),
        ]
    )
    func intValue(_ value: CBORValue, _ expected: Int?) {
        #expect(value.intValue == expected)
    }

    @Test("The most negative Int, -2^63 (CBOR 3b 7fffffffffffffff), converts to Int.min")
    func intValueOfIntMin() throws {
        let value = try CBORDecoder().decode(hex("3b7fffffffffffffff"))
        #expect(value == .negative(UInt64(Int.max)))
        #expect(value.intValue == Int.min)
    }
}
