import Testing

@testable import QRCode

@Suite("Format and version information")
struct FormatInformationTests {
    /// Format information bits for (level, mask) pairs, as the standard's Annex C tabulates them.
    static let formatVectors: [(ErrorCorrection, Int, Int)] = [
        (.medium, 0, 0b101_0100_0001_0010),
        (.medium, 5, 0b100_0000_1100_1110),
        (.medium, 7, 0b100_1010_1010_0000),
        (.low, 0, 0b111_0111_1100_0100),
        (.quartile, 0, 0b011_0101_0101_1111),
        (.high, 0, 0b001_0110_1000_1001),
    ]

    @Test("format information for known (level, mask) pairs", arguments: formatVectors)
    func format(level: ErrorCorrection, mask: Int, bits: Int) {
        #expect(FormatInformation.bits(level: level, mask: MaskPattern(rawValue: mask)) == bits)
    }

    @Test("the 32 format words are distinct and differ pairwise in at least 7 bits")
    func formatDistance() {
        let words = ErrorCorrection.allCases.flatMap { level in
            MaskPattern.allCases.map { FormatInformation.bits(level: level, mask: $0) }
        }
        #expect(Set(words).count == 32)
        for (index, word) in words.enumerated() {
            for other in words[(index + 1)...] { #expect((word ^ other).nonzeroBitCount >= 7) }
        }
    }

    @Test(
        "version information for versions 7–10",
        arguments: [(7, 0x07C94), (8, 0x085BC), (9, 0x09A99), (10, 0x0A4D3)]
    )
    func version(version: Int, bits: Int) {
        #expect(VersionInformation.bits(version: version) == bits)
    }

    @Test("the format information is drawn twice and reads back as the chosen level and mask", arguments: [1, 7, 10])
    func drawnFormat(version: Int) throws {
        let code = try QRCode(bytes: [UInt8](repeating: 0x2A, count: QRCode.byteCapacity(version: version)))
        let size = code.size
        func bit(_ dark: Bool, _ index: Int) -> Int { dark ? 1 << index : 0 }
        var first = 0
        var second = 0
        for index in 0...5 { first |= bit(code.isDark(row: index, column: 8), index) }
        first |= bit(code.isDark(row: 7, column: 8), 6)
        first |= bit(code.isDark(row: 8, column: 8), 7)
        first |= bit(code.isDark(row: 8, column: 7), 8)
        for index in 9...14 { first |= bit(code.isDark(row: 8, column: 14 - index), index) }
        for index in 0...7 { second |= bit(code.isDark(row: 8, column: size - 1 - index), index) }
        for index in 8...14 { second |= bit(code.isDark(row: size - 15 + index, column: 8), index) }
        let expected = FormatInformation.bits(level: .medium, mask: MaskPattern(rawValue: code.maskPattern))
        #expect(first == expected)
        #expect(second == expected)
    }
}
