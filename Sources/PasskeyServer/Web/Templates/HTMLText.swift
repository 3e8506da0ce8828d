/// Text made safe for HTML, escaped on Unicode scalars.
///
/// Escaping must look at scalars, never at `Character`s: a grapheme cluster such as `"` followed by U+0301, or
/// U+0D4E followed by `<`, is one `Character` that is neither `"` nor `<`, yet an HTML parser reads its `"` or `<`
/// all the same. Every value a page shows goes through ``escape(_:)``, in element content and in quoted attribute
/// values alike.
enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references, and NUL (which HTML parsers drop
    /// or replace inconsistently) by U+FFFD.
    static func escape(_ text: String) -> String {
        var escaped = String.UnicodeScalarView()
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped.append(contentsOf: "&amp;".unicodeScalars)
            case "<": escaped.append(contentsOf: "&lt;".unicodeScalars)
            case ">": escaped.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": escaped.append(contentsOf: "&quot;".unicodeScalars)
            case "'": escaped.append(contentsOf: "&#39;".unicodeScalars)
            case "\u{0}": escaped.append("\u{FFFD}")
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// A template's values with every text escaped: strings anywhere in nested dictionaries and arrays, and any
    /// other value by its description. Numbers and booleans (which sections test) stay as they are.
    static func escapeValues(_ value: Any) -> Any {
        switch value {
        case let text as String: escape(text)
        case let dictionary as [String: Any]: dictionary.mapValues(escapeValues)
        case let array as [Any]: array.map(escapeValues)
        case is Bool, is Int: value
        default: escape(String(describing: value))
        }
    }
}
