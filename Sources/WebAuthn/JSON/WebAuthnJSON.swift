import Foundation

/// Bounded JSON decoding and encoding for the Level 3 JSON types.
public enum WebAuthnJSON {
    /// The largest credential or options JSON accepted.
    public static let maximumSize = 256 * 1024

    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(WebAuthnError) -> T {
        guard bytes.count <= maximumSize else {
            throw WebAuthnError(.inputTooLarge, "JSON of \(bytes.count) bytes exceeds the limit of \(maximumSize).")
        }
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch {
            throw WebAuthnError(.malformedJSON, "The JSON is not a valid \(type): \(JSONErrorText.describe(error)).")
        }
    }

    public static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding our own value types cannot fail: they hold only strings, numbers and arrays of them.
        return (try? Array(encoder.encode(value))) ?? []
    }
}
