/// The 15-bit format information of a symbol (ISO/IEC 18004 §7.9): the error correction level's two bits and
/// the mask pattern's three, protected by a (15, 5) BCH code and XORed with 101010000010010 so that no
/// combination is all zeros.
enum FormatInformation {
    /// The generator polynomial of the BCH(15, 5) code: x¹⁰ + x⁸ + x⁵ + x⁴ + x² + x + 1.
    static let generator = 0b101_0011_0111
    /// The pattern the BCH codeword is XORed with.
    static let xorMask = 0b101_0100_0001_0010

    /// The format information bits for `level` and `mask`, most significant bit first as bit 14.
    static func bits(level: ErrorCorrection, mask: MaskPattern) -> Int {
        let data = Int(level.formatBits) << 3 | mask.rawValue
        return (data << 10 | BCH.remainder(of: data << 10, generator: generator)) ^ xorMask
    }
}
