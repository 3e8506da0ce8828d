/// The square grid of modules of a symbol under construction: which modules are dark, and which belong to
/// function patterns (finder, separator, timing, alignment, format and version information, the dark module)
/// and so are neither data nor masked.
struct Matrix: Sendable, Hashable {
    let size: Int
    private(set) var dark: [Bool]
    private(set) var isFunction: [Bool]

    /// An empty grid for `version` with its function patterns drawn and the format and version information
    /// areas reserved.
    init(version: Int) {
        self.size = 17 + 4 * version
        self.dark = [Bool](repeating: false, count: size * size)
        self.isFunction = [Bool](repeating: false, count: size * size)
        drawFunctionPatterns(version: version)
    }

    subscript(row: Int, column: Int) -> Bool {
        dark[row * size + column]
    }

    /// Sets a module of a function pattern.
    mutating func setFunction(row: Int, column: Int, dark isDark: Bool) {
        dark[row * size + column] = isDark
        isFunction[row * size + column] = true
    }

    func isFunction(row: Int, column: Int) -> Bool {
        isFunction[row * size + column]
    }

    /// Places the codewords' bits in the data modules (ISO/IEC 18004 §7.7.3): in columns two modules wide
    /// from the right edge leftwards, going up the first pair, down the next and so on, right module before
    /// left; the vertical timing pattern's column is skipped as a whole. Modules left over are the remainder
    /// bits, which are zero.
    mutating func placeData(_ codewords: [UInt8]) {
        let bitCount = codewords.count * 8
        var bitIndex = 0
        var upward = true
        var right = size - 1
        while right > 0 {
            if right == 6 { right = 5 }  // Column 6 holds the vertical timing pattern.
            for step in 0..<size {
                let row = upward ? size - 1 - step : step
                for column in [right, right - 1] where !isFunction(row: row, column: column) {
                    if bitIndex < bitCount {
                        let byte = codewords[bitIndex / 8]
                        dark[row * size + column] = (byte >> UInt8(7 - bitIndex % 8)) & 1 == 1
                        bitIndex += 1
                    }
                }
            }
            upward.toggle()
            right -= 2
        }
    }

    /// Inverts every data module for which `mask` holds.
    mutating func apply(_ mask: MaskPattern) {
        for row in 0..<size {
            for column in 0..<size where mask.inverts(row: row, column: column) {
                if !isFunction(row: row, column: column) { dark[row * size + column].toggle() }
            }
        }
    }

    /// The number of modules that are not function patterns: the room for codewords and remainder bits.
    var dataModuleCount: Int { isFunction.lazy.filter { !$0 }.count }
}
