/// A decoded CBOR data item (RFC 8949), restricted to what the CTAP2 canonical form allows.
public indirect enum CBORValue: Sendable, Hashable {
    case unsigned(UInt64)
    /// A negative integer: the value is `-1 - n`.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    /// Map entries in encoded order (the canonical order once decoded).
    case map([CBORMapEntry])
    case boolean(Bool)
    case null
    case undefined
    case float(Double)
}

public struct CBORMapEntry: Sendable, Hashable {
    public var key: CBORValue
    public var value: CBORValue
    public init(_ key: CBORValue, _ value: CBORValue) {
        self.key = key
        self.value = value
    }
}

extension CBORValue {
    /// An integer item as a Swift `Int`, when it fits.
    public var intValue: Int? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): n <= UInt64(Int.max) ? -1 - Int(n) : nil
        default: nil
        }
    }

    public var bytesValue: [UInt8]? {
        if case .bytes(let b) = self { b } else { nil }
    }

    public var textValue: String? {
        if case .text(let t) = self { t } else { nil }
    }

    public var arrayValue: [CBORValue]? {
        if case .array(let a) = self { a } else { nil }
    }

    public var mapEntries: [CBORMapEntry]? {
        if case .map(let m) = self { m } else { nil }
    }

    /// The value for `key` in a map item.
    public subscript(key: CBORValue) -> CBORValue? {
        mapEntries?.first { $0.key == key }?.value
    }

    public subscript(text key: String) -> CBORValue? { self[.text(key)] }
    public subscript(int key: Int) -> CBORValue? { self[CBORValue(key)] }

    public init(_ integer: Int) {
        self = integer >= 0 ? .unsigned(UInt64(integer)) : .negative(UInt64(-1 - integer))
    }
}
