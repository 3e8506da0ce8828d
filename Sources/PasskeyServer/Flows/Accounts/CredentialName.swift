import Foundation
import HTTPTypes

/// Passkey names (DESIGN §3.6): 1–64 Unicode scalars after trimming and NFC normalisation (so at most 256 bytes),
/// no control or format characters, no HTML; unique per user, compared case-insensitively through ``key``.
///
/// Every check looks at scalars: a limit in `Character`s lets one grapheme cluster carry thousands of combining
/// marks, and a `<` joined to a neighbouring mark is not the `Character` `<`.
struct CredentialName: Sendable, Equatable {
    let value: String
    /// What uniqueness is checked on.
    let key: String

    static let maximumLength = 64

    init(_ raw: String) throws(APIError) {
        let value = raw.precomposedStringWithCanonicalMapping.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...Self.maximumLength).contains(value.unicodeScalars.count) else {
            throw APIError(
                .credentialNameInvalid,
                .badRequest,
                "A passkey name must be 1 to \(Self.maximumLength) characters."
            )
        }
        guard
            !value.unicodeScalars.contains(where: {
                $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
            })
        else {
            throw APIError(
                .credentialNameInvalid,
                .badRequest,
                "A passkey name must not contain control characters."
            )
        }
        guard !value.unicodeScalars.contains(where: { $0 == "<" || $0 == ">" }) else {
            throw APIError(.credentialNameHtml, .badRequest, "A passkey name must not contain HTML ('<' or '>').")
        }
        self.value = value
        self.key = value.lowercased().precomposedStringWithCanonicalMapping
    }
}
