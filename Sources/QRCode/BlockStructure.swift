/// How the codewords of one version and error correction level are split into Reed–Solomon blocks
/// (ISO/IEC 18004 Table 9): `shortBlocks` blocks of `shortBlockDataCount` data codewords followed by
/// `longBlocks` blocks with one data codeword more; every block has `ecCodewordsPerBlock` error correction
/// codewords.
struct BlockStructure: Sendable, Hashable {
    let ecCodewordsPerBlock: Int
    let shortBlocks: Int
    let shortBlockDataCount: Int
    let longBlocks: Int

    var blockCount: Int { shortBlocks + longBlocks }

    /// The number of data codewords of the whole symbol.
    var dataCodewordCount: Int { blockCount * shortBlockDataCount + longBlocks }

    /// The number of codewords of the whole symbol, data and error correction.
    var totalCodewordCount: Int { dataCodewordCount + blockCount * ecCodewordsPerBlock }

    /// The number of data codewords of block `index` (short blocks come first).
    func dataCount(ofBlock index: Int) -> Int {
        index < shortBlocks ? shortBlockDataCount : shortBlockDataCount + 1
    }

    /// The block structure of `version` (1–10) at `level`.
    init(version: Int, level: ErrorCorrection) {
        let row = Self.table[version - 1]
        let entry: Entry =
            switch level {
            case .low: row.low
            case .medium: row.medium
            case .quartile: row.quartile
            case .high: row.high
            }
        self.ecCodewordsPerBlock = entry.ec
        self.shortBlocks = entry.shortBlocks
        self.shortBlockDataCount = entry.shortData
        self.longBlocks = entry.longBlocks
    }

    private typealias Entry = (ec: Int, shortBlocks: Int, shortData: Int, longBlocks: Int)

    /// Table 9 for versions 1–10: per level, (EC codewords per block, short blocks, data codewords of a short
    /// block, long blocks).
    private static let table: [(low: Entry, medium: Entry, quartile: Entry, high: Entry)] = [
        ((7, 1, 19, 0), (10, 1, 16, 0), (13, 1, 13, 0), (17, 1, 9, 0)),
        ((10, 1, 34, 0), (16, 1, 28, 0), (22, 1, 22, 0), (28, 1, 16, 0)),
        ((15, 1, 55, 0), (26, 1, 44, 0), (18, 2, 17, 0), (22, 2, 13, 0)),
        ((20, 1, 80, 0), (18, 2, 32, 0), (26, 2, 24, 0), (16, 4, 9, 0)),
        ((26, 1, 108, 0), (24, 2, 43, 0), (18, 2, 15, 2), (22, 2, 11, 2)),
        ((18, 2, 68, 0), (16, 4, 27, 0), (24, 4, 19, 0), (28, 4, 15, 0)),
        ((20, 2, 78, 0), (18, 4, 31, 0), (18, 2, 14, 4), (26, 4, 13, 1)),
        ((24, 2, 97, 0), (22, 2, 38, 2), (22, 4, 18, 2), (26, 4, 14, 2)),
        ((30, 2, 116, 0), (22, 3, 36, 2), (20, 4, 16, 4), (24, 4, 12, 4)),
        ((18, 2, 68, 2), (26, 4, 43, 1), (24, 6, 19, 2), (28, 6, 15, 2)),
    ]
}
