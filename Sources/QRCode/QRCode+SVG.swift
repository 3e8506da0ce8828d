extension QRCode {
    /// The symbol as a standalone SVG document: dark modules as one black `<path>` on a white background.
    ///
    /// The `viewBox` counts modules, quiet zone included; `width` and `height` are that many modules times
    /// `moduleSize` pixels. `shape-rendering="crispEdges"` keeps module edges sharp when scaled.
    ///
    /// - Parameters:
    ///   - moduleSize: The width of one module in pixels, at least 1.
    ///   - quietZone: The light margin around the symbol in modules, at least 0; the standard asks for 4.
    ///   - title: An accessible name, emitted as the document's `<title>` when given (XML-escaped).
    public func svg(moduleSize: Int = 8, quietZone: Int = 4, title: String? = nil) -> String {
        let margin = max(0, quietZone)
        let side = size + 2 * margin
        let pixels = side * max(1, moduleSize)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(pixels)" height="\(pixels)" \
            viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">
            """
        if let title { svg += "<title>\(Self.escapeXML(title))</title>" }
        svg += "<rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/>"
        svg += "<path fill=\"#000\" d=\"\(pathData(offset: margin))\"/>"
        svg += "</svg>\n"
        return svg
    }

    /// The path of the dark modules: one rectangle per horizontal run of dark modules in a row.
    private func pathData(offset: Int) -> String {
        var commands: [String] = []
        for row in 0..<size {
            var column = 0
            while column < size {
                guard isDark(row: row, column: column) else {
                    column += 1
                    continue
                }
                let start = column
                while column < size && isDark(row: row, column: column) { column += 1 }
                let length = column - start
                commands.append("M\(start + offset) \(row + offset)h\(length)v1h-\(length)z")
            }
        }
        return commands.joined()
    }

    /// `text` with the five XML special characters as entities, and the characters XML 1.0 cannot carry at all
    /// (C0 controls other than tab, line feed and carriage return; U+FFFE; U+FFFF) replaced by U+FFFD.
    /// Works on Unicode scalars, not characters, so a combining mark after a special character cannot hide it.
    static func escapeXML(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                result.unicodeScalars.append("\u{FFFD}")
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
