import Foundation
import WebAuthn

/// A value that ``JSONWriter`` writes as `JSONEncoder` would encode it: the members its `Encodable` conformance
/// encodes, in sorted order, absent optionals left out.
protocol JSONWritable {
    func write(to writer: inout JSONWriter)
}

extension JSONWriter {
    mutating func member(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    mutating func member(_ name: StaticString, _ value: Bool?) {
        guard let value else { return }
        key(name)
        bool(value)
    }

    mutating func member(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        key(name)
        integer(value)
    }

    mutating func member(_ name: StaticString, _ value: Date?) {
        guard let value else { return }
        key(name)
        date(value)
    }

    mutating func member(_ name: StaticString, _ value: (some JSONWritable)?) {
        guard let value else { return }
        key(name)
        value.write(to: &self)
    }

    mutating func member(_ name: StaticString, _ values: [some JSONWritable]?) {
        guard let values else { return }
        key(name)
        array(values) { writer, value in value.write(to: &writer) }
    }

    mutating func member(_ name: StaticString, _ values: [String]?) {
        guard let values else { return }
        key(name)
        array(values) { writer, value in writer.string(value) }
    }

    /// A WebAuthn enumeration: its string.
    mutating func member<Value: WebAuthnStringValue>(_ name: StaticString, _ value: Value?) {
        member(name, value?.rawValue)
    }

    mutating func member<Value: WebAuthnStringValue>(_ name: StaticString, _ values: [Value]?) {
        member(name, values?.map(\.rawValue))
    }

    /// Binary data: unpadded base64url, as `Base64URLBytes` encodes itself.
    mutating func member(_ name: StaticString, _ value: Base64URLBytes?) {
        member(name, value?.base64URL)
    }

    mutating func member(_ name: StaticString, _ value: [String: JSONValue]?) {
        member(name, value.map(JSONValue.object))
    }
}
