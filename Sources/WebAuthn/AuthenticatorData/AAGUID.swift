/// The 16-byte Authenticator Attestation GUID (WebAuthn §6.5.1), identifying an authenticator model.
public struct AAGUID: Sendable, Hashable, CustomStringConvertible, Codable {
    public let bytes: [UInt8]

    public static let zero = AAGUID(unchecked: [UInt8](repeating: 0, count: 16))

    init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    public init(bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count == 16 else {
            throw WebAuthnError(.malformedAuthenticatorData, "An AAGUID is 16 bytes, not \(bytes.count).")
        }
        self.bytes = bytes
    }

    /// The canonical lower-case UUID form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
    public var description: String {
        let hex = bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(
                hex[
                    hex.index(
                        hex.startIndex,
                        offsetBy: range.lowerBound
                    )..<hex.index(hex.startIndex, offsetBy: range.upperBound)
                ]
            )
        }
        return parts.joined(separator: "-")
    }

    /// Parses the UUID form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (hex digits of either case); nil for anything else.
    public init?(uuidString: String) {
        let text = Array(uuidString.utf8)
        guard text.count == 36 else { return nil }
        let dashes: Set<Int> = [8, 13, 18, 23]
        var bytes = [UInt8]()
        var high: UInt8?
        for (index, character) in text.enumerated() {
            if dashes.contains(index) {
                guard character == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let nibble = Self.hexValue(character) else { return nil }
            if let h = high {
                bytes.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        self.bytes = bytes
    }

    public init(from decoder: any Decoder) throws {
        guard let aaguid = Self(uuidString: try decoder.singleValueContainer().decode(String.self)) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "An AAGUID is a UUID string: 8-4-4-4-12 hex digits."
                )
            )
        }
        self = aaguid
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
