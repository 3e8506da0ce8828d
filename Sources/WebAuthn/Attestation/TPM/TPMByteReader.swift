/// A bounded reader for TPM 2.0 marshaled structures (TPM 2.0 Part 1 §"Marshaling"; Part 2 types):
/// integers are big-endian, `TPM2B_*` values are a `UINT16` size followed by that many bytes.
/// Every read is checked against the bytes that remain, so no input can make it read out of bounds.
struct TPMByteReader {
    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }

    mutating func uint8(_ field: String) throws(TPMParseError) -> UInt8 {
        try take(1, field)[0]
    }

    mutating func uint16(_ field: String) throws(TPMParseError) -> UInt16 {
        UInt16(truncatingIfNeeded: try integer(2, field))
    }

    mutating func uint32(_ field: String) throws(TPMParseError) -> UInt32 {
        UInt32(truncatingIfNeeded: try integer(4, field))
    }

    mutating func uint64(_ field: String) throws(TPMParseError) -> UInt64 {
        try integer(8, field)
    }

    /// A `TPM2B_*` value: a `UINT16` size, then that many bytes.
    mutating func sized(_ field: String) throws(TPMParseError) -> [UInt8] {
        let size = Int(try uint16("the size of \(field)"))
        guard size <= remaining else {
            throw TPMParseError("\(field) claims \(size) bytes at offset \(offset) but only \(remaining) remain.")
        }
        return try take(size, field)
    }

    /// Exactly `count` bytes.
    mutating func take(_ count: Int, _ field: String) throws(TPMParseError) -> [UInt8] {
        guard count >= 0, count <= remaining else {
            throw TPMParseError(
                "truncated: \(field) needs \(count) bytes at offset \(offset) but only \(remaining) remain."
            )
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Checks the structure ended exactly at the end of its bytes.
    func finish(_ structure: String) throws(TPMParseError) {
        guard remaining == 0 else {
            throw TPMParseError("\(remaining) unexpected bytes follow the \(structure) structure at offset \(offset).")
        }
    }

    private mutating func integer(_ width: Int, _ field: String) throws(TPMParseError) -> UInt64 {
        try take(width, field).reduce(0) { $0 << 8 | UInt64($1) }
    }
}
