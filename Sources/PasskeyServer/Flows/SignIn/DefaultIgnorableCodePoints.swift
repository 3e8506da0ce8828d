/// The code points with the Unicode property `Default_Ignorable_Code_Point`: characters a renderer shows as nothing
/// (zero-width spaces and joiners, direction marks, variation selectors, fillers, tags). Source: the Unicode
/// Character Database, `DerivedCoreProperties.txt`, property `Default_Ignorable_Code_Point` (Unicode 16.0); each line
/// below is one range of that file, merged where ranges touch.
enum DefaultIgnorableCodePoints {
    static let ranges: [ClosedRange<UInt32>] = [
        0x00AD...0x00AD,  // SOFT HYPHEN
        0x034F...0x034F,  // COMBINING GRAPHEME JOINER
        0x061C...0x061C,  // ARABIC LETTER MARK
        0x115F...0x1160,  // HANGUL CHOSEONG FILLER, HANGUL JUNGSEONG FILLER
        0x17B4...0x17B5,  // KHMER VOWEL INHERENT AQ, KHMER VOWEL INHERENT AA
        0x180B...0x180F,  // MONGOLIAN FREE VARIATION SELECTORS ONE to FOUR, MONGOLIAN VOWEL SEPARATOR
        0x200B...0x200F,  // ZERO WIDTH SPACE to RIGHT-TO-LEFT MARK
        0x202A...0x202E,  // LEFT-TO-RIGHT EMBEDDING to RIGHT-TO-LEFT OVERRIDE
        0x2060...0x206F,  // WORD JOINER to NOMINAL DIGIT SHAPES (the isolates, and reserved U+2065)
        0x3164...0x3164,  // HANGUL FILLER
        0xFE00...0xFE0F,  // VARIATION SELECTOR-1 to VARIATION SELECTOR-16
        0xFEFF...0xFEFF,  // ZERO WIDTH NO-BREAK SPACE
        0xFFA0...0xFFA0,  // HALFWIDTH HANGUL FILLER
        0xFFF0...0xFFF8,  // reserved
        0x1BCA0...0x1BCA3,  // SHORTHAND FORMAT LETTER OVERLAP to SHORTHAND FORMAT UP STEP
        0x1D173...0x1D17A,  // MUSICAL SYMBOL BEGIN BEAM to MUSICAL SYMBOL END PHRASE
        0xE0000...0xE0FFF,  // tags (U+E0000 to U+E007F), VARIATION SELECTOR-17 to 256, reserved
    ]

    static func contains(_ scalar: Unicode.Scalar) -> Bool {
        ranges.contains { $0.contains(scalar.value) }
    }
}
