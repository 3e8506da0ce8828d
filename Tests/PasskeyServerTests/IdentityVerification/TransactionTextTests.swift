import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing

/// The text a step-up approves is shown to the person as it is signed: nothing in it may hide, reorder or push away
/// what they read. Each refusal is `TRANSACTION_TEXT_INVALID` and names the character (U+XXXX) and where it is.
@Suite("Step-up transaction text")
struct TransactionTextTests {
    /// `POST /v1/authentications` for a step-up of `alice` approving `text`.
    static func stepUp(_ api: API, _ text: String) async throws -> APIResponse {
        let body: [String: Any] = ["userId": "alice", "mode": "stepUp", "transaction": ["text": text]]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        return try await api.backend(.post, "/v1/authentications", json: json)
    }

    /// A text with one character the person would not see as it is, the code point the message must name, and where.
    static let hidden: [(text: String, named: String, place: String)] = [
        ("Pay 5.00 EUR\u{2028}to Evil Ltd", "U+2028", "line 1, character 13"),
        ("Pay 5.00 EUR\u{2029}to Evil Ltd", "U+2029", "line 1, character 13"),
        ("Pay 5.00 EUR to\u{200B} Shop", "U+200B", "line 1, character 16"),
        ("Pay 5.00 EUR\nto Shop\u{2060}", "U+2060", "line 2, character 8"),
        ("Pay\u{00AD}ment", "U+00AD", "line 1, character 4"),
        ("\u{FEFF}Pay 5.00 EUR", "U+FEFF", "line 1, character 1"),
        ("Pay 5.00 EUR to Shop\u{E0041}\u{E007F}", "U+E0041", "line 1, character 21"),
        ("Pay 5.00 EUR to \u{200E}Shop", "U+200E", "line 1, character 17"),
        ("Pay 5.00 EUR to \u{200F}Shop", "U+200F", "line 1, character 17"),
        ("Pay 5.00 EUR to \u{061C}Shop", "U+061C", "line 1, character 17"),
        ("Pay \u{202E}RUE 00.5", "U+202E", "line 1, character 5"),
        ("Pay \u{2067}5.00 EUR\u{2069}", "U+2067", "line 1, character 5"),
        ("Pay 5.00 EUR to Sh\u{034F}op", "U+034F", "line 1, character 19"),
        ("Pay 5.00 EUR to Shop\u{FE0F}", "U+FE0F", "line 1, character 21"),
        ("Pay 5.00 EUR to \u{3164}", "U+3164", "line 1, character 17"),
    ]

    @Test(
        "separators, invisible (default-ignorable), tag and direction characters are refused with their code point and place",
        arguments: StoreKind.available
    )
    func hiddenCharacters(kind: StoreKind) async throws {
        try await kind.withLiveServer { _, api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            for (text, named, place) in Self.hidden {
                let response = try await Self.stepUp(api, text)
                expectError(response, "TRANSACTION_TEXT_INVALID", .badRequest)
                let message = try response.json().object?["error"]?.object?["message"]?.string ?? ""
                #expect(message.contains(named), "\(named): \(message)")
                #expect(message.contains(place), "\(named): \(message)")
            }
        }
    }

    @Test(
        "at most 20 lines and one blank line in a row: a payee cannot be pushed off the screen; a real payment fits",
        arguments: StoreKind.available
    )
    func lines(kind: StoreKind) async throws {
        try await kind.withLiveServer { _, api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            let pushed = "Pay 5.00 EUR" + String(repeating: "\n", count: 500) + "to Evil Ltd"
            let refusals: [(text: String, says: String)] = [
                (pushed, "line 3"),
                ("Pay 5.00 EUR\n\n\nto Evil Ltd", "line 3"),
                ("Pay 5.00 EUR\n \n\u{3000}\nto Evil Ltd", "line 3"),
                ((1...21).map { "Line \($0)" }.joined(separator: "\n"), "21 lines"),
            ]
            for (text, says) in refusals {
                let response = try await Self.stepUp(api, text)
                expectError(response, "TRANSACTION_TEXT_INVALID", .badRequest)
                let message = try response.json().object?["error"]?.object?["message"]?.string ?? ""
                #expect(message.contains(says), "\(message)")
            }
            let payment = """
                Pay 1,250.00 EUR to Example Shop GmbH
                IBAN DE89 3704 0044 0532 0130 00

                Reference: INV-2026-0042
                Due 30 November 2026 — Zoë Müller, 東京 支店
                """
            #expect(try await Self.stepUp(api, payment).status == .created)
            let twenty = (1...20).map { "Line \($0)" }.joined(separator: "\n")
            #expect(try await Self.stepUp(api, twenty).status == .created)
        }
    }
}
