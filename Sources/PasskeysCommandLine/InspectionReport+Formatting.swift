import Foundation
import WebAuthn

/// How values are written in the report.
extension InspectionReport {
    static func algorithm(_ algorithm: COSEAlgorithmIdentifier) -> String {
        "\(algorithm.name) (\(algorithm.rawValue))"
    }

    static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }

    static func hex(_ bytes: some Collection<UInt8>) -> String {
        bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// The length and the hex of the first 32 bytes.
    static func bytesSummary(_ bytes: [UInt8]) -> String {
        guard !bytes.isEmpty else { return "0 bytes" }
        let shown = hex(bytes.prefix(32)) + (bytes.count > 32 ? "…" : "")
        return "\(count(bytes.count, "byte")): \(shown)"
    }

    static func printableText(_ bytes: [UInt8]) -> String? {
        guard let text = String(validating: bytes, as: UTF8.self),
            text.unicodeScalars.allSatisfy({
                $0.value >= 0x20 && $0.value != 0x7F && !$0.properties.isNoncharacterCodePoint
            })
        else { return nil }
        return text
    }

    static func time(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    static func jsonText(_ value: JSONValue) -> String {
        switch value {
        case .number(let number) where number.rounded() == number && abs(number) < 1e15:
            return String(Int64(number))
        default:
            return String(decoding: WebAuthnJSON.encode(value), as: UTF8.self)
        }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
