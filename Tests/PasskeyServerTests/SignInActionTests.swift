import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// The `action` of a sign-in (`POST /v1/authentications {action}`) in the authentication.* audit events and as a
/// bounded label of the ceremony metric, over HTTP.
struct SignInActionTests {
    /// The `passkeys_ceremonies_total` lines of `/metrics`.
    static func ceremonyLines(_ api: API) async throws -> [String] {
        try await api.send(.get, "/metrics").text.split(separator: "\n").map(String.init)
            .filter { $0.hasPrefix("passkeys_ceremonies_total{") }
    }

    /// The `action` label values of the authentication lines.
    static func actionLabels(_ lines: [String]) -> Set<String> {
        Set(
            lines.compactMap { line -> String? in
                guard line.contains(#"flow="authentication""#), let start = line.range(of: #"action=""#) else {
                    return nil
                }
                return String(line[start.upperBound...].prefix { $0 != "\"" })
            }
        )
    }

    @Test func theActionIsInEveryAuthenticationEvent() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            _ = try await api.signIn(userID: "alice", authenticator: &phone, action: "payment.approve")
            let refused = try await api.startSignIn(userID: "alice", action: "payment.approve")
            let options = try await api.authenticationOptions(refused)
            expectError(
                try await api.completeSignIn(
                    refused,
                    api.assertion(options, authenticator: &phone, origin: "https://evil.example")
                ),
                "ORIGIN_NOT_ALLOWED",
                .badRequest
            )
            _ = try await api.signIn(userID: "alice", authenticator: &phone)

            let events = try await api.auditEvents(query: "?limit=100").events.filter {
                $0.action.hasPrefix("authentication.")
            }
            let withAction = events.filter { $0.details["action"] == "payment.approve" }.map(\.action)
            #expect(
                withAction.sorted()
                    == [
                        "authentication.completed", "authentication.created", "authentication.created",
                        "authentication.failed", "authentication.redeemed",
                    ]
            )
            // A sign-in without an action has none in its events.
            #expect(events.count == withAction.count + 3)
            #expect(
                events.filter { $0.details["action"] == nil }.map(\.action).sorted() == [
                    "authentication.completed", "authentication.created", "authentication.redeemed",
                ]
            )
        }
    }

    @Test func theActionLabelsTheCeremonyMetric() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            _ = try await api.signIn(userID: "alice", authenticator: &phone)
            _ = try await api.signIn(userID: "alice", authenticator: &phone, action: "payment.approve")
            _ = try await api.signIn(userID: "alice", authenticator: &phone, action: "Pay Bob 25 €")

            let lines = try await Self.ceremonyLines(api)
            // Without an action, the series is the one it always was.
            #expect(lines.contains(#"passkeys_ceremonies_total{flow="authentication",outcome="succeeded"} 1"#))
            #expect(lines.contains(#"passkeys_ceremonies_total{flow="registration",outcome="succeeded"} 1"#))
            #expect(
                lines.contains {
                    $0.contains(#"outcome="succeeded""#) && $0.contains(#"action="payment.approve""#)
                        && $0.hasSuffix(" 1")
                }
            )
            // Free text is not a label value.
            #expect(Self.actionLabels(lines) == ["payment.approve", "other"])
        }
    }

    @Test func actionLabelsAreBounded() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            let actions = (0..<34).map { "action-\($0)" }
            for action in actions { _ = try await api.signIn(userID: "alice", authenticator: &phone, action: action) }
            // The first 32 distinct actions are labels; later ones count as `other`.
            let labels = Self.actionLabels(try await Self.ceremonyLines(api))
            #expect(labels == Set(actions.prefix(32)).union(["other"]))
            // Seen again, a labelled action keeps its label.
            _ = try await api.signIn(userID: "alice", authenticator: &phone, action: "action-0")
            let lines = try await Self.ceremonyLines(api)
            #expect(lines.contains { $0.contains(#"action="action-0""#) && $0.hasSuffix(" 2") })
            #expect(lines.contains { $0.contains(#"action="other""#) && $0.hasSuffix(" 2") })
        }
    }
}
