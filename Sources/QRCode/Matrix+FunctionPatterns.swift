extension Matrix {
    /// The row and column coordinates of alignment pattern centres for versions 2–10 (ISO/IEC 18004 Annex E,
    /// Table E.1); version 1 has none.
    static func alignmentCoordinates(version: Int) -> [Int] {
        switch version {
        case 2: [6, 18]
        case 3: [6, 22]
        case 4: [6, 26]
        case 5: [6, 30]
        case 6: [6, 34]
        case 7: [6, 22, 38]
        case 8: [6, 24, 42]
        case 9: [6, 26, 46]
        case 10: [6, 28, 50]
        default: []
        }
    }

    /// Draws everything that is not data (§6.3): timing patterns, the three finder patterns with their
    /// separators, alignment patterns, the dark module, the version information (versions 7 and up), and
    /// reserves the format information areas, drawn for real once the mask is chosen.
    mutating func drawFunctionPatterns(version: Int) {
        // Timing patterns: row 6 and column 6 alternate dark and light, starting dark; the finders below
        // overwrite their ends.
        for index in 0..<size {
            setFunction(row: 6, column: index, dark: index % 2 == 0)
            setFunction(row: index, column: 6, dark: index % 2 == 0)
        }

        drawFinder(centerRow: 3, centerColumn: 3)
        drawFinder(centerRow: 3, centerColumn: size - 4)
        drawFinder(centerRow: size - 4, centerColumn: 3)

        let coordinates = Self.alignmentCoordinates(version: version)
        for row in coordinates {
            for column in coordinates {
                // The three positions that fall on finder patterns are left out.
                let nearTop = row == coordinates.first
                let nearLeft = column == coordinates.first
                let nearBottom = row == coordinates.last
                let nearRight = column == coordinates.last
                if (nearTop && nearLeft) || (nearTop && nearRight) || (nearBottom && nearLeft) { continue }
                drawAlignment(centerRow: row, centerColumn: column)
            }
        }

        drawFormatInformation(0)
        setFunction(row: size - 8, column: 8, dark: true)  // The dark module.
        if version >= 7 { drawVersionInformation(VersionInformation.bits(version: version)) }
    }

    /// A 7×7 finder pattern (dark ring, light ring, 3×3 dark centre) with its one-module light separator,
    /// clipped to the symbol.
    private mutating func drawFinder(centerRow: Int, centerColumn: Int) {
        for rowOffset in -4...4 {
            for columnOffset in -4...4 {
                let row = centerRow + rowOffset
                let column = centerColumn + columnOffset
                guard (0..<size).contains(row), (0..<size).contains(column) else { continue }
                let ring = max(abs(rowOffset), abs(columnOffset))
                setFunction(row: row, column: column, dark: ring != 2 && ring != 4)
            }
        }
    }

    /// A 5×5 alignment pattern: dark ring, light ring, dark centre module.
    private mutating func drawAlignment(centerRow: Int, centerColumn: Int) {
        for rowOffset in -2...2 {
            for columnOffset in -2...2 {
                let ring = max(abs(rowOffset), abs(columnOffset))
                setFunction(row: centerRow + rowOffset, column: centerColumn + columnOffset, dark: ring != 1)
            }
        }
    }

    /// Draws the 15 format information bits twice (§7.9.1); bit 0 is the least significant.
    ///
    /// First copy, around the top-left finder: bits 0–5 down column 8 in rows 0–5, bit 6 at (7, 8), bit 7 at
    /// (8, 8), bit 8 at (8, 7), bits 9–14 in row 8 from column 5 leftwards to column 0. Second copy: bits 0–7 in
    /// row 8 from the right edge leftwards, bits 8–14 in column 8 from row size − 7 down to the bottom edge.
    mutating func drawFormatInformation(_ bits: Int) {
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { setFunction(row: index, column: 8, dark: bit(index)) }
        setFunction(row: 7, column: 8, dark: bit(6))
        setFunction(row: 8, column: 8, dark: bit(7))
        setFunction(row: 8, column: 7, dark: bit(8))
        for index in 9...14 { setFunction(row: 8, column: 14 - index, dark: bit(index)) }

        for index in 0...7 { setFunction(row: 8, column: size - 1 - index, dark: bit(index)) }
        for index in 8...14 { setFunction(row: size - 15 + index, column: 8, dark: bit(index)) }
    }

    /// Draws the 18 version information bits twice (§7.10); bit 0 is the least significant.
    ///
    /// Bit i is in a 6 × 3 block above the bottom-left finder at row size − 11 + i mod 3, column i div 3, and
    /// in the transposed 3 × 6 block left of the top-right finder.
    private mutating func drawVersionInformation(_ bits: Int) {
        for index in 0..<18 {
            let isDark = (bits >> index) & 1 == 1
            let near = size - 11 + index % 3
            let far = index / 3
            setFunction(row: near, column: far, dark: isDark)
            setFunction(row: far, column: near, dark: isDark)
        }
    }
}
