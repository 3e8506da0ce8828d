/// A fast path for decoding the JSON that browsers send, in front of Foundation's `JSONDecoder`.
///
/// The scanner accepts only a conservative subset of JSON: objects, arrays, strings without escapes or
/// control characters (valid UTF-8), `true`, `false`, `null` and plain integers (`-?[1-9][0-9]*` or `0`,
/// at most 18 digits), with ASCII keys that are unique within their object, nested at most
/// ``maximumDepth`` deep, and nothing but JSON white space around the top-level object. For any input in
/// that subset, `JSONDecoder` gives the same values, so the callers decode it here; for anything else
/// (escapes, other numbers, duplicate or non-ASCII keys, a byte-order mark, malformed JSON, a member of
/// the wrong type, a missing member, undecodable base64url) the scanner or the caller gives up and the
/// caller decodes with `JSONDecoder`, which produces the result or the error it always did.
///
/// Other numbers of JSON's grammar are kept as their text (``Value/number(_:)``): a caller that reads a
/// `Double` parses it as `JSONDecoder` does (correctly rounded, finite or give up); every other caller
/// gives up on them.
package struct FastJSON {
    package enum Value {
        /// The byte range of a string's contents (between the quotes).
        case string(Range<Int>)
        case integer(Int)
        /// The byte range of a number outside the integer subset (a fraction, an exponent, `-0`, 19 or more
        /// digits), its grammar checked.
        case number(Range<Int>)
        case bool(Bool)
        case null
        case array([Value])
        case object([Member])
    }

    package struct Member {
        package let key: Range<Int>
        package let value: Value
    }

    static let maximumDepth = 8
    static let maximumMembers = 64
    /// The longest number text kept.
    static let maximumNumberLength = 40

    let bytes: UnsafeBufferPointer<UInt8>

    /// Scans `bytes` as one top-level object, or returns nil when it is outside the subset.
    package static func withObject<T>(_ bytes: [UInt8], _ body: (FastJSON, [Member]) -> T?) -> T? {
        bytes.withUnsafeBufferPointer { buffer in withObject(buffer, body) }
    }

    package static func withObject<T>(_ buffer: UnsafeBufferPointer<UInt8>, _ body: (FastJSON, [Member]) -> T?) -> T? {
        var scanner = Scanner(bytes: buffer)
        guard let members = scanner.scanTopLevelObject() else { return nil }
        return body(FastJSON(bytes: buffer), members)
    }

    // MARK: Reading scanned values

    /// The member named `name` (ASCII), if present.
    package func member(_ name: StaticString, in members: [Member]) -> Value? {
        let nameBytes = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        for member in members where member.key.count == nameBytes.count {
            if UnsafeBufferPointer(rebasing: bytes[member.key]).elementsEqual(nameBytes) { return member.value }
        }
        return nil
    }

    package func string(_ range: Range<Int>) -> String {
        // The scanner validated the UTF-8 of every string.
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// A required string member, or nil when absent or not a string.
    package func requiredString(_ name: StaticString, in members: [Member]) -> String? {
        guard case .string(let range)? = member(name, in: members) else { return nil }
        return string(range)
    }

    /// An optional string member: `.some(nil)` when absent or null, nil (give up) when of another type.
    package func optionalString(_ name: StaticString, in members: [Member]) -> String?? {
        switch member(name, in: members) {
        case nil, .null?: return .some(nil)
        case .string(let range)?: return .some(string(range))
        default: return nil
        }
    }

    /// An optional Boolean member, in the same convention.
    package func optionalBool(_ name: StaticString, in members: [Member]) -> Bool?? {
        switch member(name, in: members) {
        case nil, .null?: return .some(nil)
        case .bool(let value)?: return .some(value)
        default: return nil
        }
    }

    /// A required base64url member, decoded; nil when absent, not a string or not valid base64url.
    func requiredBase64URL(_ name: StaticString, in members: [Member]) -> Base64URLBytes? {
        guard case .string(let range)? = member(name, in: members) else { return nil }
        return base64URL(range)
    }

    func optionalBase64URL(_ name: StaticString, in members: [Member]) -> Base64URLBytes?? {
        switch member(name, in: members) {
        case nil, .null?: return .some(nil)
        case .string(let range)?: return base64URL(range).map { .some($0) }
        default: return nil
        }
    }

    private func base64URL(_ range: Range<Int>) -> Base64URLBytes? {
        guard let decoded = try? Base64URL.decode(utf8: UnsafeBufferPointer(rebasing: bytes[range])) else { return nil }
        return Base64URLBytes(decoded)
    }

    /// A required object member's members.
    package func requiredObject(_ name: StaticString, in members: [Member]) -> [Member]? {
        guard case .object(let object)? = member(name, in: members) else { return nil }
        return object
    }

    /// An optional array of strings, as `[T]` of a WebAuthn string type.
    func optionalStrings<T: WebAuthnStringValue>(_ name: StaticString, in members: [Member], as type: T.Type) -> [T]?? {
        switch member(name, in: members) {
        case nil, .null?: return .some(nil)
        case .array(let items)?:
            var result = [T]()
            result.reserveCapacity(items.count)
            for item in items {
                guard case .string(let range) = item else { return nil }
                result.append(T(rawValue: string(range)))
            }
            return .some(result)
        default: return nil
        }
    }

    /// An optional integer member.
    package func optionalInteger(_ name: StaticString, in members: [Member]) -> Int?? {
        switch member(name, in: members) {
        case nil, .null?: return .some(nil)
        case .integer(let value)?: return .some(value)
        default: return nil
        }
    }

    /// A number as `JSONDecoder` reads a `Double`: nil (give up) for another value or one out of range.
    package func double(_ value: Value) -> Double? {
        switch value {
        case .integer(let integer): return Double(integer)
        case .number(let range):
            let text = string(range)
            guard let double = Double(text), double.isFinite else { return nil }
            // JSONDecoder refuses a number that rounds to zero without being zero (it underflows).
            if double == 0, text.prefix(while: { $0 != "e" && $0 != "E" }).contains(where: { $0 >= "1" && $0 <= "9" }) {
                return nil
            }
            return double
        default: return nil
        }
    }

    /// A required `[String: JSONValue]` member (client extension results). Numbers give up: `JSONValue`
    /// decodes them as `Double`, and the subset leaves that to `JSONDecoder`.
    func requiredJSONObject(_ name: StaticString, in members: [Member]) -> [String: JSONValue]? {
        guard let object = requiredObject(name, in: members) else { return nil }
        return jsonObject(object)
    }

    private func jsonObject(_ members: [Member]) -> [String: JSONValue]? {
        var result = [String: JSONValue](minimumCapacity: members.count)
        for member in members {
            guard let value = jsonValue(member.value) else { return nil }
            result[string(member.key)] = value
        }
        return result
    }

    private func jsonValue(_ value: Value) -> JSONValue? {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .string(let range): return .string(string(range))
        case .integer, .number: return nil
        case .array(let items):
            var result = [JSONValue]()
            result.reserveCapacity(items.count)
            for item in items {
                guard let element = jsonValue(item) else { return nil }
                result.append(element)
            }
            return .array(result)
        case .object(let members):
            return jsonObject(members).map { .object($0) }
        }
    }
}

