/// The penalty score of a masked symbol (ISO/IEC 18004 §7.8.3, Table 11): the encoder chooses the mask whose
/// symbol scores lowest. Scored over the whole symbol, function patterns and format information included.
enum Penalty {
    /// N1: five or more modules of one colour in a row or column score 3, plus 1 for each module beyond five.
    static let runScore = 3
    /// N2: every 2 × 2 block of one colour scores 3 (overlapping blocks each count).
    static let blockScore = 3
    /// N3: every 1:1:3:1:1 finder-like pattern with four light modules on one side scores 40.
    static let finderScore = 40
    /// N4: 10 for every full 5 % by which the proportion of dark modules deviates from 50 %.
    static let balanceScore = 10

    /// The total penalty of `matrix`.
    static func score(_ matrix: Matrix) -> Int {
        let size = matrix.size
        var total = 0
        for index in 0..<size {
            let row = (0..<size).map { matrix[index, $0] }
            let column = (0..<size).map { matrix[$0, index] }
            total += runs(in: row) + runs(in: column) + finderPatterns(in: row) + finderPatterns(in: column)
        }
        total += blocks(in: matrix) + balance(of: matrix)
        return total
    }

    /// N1 for one line of modules.
    static func runs(in line: [Bool]) -> Int {
        var total = 0
        var start = 0
        while start < line.count {
            var end = start
            while end < line.count && line[end] == line[start] { end += 1 }
            let length = end - start
            if length >= 5 { total += runScore + (length - 5) }
            start = end
        }
        return total
    }

    /// N2 for the whole symbol.
    static func blocks(in matrix: Matrix) -> Int {
        var total = 0
        for row in 0..<(matrix.size - 1) {
            for column in 0..<(matrix.size - 1) {
                let color = matrix[row, column]
                if matrix[row, column + 1] == color && matrix[row + 1, column] == color
                    && matrix[row + 1, column + 1] == color
                {
                    total += blockScore
                }
            }
        }
        return total
    }

    /// Dark, light, dark, dark, dark, light, dark: the 1:1:3:1:1 ratio of a finder pattern at one module
    /// per unit.
    private static let finderCore: [Bool] = [true, false, true, true, true, false, true]
    private static let lightFour: [Bool] = [false, false, false, false]

    /// N3 for one line of modules: each finder-like core preceded or followed by four light modules within
    /// the symbol (a core with light on both sides counts once per side).
    static func finderPatterns(in line: [Bool]) -> Int {
        let before = lightFour + finderCore
        let after = finderCore + lightFour
        var total = 0
        guard line.count >= before.count else { return 0 }
        for start in 0...(line.count - before.count) {
            let window = line[start..<(start + before.count)]
            if window.elementsEqual(before) { total += finderScore }
            if window.elementsEqual(after) { total += finderScore }
        }
        return total
    }

    /// N4 for the whole symbol.
    static func balance(of matrix: Matrix) -> Int {
        let total = matrix.size * matrix.size
        var darkCount = 0
        for row in 0..<matrix.size {
            for column in 0..<matrix.size where matrix[row, column] { darkCount += 1 }
        }
        // |dark / total − 1/2| in whole steps of 5 %, computed in integers.
        let deviation = abs(darkCount * 20 - total * 10)
        return deviation / total * balanceScore
    }
}
