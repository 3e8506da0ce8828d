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
            String(hex[hex.index(hex.startIndex, offsetBy: range.lowerBound)..<hex.index(hex.startIndex, offsetBy: range.upperBound)])
        }
        return parts.joined(separator: "-")
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        let hex = text.filter { $0 != "-" }
        var bytes = [UInt8]()
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex), let byte = UInt8(hex[index..<next], radix: 16) {
            bytes.append(byte)
            index = next
        }
        guard bytes.count == 16, index == hex.endIndex else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "An AAGUID is a UUID string."))
        }
        self.bytes = bytes
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
