/// The 18-bit version information of versions 7 and up (ISO/IEC 18004 §7.10): the version number's six bits
/// protected by an (18, 6) BCH code.
enum VersionInformation {
    /// The generator polynomial of the BCH(18, 6) code: x¹² + x¹¹ + x¹⁰ + x⁹ + x⁸ + x⁵ + x² + 1.
    static let generator = 0b1_1111_0010_0101

    /// The version information bits for `version` (7–40).
    static func bits(version: Int) -> Int {
        version << 12 | BCH.remainder(of: version << 12, generator: generator)
    }
}
