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
        bytes.withContiguousStorageIfAvailable(encode(contiguous:))
            ?? Array(bytes).withUnsafeBufferPointer(encode(contiguous:))
    }

    /// Three bytes at a time into four characters, written straight into the string's storage.
    static func encode(contiguous input: UnsafeBufferPointer<UInt8>) -> String {
        let count = (input.count * 4 + 2) / 3
        return String(unsafeUninitializedCapacity: count) { output in
            alphabet.withUnsafeBufferPointer { table in
                var index = 0
                var written = 0
                while index + 3 <= input.count {
                    let group = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                    output[written] = table[Int(group >> 18)]
                    output[written + 1] = table[Int(group >> 12 & 0x3F)]
                    output[written + 2] = table[Int(group >> 6 & 0x3F)]
                    output[written + 3] = table[Int(group & 0x3F)]
                    index += 3
                    written += 4
                }
                let remaining = input.count - index
                if remaining > 0 {
                    let group = UInt32(input[index]) << 16 | (remaining == 2 ? UInt32(input[index + 1]) << 8 : 0)
                    output[written] = table[Int(group >> 18)]
                    output[written + 1] = table[Int(group >> 12 & 0x3F)]
                    if remaining == 2 { output[written + 2] = table[Int(group >> 6 & 0x3F)] }
                }
            }
            return count
        }
    }

    /// Decodes unpadded base64url. Trailing `=` padding is tolerated when it is correct; the standard
    /// alphabet's `+` and `/`, white space and non-zero trailing bits are rejected.
    public static func decode(_ text: some StringProtocol) throws(WebAuthnError) -> [UInt8] {
        var text = String(text)
        let result = text.withUTF8 { utf8 in Result { () throws(WebAuthnError) in try decode(utf8: utf8) } }
        return try result.get()
    }

    /// Decodes the UTF-8 bytes of unpadded base64url text, as ``decode(_:)``.
    static func decode(utf8 input: UnsafeBufferPointer<UInt8>) throws(WebAuthnError) -> [UInt8] {
        var count = input.count
        if count % 4 == 0, count > 0, input[count - 1] == UInt8(ascii: "=") {
            count -= 1
            if count > 0, input[count - 1] == UInt8(ascii: "=") { count -= 1 }
        }
        guard count % 4 != 1 else {
            throw WebAuthnError(
                .invalidBase64URL,
                "A base64url string cannot have \(count) significant characters; send the value unpadded and unmodified."
            )
        }
        let fullQuads = count / 4
        let remainder = count % 4
        let outputCount = fullQuads * 3 + (remainder == 0 ? 0 : remainder - 1)
        return try decodeTable.withUnsafeBufferPointer { table throws(WebAuthnError) -> [UInt8] in
            // The first character outside the alphabet, reported as the character-by-character decoder did.
            func invalidCharacter(from start: Int) -> WebAuthnError {
                var index = start
                while table[Int(input[index])] != 0xFF { index += 1 }
                return WebAuthnError(
                    .invalidBase64URL,
                    "The character '\(Unicode.Scalar(input[index]))' is not in the base64url alphabet (A–Z, a–z, 0–9, '-', '_'); encode binary fields as unpadded base64url."
                )
            }
            var failure: WebAuthnError?
            let output = [UInt8](unsafeUninitializedCapacity: outputCount) { buffer, initialized in
                var out = 0
                var index = 0
                for _ in 0..<fullQuads {
                    let a = table[Int(input[index])]
                    let b = table[Int(input[index + 1])]
                    let c = table[Int(input[index + 2])]
                    let d = table[Int(input[index + 3])]
                    guard (a | b | c | d) & 0x80 == 0 else {
                        failure = invalidCharacter(from: index)
                        return
                    }
                    let quad = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    buffer[out] = UInt8(truncatingIfNeeded: quad >> 16)
                    buffer[out + 1] = UInt8(truncatingIfNeeded: quad >> 8)
                    buffer[out + 2] = UInt8(truncatingIfNeeded: quad)
                    out += 3
                    index += 4
                }
                if remainder > 0 {
                    var accumulator: UInt32 = 0
                    for offset in 0..<remainder {
                        let value = table[Int(input[index + offset])]
                        guard value != 0xFF else {
                            failure = invalidCharacter(from: index)
                            return
                        }
                        accumulator = accumulator << 6 | UInt32(value)
                    }
                    // 2 characters carry 1 byte and 4 spare bits; 3 carry 2 bytes and 2 spare bits.
                    let spareBits: UInt32 = remainder == 2 ? 4 : 2
                    guard accumulator & ((1 << spareBits) - 1) == 0 else {
                        failure = WebAuthnError(
                            .invalidBase64URL,
                            "The base64url string has non-zero padding bits; it is not a canonical encoding."
                        )
                        return
                    }
                    let bits = accumulator >> spareBits
                    if remainder == 2 {
                        buffer[out] = UInt8(truncatingIfNeeded: bits)
                    } else {
                        buffer[out] = UInt8(truncatingIfNeeded: bits >> 8)
                        buffer[out + 1] = UInt8(truncatingIfNeeded: bits)
                    }
                    out += remainder - 1
                }
                initialized = out
            }
            if let failure { throw failure }
            return output
        }
    }
}
