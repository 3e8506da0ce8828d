/// Binary data that travels in JSON as unpadded base64url, as in every WebAuthn Level 3 JSON type.
public struct Base64URLBytes: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByArrayLiteral {
    public var bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public init(arrayLiteral elements: UInt8...) { self.bytes = elements }

    public init(base64URL text: String) throws(WebAuthnError) {
        self.bytes = try Base64URL.decode(text)
    }

    public var base64URL: String { Base64URL.encode(bytes) }
    public var description: String { base64URL }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            self.bytes = try Base64URL.decode(text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.reason))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(base64URL)
    }
}
