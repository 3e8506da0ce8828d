import Foundation
import Testing
import WebAuthn

@testable import PasskeysCommandLine

@Suite("JSON output")
struct CommandOutputTests {
    @Test func keepsMemberOrderAndEscapes() throws {
        let value = OutputJSON.object([
            "verified": .bool(false),
            "skipped": nil,
            "error": .object(["code": .string("X"), "message": .string("a \"quoted\"\nline\t\u{1}/")]),
            "list": .array([.int(-7), .null]),
            "empty": .object([]),
        ])
        let text = value.text
        #expect(
            text == """
                {
                  "verified": false,
                  "error": {
                    "code": "X",
                    "message": "a \\"quoted\\"\\nline\\t\\u0001/"
                  },
                  "list": [
                    -7,
                    null
                  ],
                  "empty": {}
                }

                """
        )
        let decoded = try JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8))
        #expect(decoded["error"] == .object(["code": .string("X"), "message": .string("a \"quoted\"\nline\t\u{1}/")]))
    }

    @Test func failureDocument() {
        let text = VerificationOutput.failure(CommandLineError(.challengeMismatch, "No.")).text
        #expect(
            text
                == "{\n  \"verified\": false,\n  \"error\": {\n    \"code\": \"CHALLENGE_MISMATCH\",\n    \"message\": \"No.\"\n  }\n}\n"
        )
    }
}
