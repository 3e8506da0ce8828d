import Testing

@testable import WebAuthn

/// `CBORLimits` bounds depth, item count and size: the item at a limit decodes, one past it fails.
struct CBORLimitTests {
    /// `count` arrays nested in each other, the innermost empty.
    static func nestedArrays(_ count: Int) -> [UInt8] { Array(repeating: 0x81, count: count - 1) + [0x80] }

    @Test("Nesting up to the default depth (16) decodes; one level deeper is INPUT_TOO_LARGE")
    func defaultDepth() throws {
        #expect(CBORLimits.default.maximumDepth == 16)
        _ = try CBORDecoder().decode(Self.nestedArrays(16))
        #expect(throws: code(.inputTooLarge)) { try CBORDecoder().decode(Self.nestedArrays(17)) }
    }

    @Test(
        "A configured depth limit applies to arrays and maps alike",
        arguments: [
            ("81 81 00", true), ("81 81 81 00", false),
            ("a1 00 a1 00 00", true), ("a1 00 a1 00 a1 00 00", false), ("81 a1 00 81 00", false),
        ]
    )
    func configuredDepth(_ encoded: String, _ accepted: Bool) throws {
        let decoder = CBORDecoder(limits: CBORLimits(maximumDepth: 2))
        if accepted {
            _ = try decoder.decode(hex(encoded))
        } else {
            #expect(throws: code(.inputTooLarge)) { try decoder.decode(hex(encoded)) }
        }
    }

    @Test("Very deep nesting fails cleanly instead of exhausting the stack")
    func veryDeep() {
        #expect(throws: code(.inputTooLarge)) { try CBORDecoder().decode(Self.nestedArrays(60_000)) }
    }

    @Test(
        "The item count limit counts every item, keys and values included",
        arguments: [
            ("83 01 02 03", 4, true), ("83 01 02 03", 3, false), ("a1 01 02", 3, true), ("a1 01 02", 2, false),
            ("00", 1, true),
        ]
    )
    func itemCount(_ encoded: String, _ limit: Int, _ accepted: Bool) throws {
        let decoder = CBORDecoder(limits: CBORLimits(maximumItemCount: limit))
        if accepted {
            _ = try decoder.decode(hex(encoded))
        } else {
            #expect(throws: code(.inputTooLarge)) { try decoder.decode(hex(encoded)) }
        }
    }

    @Test("The default item count limit (4096) stops a flat array of many small items")
    func defaultItemCount() throws {
        // An array of 4095 zeros is 4096 items; 4096 zeros is one too many.
        _ = try CBORDecoder().decode([0x99, 0x0F, 0xFF] + Array(repeating: 0, count: 4095))
        #expect(throws: code(.inputTooLarge)) {
            try CBORDecoder().decode([0x99, 0x10, 0x00] + Array(repeating: 0, count: 4096))
        }
    }

    @Test("Input larger than maximumInputSize is INPUT_TOO_LARGE even when well-formed")
    func inputSize() throws {
        let decoder = CBORDecoder(limits: CBORLimits(maximumInputSize: 5))
        _ = try decoder.decode(hex("44 01020304"))
        #expect(throws: code(.inputTooLarge)) { try decoder.decode(hex("45 0102030405")) }
        #expect(throws: code(.inputTooLarge)) { try decoder.decodePrefix(hex("44 01020304 00")[...]) }
    }

    @Test("The default size limit is 64 KiB")
    func defaultInputSize() throws {
        let limit = 64 * 1024
        // A byte string with a two-byte length head: 3 bytes of head, the rest content.
        let fits =
            [0x59] + withUnsafeBytes(of: UInt16(limit - 3).bigEndian, Array.init)
            + Array(repeating: 0, count: limit - 3)
        #expect(fits.count == limit)
        _ = try CBORDecoder().decode(fits)
        let tooLarge =
            [0x59] + withUnsafeBytes(of: UInt16(limit - 2).bigEndian, Array.init)
            + Array(repeating: 0, count: limit - 2)
        #expect(throws: code(.inputTooLarge)) { try CBORDecoder().decode(tooLarge) }
    }
}

/// `decodePrefix` decodes the first item and reports how many bytes it took.
struct CBORDecodePrefixTests {
    @Test(
        "decodePrefix returns the item and the consumed length",
        arguments: [
            ("00 01 02", 1, CBORValue.unsigned(0)),
            ("1903e8 ff ff", 3, .unsigned(1000)),
            ("82 01 02 ff", 3, .array([.unsigned(1), .unsigned(2)])),
            ("a1 61 61 40 a0", 4, .map([CBORMapEntry(.text("a"), .bytes([]))])),
            ("4401020304", 5, .bytes([1, 2, 3, 4])),
        ]
    )
    func consumed(_ encoded: String, _ length: Int, _ expected: CBORValue) throws {
        let (value, consumed) = try CBORDecoder().decodePrefix(hex(encoded)[...])
        #expect(value == expected)
        #expect(consumed == length)
    }

    @Test("decodePrefix works on a slice that does not start at index 0")
    func sliceOffset() throws {
        let bytes = hex("ff ff 1903e8 00")
        let (value, consumed) = try CBORDecoder().decodePrefix(bytes[2...])
        #expect(value == .unsigned(1000))
        #expect(consumed == 3)
        let (next, nextConsumed) = try CBORDecoder().decodePrefix(bytes[(2 + consumed)...])
        #expect(next == .unsigned(0))
        #expect(nextConsumed == 1)
    }

    @Test("decodePrefix still rejects a malformed first item", arguments: ["", "18", "5f 41 00 ff", "1800 00"])
    func malformedPrefix(_ encoded: String) {
        #expect(throws: code(.malformedCBOR)) { try CBORDecoder().decodePrefix(hex(encoded)[...]) }
    }
}
