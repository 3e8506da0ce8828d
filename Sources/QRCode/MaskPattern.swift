/// One of the eight data mask patterns (ISO/IEC 18004 §7.8.2, Table 10). A data module is inverted where its
/// pattern's condition holds, for row i and column j counted from the top-left corner.
struct MaskPattern: Sendable, Hashable, CaseIterable {
    /// The pattern's three-bit reference, 0–7, as the format information carries it.
    let rawValue: Int

    static let allCases = (0..<8).map(MaskPattern.init(rawValue:))

    /// Whether the module at `row`, `column` is inverted.
    func inverts(row i: Int, column j: Int) -> Bool {
        switch rawValue {
        case 0: (i + j) % 2 == 0
        case 1: i % 2 == 0
        case 2: j % 3 == 0
        case 3: (i + j) % 3 == 0
        case 4: (i / 2 + j / 3) % 2 == 0
        case 5: (i * j) % 2 + (i * j) % 3 == 0
        case 6: ((i * j) % 2 + (i * j) % 3) % 2 == 0
        default: ((i + j) % 2 + (i * j) % 3) % 2 == 0
        }
    }
}
