import Foundation
import WebAuthn

/// CBOR that no other part describes.
extension InspectionReport {
    mutating func cbor(_ label: String, _ value: CBORValue, depth: Int) {
        switch value {
        case .array(let items):
            field(label, Self.count(items.count, "item"), depth: depth)
            for (index, item) in items.enumerated() { cbor("[\(index)]", item, depth: depth + 1) }
        case .map(let entries):
            field(label, entries.isEmpty ? "{}" : "", depth: depth)
            for entry in entries {
                cbor(entry.key.textValue ?? Self.cborText(entry.key), entry.value, depth: depth + 1)
            }
        default:
            field(label, Self.cborText(value), depth: depth)
        }
    }

    static func cborText(_ value: CBORValue) -> String {
        switch value {
        case .unsigned(let n): String(n)
        case .negative(let n): n == UInt64.max ? "-18446744073709551616" : "-" + String(n + 1)
        case .bytes(let bytes): bytesSummary(bytes)
        case .text(let text): "\"\(text)\""
        case .array(let items): "[" + items.map(cborText).joined(separator: ", ") + "]"
        case .map(let entries):
            "{" + entries.map { cborText($0.key) + ": " + cborText($0.value) }.joined(separator: ", ") + "}"
        case .boolean(let value): String(value)
        case .null: "null"
        case .undefined: "undefined"
        case .float(let value): String(value)
        }
    }
}