extension FastJSON {
    /// The scanner: every method returns nil as soon as the input leaves the subset.
    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func scanTopLevelObject() -> [Member]? {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "{") else { return nil }
            guard let members = scanObject(depth: 1) else { return nil }
            skipWhitespace()
            return position == bytes.count ? members : nil
        }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        /// At `{`.
        mutating func scanObject(depth: Int) -> [Member]? {
            guard depth <= FastJSON.maximumDepth else { return nil }
            position += 1
            var members = [Member]()
            members.reserveCapacity(8)
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return members
            }
            while true {
                guard members.count < FastJSON.maximumMembers, position < bytes.count,
                    bytes[position] == UInt8(ascii: "\"")
                else { return nil }
                guard let (key, isASCII) = scanString(), isASCII else { return nil }
                // Keys are unique (compared as bytes, which for ASCII is how JSONDecoder compares them).
                for member in members where member.key.count == key.count {
                    if UnsafeBufferPointer(rebasing: bytes[member.key]).elementsEqual(
                        UnsafeBufferPointer(rebasing: bytes[key])
                    ) {
                        return nil
                    }
                }
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
                position += 1
                skipWhitespace()
                guard let value = scanValue(depth: depth) else { return nil }
                members.append(Member(key: key, value: value))
                skipWhitespace()
                guard position < bytes.count else { return nil }
                switch bytes[position] {
                case UInt8(ascii: ","):
                    position += 1
                    skipWhitespace()
                case UInt8(ascii: "}"):
                    position += 1
                    return members
                default:
                    return nil
                }
            }
        }

        /// At `[`.
        mutating func scanArray(depth: Int) -> [Value]? {
            guard depth <= FastJSON.maximumDepth else { return nil }
            position += 1
            var items = [Value]()
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return items
            }
            while true {
                guard items.count < FastJSON.maximumMembers, let value = scanValue(depth: depth) else { return nil }
                items.append(value)
                skipWhitespace()
                guard position < bytes.count else { return nil }
                switch bytes[position] {
                case UInt8(ascii: ","):
                    position += 1
                    skipWhitespace()
                case UInt8(ascii: "]"):
                    position += 1
                    return items
                default:
                    return nil
                }
            }
        }

        mutating func scanValue(depth: Int) -> Value? {
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "\""):
                guard let (range, _) = scanString() else { return nil }
                return .string(range)
            case UInt8(ascii: "{"):
                return scanObject(depth: depth + 1).map { .object($0) }
            case UInt8(ascii: "["):
                return scanArray(depth: depth + 1).map { .array($0) }
            case UInt8(ascii: "t"):
                return scanLiteral("true") ? .bool(true) : nil
            case UInt8(ascii: "f"):
                return scanLiteral("false") ? .bool(false) : nil
            case UInt8(ascii: "n"):
                return scanLiteral("null") ? .null : nil
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = position
                if let integer = scanInteger() { return .integer(integer) }
                position = start
                return scanNumber().map { .number($0) }
            default:
                return nil
            }
        }

        /// At `"`: a string without escapes or control characters, whose bytes are valid UTF-8.
        mutating func scanString() -> (Range<Int>, isASCII: Bool)? {
            let start = position + 1
            var index = start
            var nonASCII: UInt8 = 0
            let count = bytes.count
            while index < count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let range = start..<index
                    position = index + 1
                    if nonASCII & 0x80 != 0 {
                        guard String(validating: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) != nil
                        else { return nil }
                        return (range, false)
                    }
                    return (range, true)
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                nonASCII |= byte
                index += 1
            }
            return nil
        }

        mutating func scanLiteral(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard bytes.count - position >= count else { return false }
            let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
            guard UnsafeBufferPointer(rebasing: bytes[position..<position + count]).elementsEqual(expected) else {
                return false
            }
            position += count
            return true
        }

        /// `0` or `-?[1-9][0-9]{0,17}`, not followed by a fraction or an exponent; `-0` gives up.
        mutating func scanInteger() -> Int? {
            var negative = false
            if bytes[position] == UInt8(ascii: "-") {
                negative = true
                position += 1
            }
            let start = position
            var value = 0
            while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
                // Give up before a 19th digit: 18 digits always fit in Int, 19 may overflow.
                guard position - start < 18 else { return nil }
                value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
                position += 1
            }
            let digits = position - start
            guard digits > 0 else { return nil }
            if bytes[start] == UInt8(ascii: "0") {
                guard digits == 1, !negative else { return nil }
            }
            if position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
                default: break
                }
            }
            return negative ? -value : value
        }

        /// A number of JSON's grammar, `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, at most
        /// ``FastJSON/maximumNumberLength`` bytes long.
        mutating func scanNumber() -> Range<Int>? {
            let start = position
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
            let integerStart = position
            guard skipDigits() > 0 else { return nil }
            if bytes[integerStart] == UInt8(ascii: "0"), position - integerStart > 1 { return nil }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                guard skipDigits() > 0 else { return nil }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
                {
                    position += 1
                }
                guard skipDigits() > 0 else { return nil }
            }
            guard position - start <= FastJSON.maximumNumberLength else { return nil }
            return start..<position
        }

        /// Skips ASCII digits and returns how many.
        mutating func skipDigits() -> Int {
            let start = position
            while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
                position += 1
            }
            return position - start
        }
    }
}
