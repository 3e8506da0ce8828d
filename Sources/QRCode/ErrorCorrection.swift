/// The error correction level of a symbol (ISO/IEC 18004 §7.5.1): how much of the symbol can be
/// damaged and still be read, at the price of capacity.
public enum ErrorCorrection: Sendable, Hashable, CaseIterable {
    /// Level L: about 7 % of the codewords can be restored.
    case low
    /// Level M: about 15 % of the codewords can be restored. The default.
    case medium
    /// Level Q: about 25 % of the codewords can be restored.
    case quartile
    /// Level H: about 30 % of the codewords can be restored.
    case high

    /// The level's letter in the standard: L, M, Q or H.
    public var letter: String {
        switch self {
        case .low: "L"
        case .medium: "M"
        case .quartile: "Q"
        case .high: "H"
        }
    }

    /// The two bits that name the level in the format information (§7.9.1): L 01, M 00, Q 11, H 10.
    var formatBits: UInt16 {
        switch self {
        case .low: 0b01
        case .medium: 0b00
        case .quartile: 0b11
        case .high: 0b10
        }
    }
}
