/// Encodes CBOR items in the CTAP2 canonical form (shortest heads, map keys sorted).
public enum CBOREncoder {
    public static func encode(_ value: CBORValue) -> [UInt8] {
        var output = [UInt8]()
        append(value, to: &output)
        return output
    }

    private static func append(_ value: CBORValue, to output: inout [UInt8]) {
        switch value {
        case .unsigned(let n): appendHead(0, n, to: &output)
        case .negative(let n): appendHead(1, n, to: &output)
        case .bytes(let b):
            appendHead(2, UInt64(b.count), to: &output)
            output += b
        case .text(let t):
            appendHead(3, UInt64(t.utf8.count), to: &output)
            output += t.utf8
        case .array(let items):
            appendHead(4, UInt64(items.count), to: &output)
            for item in items { append(item, to: &output) }
        case .map(let entries):
            appendHead(5, UInt64(entries.count), to: &output)
            let encoded = entries.map { (key: encode($0.key), value: encode($0.value)) }
            for entry in encoded.sorted(by: { canonicalLess($0.key, $1.key) }) {
                output += entry.key
                output += entry.value
            }
        case .boolean(let b): output.append(b ? 0xF5 : 0xF4)
        case .null: output.append(0xF6)
        case .undefined: output.append(0xF7)
        case .float(let d):
            output.append(0xFB)
            withUnsafeBytes(of: d.bitPattern.bigEndian) { output += $0 }
        }
    }

    private static func canonicalLess(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        if lhs.first! >> 5 != rhs.first! >> 5 { return lhs.first! >> 5 < rhs.first! >> 5 }
        if lhs.count != rhs.count { return lhs.count < rhs.count }
        return lhs.lexicographicallyPrecedes(rhs)
    }

    private static func appendHead(_ major: UInt8, _ argument: UInt64, to output: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24: output.append(type | UInt8(argument))
        case 24...0xFF: output += [type | 24, UInt8(argument)]
        case 0x100...0xFFFF:
            output.append(type | 25)
            appendBigEndian(argument, width: 2, to: &output)
        case 0x1_0000...0xFFFF_FFFF:
            output.append(type | 26)
            appendBigEndian(argument, width: 4, to: &output)
        default:
            output.append(type | 27)
            appendBigEndian(argument, width: 8, to: &output)
        }
    }

    private static func appendBigEndian(_ value: UInt64, width: Int, to output: inout [UInt8]) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
            output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
