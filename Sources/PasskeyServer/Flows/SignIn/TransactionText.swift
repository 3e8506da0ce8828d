import Foundation

/// What a step-up's transaction text may hold (DESIGN §3 flow 3), so that the person reads what they sign: no
/// character that hides, reorders or breaks the text differently from how it is signed, and no shape that pushes
/// part of it out of sight. A refusal names the character as U+XXXX and where it is (line and character, counting
/// Unicode scalars from 1).
enum TransactionText {
    /// Lines a text may have: a payment's amount, payee, account, reference and dates fit; a text that scrolls its
    /// payee off the screen does not.
    static let maximumLines = 20
    /// Blank lines in a row: one separates paragraphs; more only push the rest away.
    static let maximumConsecutiveBlankLines = 1

    /// Refuses the text (already NFC) when a character of it is not allowed or its lines are too many or too blank.
    static func check(_ text: String) throws(APIError) {
        var line = 1
        var column = 0
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                line += 1
                column = 0
                continue
            }
            column += 1
            if let reason = refusal(of: scalar) {
                throw APIError.transactionTextInvalid(
                    "transaction.text has \(codePoint(scalar)), \(reason), at line \(line), character \(column). Remove it and send the text again."
                )
            }
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var blankRun = 0
        for (index, content) in lines.enumerated() {
            blankRun = content.unicodeScalars.allSatisfy(\.properties.isWhitespace) ? blankRun + 1 : 0
            if blankRun > maximumConsecutiveBlankLines {
                throw APIError.transactionTextInvalid(
                    "transaction.text has more than \(maximumConsecutiveBlankLines) blank line in a row, at line \(index + 1): blank lines only push the rest of the text out of sight. Keep at most one between paragraphs."
                )
            }
        }
        guard lines.count <= maximumLines else {
            throw APIError.transactionTextInvalid(
                "transaction.text has \(lines.count) lines; at most \(maximumLines) are allowed, so that the person sees all of it. Shorten it."
            )
        }
    }

    /// Why `scalar` may not be in a transaction text, or nil when it may.
    static func refusal(of scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x0A:
            return nil
        case 0x2028:
            return "a line separator (break lines with a newline, U+000A)"
        case 0x2029:
            return "a paragraph separator (break lines with a newline, U+000A)"
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
            return "a direction mark or control, which can show the text in another order than it is signed"
        case 0xE0000...0xE007F:
            return "a tag character, which is invisible"
        default:
            if scalar.properties.generalCategory == .control {
                return "a control character (only the newline, U+000A, may be used)"
            }
            if DefaultIgnorableCodePoints.contains(scalar) {
                return "an invisible (default-ignorable) character"
            }
            return nil
        }
    }

    /// `U+0041`: at least four hexadecimal digits, upper case.
    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
