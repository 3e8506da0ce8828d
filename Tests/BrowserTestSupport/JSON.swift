import Foundation
public import WebAuthn

/// A JSON value — what DevTools commands take and return, and what `Page.evaluate` gives back — is the
/// WebAuthn library's `JSONValue`, with the accessors and literals a driver wants.
public typealias JSON = JSONValue

extension JSONValue {
    public subscript(key: String) -> JSON? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    public subscript(index: Int) -> JSON? {
        if case .array(let elements) = self, elements.indices.contains(index) { elements[index] } else { nil }
    }

    public var string: String? { if case .string(let value) = self { value } else { nil } }
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var double: Double? { if case .number(let value) = self { value } else { nil } }
    public var int: Int? { double.flatMap { Int(exactly: $0) } }
    public var array: [JSON]? { if case .array(let value) = self { value } else { nil } }
    public var object: [String: JSON]? { if case .object(let value) = self { value } else { nil } }
    public var isNull: Bool { self == .null }

    /// Parses JSON text.
    public static func parse(_ text: String) throws(BrowserError) -> JSON {
        do {
            return try JSONDecoder().decode(JSON.self, from: Data(text.utf8))
        } catch {
            throw .unexpected("Not JSON (\(error)): \(text.prefix(200))")
        }
    }

    /// The JSON text of this value, keys sorted (whole numbers without a fraction, as DevTools wants them).
    /// A string's text is also a JavaScript string literal.
    public var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Only a non-finite number cannot be encoded, and no DevTools value holds one.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { text }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
