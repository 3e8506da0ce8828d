/// Checks that a string can serve as an RP ID: a valid domain (WebAuthn §5.1.2, "RP ID"), lower case,
/// not an IP address, no scheme, port or path.
enum RelyingPartyID {
    static func validate(_ id: String) throws(WebAuthnError) {
        func fail(_ reason: String) -> WebAuthnError {
            WebAuthnError(
                .invalidOptions,
                "'\(id)' is not a valid RP ID: \(reason). Use the bare domain, such as 'example.com'."
            )
        }
        guard !id.isEmpty, id.utf8.count <= 253 else { throw fail("it must be 1 to 253 characters") }
        let labels = id.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            guard !label.isEmpty, label.utf8.count <= 63 else { throw fail("each label must be 1 to 63 characters") }
            guard label.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D })
            else {
                throw fail(
                    "only lower-case letters, digits, '-' and '.' are allowed (use the punycode form of international names)"
                )
            }
            guard label.first != "-", label.last != "-" else { throw fail("a label may not start or end with '-'") }
        }
        guard !labels.allSatisfy({ $0.allSatisfy(\.isNumber) }) else { throw fail("an IP address cannot be an RP ID") }
    }
}
