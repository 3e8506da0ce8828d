/// Unpadded base64url (RFC 4648 §5), the encoding of every binary field in WebAuthn's JSON.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Encodes bytes as unpadded base64url.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var output = [UInt8]()
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var iterator = bytes.makeIterator()
        while let b0 = iterator.next() {
            let b1 = iterator.next()
            let b2 = iterator.next()
            output.append(alphabet[Int(b0 >> 2)])
            output.append(alphabet[Int((b0 & 0x03) << 4 | (b1 ?? 0) >> 4)])
            if let b1 { output.append(alphabet[Int((b1 & 0x0F) << 2 | (b2 ?? 0) >> 6)]) }
            if let b2 { output.append(alphabet[Int(b2 & 0x3F)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes unpadded base64url. Trailing `=` padding is tolerated when it is correct; the standard
    /// alphabet's `+` and `/`, white space and non-zero trailing bits are rejected.
    public static func decode(_ text: some StringProtocol) throws(WebAuthnError) -> [UInt8] {
        var utf8 = Array(text.utf8)
        if utf8.count % 4 == 0, utf8.last == UInt8(ascii: "=") {
            utf8.removeLast()
            if utf8.last == UInt8(ascii: "=") { utf8.removeLast() }
        }
        guard utf8.count % 4 != 1 else {
            throw WebAuthnError(.invalidBase64URL, "A base64url string cannot have \(utf8.count) significant characters; send the value unpadded and unmodified.")
        }
        var output = [UInt8]()
        output.reserveCapacity(utf8.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in utf8 {
            let value = decodeTable[Int(byte)]
            guard value != 0xFF else {
                throw WebAuthnError(.invalidBase64URL, "The character '\(Unicode.Scalar(byte))' is not in the base64url alphabet (A–Z, a–z, 0–9, '-', '_'); encode binary fields as unpadded base64url.")
            }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        guard accumulator & ((1 << UInt32(bits)) - 1) == 0 else {
            throw WebAuthnError(.invalidBase64URL, "The base64url string has non-zero padding bits; it is not a canonical encoding.")
        }
        return output
    }
}
