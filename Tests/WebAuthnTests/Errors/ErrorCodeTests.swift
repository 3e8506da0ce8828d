import Testing

@testable import WebAuthn

/// The error codes are stable identifiers: UPPER_SNAKE, unique, and compared by code alone.
struct ErrorCodeTests {
    static func isUpperSnake(_ text: String) -> Bool {
        let parts = text.split(separator: "_", omittingEmptySubsequences: false)
        return !parts.isEmpty
            && parts.allSatisfy { part in
                !part.isEmpty && part.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
                    && ("A"..."Z").contains(part.first!)
            }
    }

    @Test(
        "The UPPER_SNAKE check itself accepts and rejects what it should",
        arguments: [
            ("INPUT_TOO_LARGE", true), ("X", true), ("A1_B2", true),
            ("input_too_large", false), ("INPUT__TOO", false), ("_INPUT", false), ("INPUT_", false), ("", false),
            ("INPUT-TOO", false), ("1NPUT", false),
        ]
    )
    func upperSnakeCheck(_ text: String, _ valid: Bool) {
        #expect(Self.isUpperSnake(text) == valid)
    }

    @Test("Every code is UPPER_SNAKE", arguments: WebAuthnError.Code.all)
    func upperSnake(_ code: WebAuthnError.Code) {
        #expect(Self.isUpperSnake(code.rawValue), "\(code.rawValue)")
        #expect(code.description == code.rawValue)
    }

    @Test("Every code is unique")
    func unique() {
        let raw = WebAuthnError.Code.all.map(\.rawValue)
        #expect(
            Set(raw).count == raw.count,
            "duplicates: \(Dictionary(grouping: raw, by: { $0 }).filter { $1.count > 1 }.keys.sorted())"
        )
    }

    @Test("Errors are equal and hash alike by code, whatever the reason or place")
    func equalityByCode() {
        let a = WebAuthnError(.challengeMismatch, "one reason", file: "A.swift", line: 1)
        let b = WebAuthnError(.challengeMismatch, "another", file: "B.swift", line: 2)
        let c = WebAuthnError(.originNotAllowed, "one reason", file: "A.swift", line: 1)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != c)
        #expect(Set([a, b, c]).count == 2)
    }

    @Test("An error describes itself as CODE: reason, and records where it was raised")
    func description() {
        let error = WebAuthnError(.weakKey, "too short")
        #expect(error.description == "WEAK_KEY: too short")
        #expect(error.file.hasSuffix("ErrorCodeTests.swift"))
        #expect(error.line > 0)
    }

    @Test("A code decoded from its raw value is the same code", arguments: WebAuthnError.Code.all)
    func rawValueRoundTrip(_ code: WebAuthnError.Code) {
        #expect(WebAuthnError.Code(rawValue: code.rawValue) == code)
    }
}
