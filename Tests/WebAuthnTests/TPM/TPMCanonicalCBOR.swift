@testable import WebAuthn

/// Re-encodes definite-length CBOR in the CTAP2 canonical form (map keys sorted), leaving every byte-string
/// value as it was. Some fixtures of the corpus list the attStmt members out of canonical order, which the
/// library's strict decoder rejects; re-encoding them lets the TPM checks run on exactly the same values.
enum TPMCanonicalCBOR {
    struct Malformed: Error {}

    static func reencode(_ bytes: [UInt8]) throws -> [UInt8] {
        var offset = 0
        let value = try item(bytes, &offset, depth: 0)
        guard offset == bytes.count else { throw Malformed() }
        return CBOREncoder.encode(value)
    }

    private static func item(_ bytes: [UInt8], _ offset: inout Int, depth: Int) throws -> CBORValue {
        guard depth < 16, offset < bytes.count else { throw Malformed() }
        let initial = bytes[offset]
        offset += 1
        let major = initial >> 5, info = Int(initial & 0x1F)
        var argument: UInt64
        switch info {
        case 0..<24: argument = UInt64(info)
        case 24...27:
            let width = 1 << (info - 24)
            guard offset + width <= bytes.count else { throw Malformed() }
            argument = bytes[offset..<offset + width].reduce(0) { $0 << 8 | UInt64($1) }
            offset += width
        default: throw Malformed()
        }
        func count() throws -> Int {
            guard argument <= UInt64(bytes.count - offset) else { throw Malformed() }
            return Int(argument)
        }
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2, 3:
            let length = try count()
            defer { offset += length }
            let content = Array(bytes[offset..<offset + length])
            if major == 2 { return .bytes(content) }
            guard let text = String(validating: content, as: UTF8.self) else { throw Malformed() }
            return .text(text)
        case 4:
            return .array(try (0..<count()).map { _ in try item(bytes, &offset, depth: depth + 1) })
        case 5:
            return .map(try (0..<count()).map { _ in
                CBORMapEntry(try item(bytes, &offset, depth: depth + 1), try item(bytes, &offset, depth: depth + 1))
            })
        case 7 where info == 20: return .boolean(false)
        case 7 where info == 21: return .boolean(true)
        case 7 where info == 22: return .null
        default: throw Malformed()
        }
    }
}
