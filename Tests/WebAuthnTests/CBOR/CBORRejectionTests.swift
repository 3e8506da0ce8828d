import Testing

@testable import WebAuthn

/// Input outside the CTAP2 canonical subset, or malformed, is rejected with `MALFORMED_CBOR`.
struct CBORRejectionTests {
    static func expectMalformed(
        _ encoded: String,
        limits: CBORLimits = .default,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(throws: code(.malformedCBOR), sourceLocation: sourceLocation) {
            try CBORDecoder(limits: limits).decode(hex(encoded))
        }
    }

    @Test(
        "CTAP2 §8: indefinite-length items are rejected",
        arguments: [
            "5f 41 01 ff",  // indefinite byte string
            "7f 61 61 ff",  // indefinite text string
            "9f 01 ff",  // indefinite array
            "bf 61 61 01 ff",  // indefinite map
            "1f", "3f",  // additional information 31 on integers
            "ff",  // a lone "break"
        ]
    )
    func indefiniteLength(_ encoded: String) { Self.expectMalformed(encoded) }

    @Test(
        "CTAP2 §8: heads must use the shortest form, at every width",
        arguments: [
            "1800", "1817", "190000", "1900ff", "1a00000000", "1a0000ffff", "1b0000000000000000", "1b00000000ffffffff",
            "3800", "3817", "3900ff", "3a0000ffff", "3b00000000ffffffff",
            "5800", "5801 00", "590001 00", "7801 61", "7900 01 61", "9800", "9801 01", "9a00000001 01", "b800",
            "b801 01 01",
        ]
    )
    func nonShortestHead(_ encoded: String) { Self.expectMalformed(encoded) }

    @Test(
        "CTAP2 §8: map keys must be in canonical order",
        arguments: [
            "a2 02 00 01 00",  // 2 before 1
            "a2 61 62 00 61 61 00",  // "b" before "a"
            "a2 62 61 61 00 61 62 00",  // "aa" (longer) before "b"
            "a2 61 61 00 01 00",  // text (major 3) before unsigned (major 0)
            "a2 20 00 01 00",  // -1 (major 1) before 1
            "a3 01 00 21 00 20 00",  // -2 before -1
        ]
    )
    func unsortedKeys(_ encoded: String) { Self.expectMalformed(encoded) }

    @Test("Unsorted keys are accepted when canonical order is not required")
    func unsortedKeysTolerated() throws {
        let lenient = CBORLimits(requireCanonicalMapOrder: false)
        let value = try CBORDecoder(limits: lenient).decode(hex("a2 02 00 01 00"))
        #expect(value[int: 1] == .unsigned(0))
        #expect(value[int: 2] == .unsigned(0))
    }

    @Test(
        "RFC 8949 §5.6: duplicate map keys are rejected in canonical mode",
        arguments: [
            "a2 01 00 01 00", "a2 61 61 00 61 61 01", "a3 01 00 02 00 02 00",
        ]
    )
    func duplicateKeysCanonical(_ encoded: String) { Self.expectMalformed(encoded) }

    @Test(
        "RFC 8949 §5.6: duplicate map keys are rejected when order is not required",
        arguments: [
            "a2 01 00 01 00", "a3 01 00 02 00 01 00", "a3 61 62 00 61 61 00 61 62 01",
        ]
    )
    func duplicateKeysLenient(_ encoded: String) {
        Self.expectMalformed(encoded, limits: CBORLimits(requireCanonicalMapOrder: false))
    }

    @Test(
        "CTAP2 §8: tags are rejected",
        arguments: ["c0 60", "c1 00", "c2 41 01", "d8 18 41 00", "d9 d9f7 00", "82 01 c1 00"]
    )
    func tags(_ encoded: String) { Self.expectMalformed(encoded) }

    @Test(
        "RFC 8949 §3.1: text strings must be valid UTF-8",
        arguments: [
            "61 ff", "61 80", "62 c3 28", "62 c0 80",  // invalid byte, lone continuation, bad continuation, overlong
            "63 ed a0 80",  // a UTF-16 surrogate
            "64 f4 90 80 80",  // beyond U+10FFFF
            "62 e6 b0",  // truncated sequence
        ]
    )
    func invalidUTF8(_ encoded: String) { Self.expectMalformed(encoded) }

    @Test(
        "RFC 8949 §3: reserved additional information (28–30) is rejected",
        arguments: [
            "1c", "1d", "1e", "3c", "5d", "7e", "9c", "bd", "fc", "fd", "fe",
        ]
    )
    func reservedAdditionalInformation(_ encoded: String) { Self.expectMalformed(encoded) }

    @Test("Unassigned simple values are rejected", arguments: ["e0", "f3", "f8 20", "f8 ff"])
    func simpleValues(_ encoded: String) { Self.expectMalformed(encoded) }

    @Test(
        "Truncated heads, strings, arrays and maps are rejected",
        arguments: [
            "", "18", "19 00", "1a 00 00 00", "1b 00 00 00 00 00 00 00", "38", "f9 00", "fa 00 00 00",
            "fb 00 00 00 00 00 00 00",
            "42 00", "62 61", "5818", "82 01", "83 01 02", "a1 01", "a2 01 00 02", "81 82 01",
        ]
    )
    func truncated(_ encoded: String) { Self.expectMalformed(encoded) }

    @Test(
        "A length larger than the input is rejected before anything is allocated",
        arguments: [
            "5b 7fffffffffffffff", "5b ffffffffffffffff", "7b 0000000100000000 61", "9b ffffffffffffffff",
            "9b 0000001000000000 00", "bb ffffffffffffffff", "ba ffffffff 01 01", "9a 00010000 00 00",
        ]
    )
    func lengthBeyondInput(_ encoded: String) { Self.expectMalformed(encoded) }

    @Test("decode: trailing bytes after the item are rejected", arguments: ["00 00", "80 00", "a0 ff", "6161 61"])
    func trailingBytes(_ encoded: String) { Self.expectMalformed(encoded) }
}
