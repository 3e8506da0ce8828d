import Testing

@testable import QRCode

@Suite("Function patterns and data placement")
struct MatrixTests {
    /// Remainder bits per version (Table 1): none for version 1, 7 for versions 2–6, none for 7–10.
    static func remainderBits(version: Int) -> Int { (2...6).contains(version) ? 7 : 0 }

    @Test("the data modules hold exactly the codewords and the remainder bits", arguments: 1...10)
    func dataModules(version: Int) {
        let codewords = BlockStructure(version: version, level: .medium).totalCodewordCount
        #expect(Matrix(version: version).dataModuleCount == codewords * 8 + Self.remainderBits(version: version))
    }

    @Test("every level's blocks add up to the same total codewords of the version", arguments: 1...10)
    func blockTotals(version: Int) {
        let totals = ErrorCorrection.allCases.map { BlockStructure(version: version, level: $0).totalCodewordCount }
        #expect(Set(totals).count == 1)
    }

    @Test("alignment patterns: none in version 1, a dark centre at each listed position away from the finders")
    func alignment() {
        #expect(Matrix.alignmentCoordinates(version: 1).isEmpty)
        let matrix = Matrix(version: 7)
        for (row, column) in [(22, 22), (6, 22), (22, 6), (38, 38), (38, 22), (22, 38)] {
            #expect(matrix[row, column])
            #expect(!matrix[row - 1, column])
            #expect(matrix[row - 2, column - 2])
        }
    }

    @Test("timing patterns alternate, the dark module is dark, finders have light separators", arguments: [1, 2, 10])
    func functionPatterns(version: Int) {
        let matrix = Matrix(version: version)
        let size = matrix.size
        for index in 8..<(size - 8) {
            #expect(matrix[6, index] == (index % 2 == 0))
            #expect(matrix[index, 6] == (index % 2 == 0))
        }
        #expect(matrix[size - 8, 8])
        for index in 0..<8 {
            #expect(!matrix[7, index] && !matrix[index, 7])
            #expect(!matrix[7, size - 1 - index] && !matrix[index, size - 8])
            #expect(!matrix[size - 8, index] && !matrix[size - 1 - index, 7])
        }
        #expect(matrix[0, 0] && matrix[3, 3] && !matrix[1, 1] && matrix[6, 6])
    }

    @Test("the first codeword's bits go up the two right-most columns, right module first")
    func placement() {
        var matrix = Matrix(version: 1)
        matrix.placeData([0b1010_0110] + [UInt8](repeating: 0, count: 25))
        let bits =
            [matrix[20, 20], matrix[20, 19], matrix[19, 20], matrix[19, 19]]
            + [matrix[18, 20], matrix[18, 19], matrix[17, 20], matrix[17, 19]]
        #expect(bits == [true, false, true, false, false, true, true, false])
    }

    /// (mask, row, column, inverted) for each of the eight conditions of Table 10.
    static let maskVectors: [(Int, Int, Int, Bool)] = [
        (0, 0, 0, true), (0, 0, 1, false), (1, 2, 5, true), (1, 3, 5, false),
        (2, 5, 3, true), (2, 5, 4, false), (3, 1, 2, true), (3, 1, 1, false),
        (4, 1, 2, true), (4, 2, 0, false), (5, 6, 1, true), (5, 1, 1, false),
        (6, 1, 1, true), (6, 1, 3, false), (7, 0, 0, true), (7, 1, 1, false),
    ]

    @Test("mask patterns invert the modules where their condition holds", arguments: maskVectors)
    func masks(mask: Int, row: Int, column: Int, inverted: Bool) {
        #expect(MaskPattern(rawValue: mask).inverts(row: row, column: column) == inverted)
    }
}
