/// The element structure of an HTML document as a browser's tokenizer sees it (WHATWG HTML §13.2.5, the states
/// that our pages can reach): each start tag with its attribute names, and each end tag. Text, comments and the
/// contents of raw-text elements are left out, so two renderings of a page whose texts differ have the same
/// structure exactly when no text became markup.
///
/// It works on Unicode scalars, as the tokenizer does: a `<` or `"` joined to a combining mark is still a `<` or `"`.
enum HTMLStructure {
    static func tokens(_ html: String) -> [String] {
        var reader = Reader(Array(html.unicodeScalars))
        var tokens: [String] = []
        while let scalar = reader.next() {
            guard scalar == "<", let following = reader.peek() else { continue }
            if following.isASCIILetter {
                let tag = reader.tag()
                tokens.append("<" + ([tag.name] + tag.attributes).joined(separator: " ") + ">")
                if ["script", "style", "title", "textarea"].contains(tag.name) { reader.skipRawText(tag.name) }
            } else if following == "/", reader.peek(1)?.isASCIILetter == true {
                _ = reader.next()
                tokens.append("</" + reader.tag().name + ">")
            } else if following == "!" || following == "?" {
                reader.skipComment()
            }
        }
        return tokens
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }

        mutating func next() -> Unicode.Scalar? {
            defer { index += 1 }
            return peek()
        }

        /// A tag after its `<` (or `</`): its lowercased name and attribute names, up to and including its `>`.
        mutating func tag() -> (name: String, attributes: [String]) {
            let name = read { !$0.isTagSpace && $0 != "/" && $0 != ">" }.lowercased()
            var attributes: [String] = []
            while let scalar = next() {
                if scalar == ">" { break }
                if scalar.isTagSpace || scalar == "/" { continue }
                index -= 1
                // §13.2.5.33: a name runs to white space, `/`, `>` or `=`; its first scalar may even be `=`.
                let first = next().map { String($0) } ?? ""
                attributes.append((first + read { !$0.isTagSpace && $0 != "/" && $0 != ">" && $0 != "=" }).lowercased())
                skip { $0.isTagSpace }
                guard peek() == "=" else { continue }
                _ = next()
                skip { $0.isTagSpace }
                if let quote = peek(), quote == "\"" || quote == "'" {
                    _ = next()
                    _ = read { $0 != quote }
                    _ = next()
                } else {
                    _ = read { !$0.isTagSpace && $0 != ">" }
                }
            }
            return (name, attributes)
        }

        mutating func skipRawText(_ name: String) {
            let end = Array(("</" + name).unicodeScalars)
            while index < scalars.count {
                if Array(scalars[index..<min(scalars.count, index + end.count)]).map({ $0.lowercased }) == end {
                    return
                }
                index += 1
            }
        }

        mutating func skipComment() {
            if peek() == "!", peek(1) == "-", peek(2) == "-" {
                index += 3
                while index < scalars.count, !(peek() == "-" && peek(1) == "-" && peek(2) == ">") { index += 1 }
                index += 3
            } else {
                skip { $0 != ">" }
                index += 1
            }
        }

        mutating func read(while condition: (Unicode.Scalar) -> Bool) -> String {
            var text = String.UnicodeScalarView()
            while let scalar = peek(), condition(scalar) {
                text.append(scalar)
                index += 1
            }
            return String(text)
        }

        mutating func skip(while condition: (Unicode.Scalar) -> Bool) { _ = read(while: condition) }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    fileprivate var isTagSpace: Bool { self == " " || self == "\t" || self == "\n" || self == "\u{C}" || self == "\r" }
    fileprivate var lowercased: Unicode.Scalar { ("A"..."Z").contains(self) ? Unicode.Scalar(value + 32)! : self }
}
