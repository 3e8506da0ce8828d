import Foundation

/// Input checks shared by the flows.
enum Validation {
    /// The integrator's user id: URL-safe, 1–128 characters.
    static func userID(_ id: String) throws(APIError) {
        guard (1...128).contains(id.utf8.count),
            id.utf8.allSatisfy({
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
                    || [0x2D, 0x2E, 0x5F, 0x7E].contains($0)
            })
        else {
            throw APIError.invalidRequest(
                "userId must be 1 to 128 URL-safe characters (A–Z, a–z, 0–9, '-', '.', '_', '~')."
            )
        }
    }

    /// A display text: trimmed, 1…maximum Unicode scalars (so at most 4 × maximum bytes), no control characters
    /// and no bidirectional overrides.
    ///
    /// Lengths count scalars, not `Character`s: a grapheme cluster can hold any number of combining marks, so a
    /// limit in `Character`s bounds nothing.
    static func text(_ value: String, field: String, maximum: Int) throws(APIError) -> String {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...maximum).contains(trimmed.unicodeScalars.count),
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.isBidiControl })
        else {
            throw APIError.invalidRequest(
                "\(field) must be 1 to \(maximum) characters without control characters or direction overrides."
            )
        }
        return trimmed
    }
}

extension Unicode.Scalar {
    /// The explicit bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which make text
    /// display in another order than it is stored.
    var isBidiControl: Bool { (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) }
}
