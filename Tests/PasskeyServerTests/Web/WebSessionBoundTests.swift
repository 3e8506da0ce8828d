import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// A user's signed-in sessions are bounded (the oldest end first) and paged in the console; the demo's sign-in
/// answers every user name alike. Over a real socket, on SQLite and on PostgreSQL.
@Suite("Web sessions: bounded, paged, and no user oracle")
struct WebSessionBoundTests {
    @Test("a user keeps web.maxSessionsPerUser sessions: a new sign-in ends the oldest", arguments: RealStore.available)
    func bounded(_ store: RealStore) async throws {
        let configure: @Sendable (inout ServerConfiguration) -> Void = { $0.web.maxSessionsPerUser = 3 }
        try await store.withLiveServer(configure: configure) { server, api in
            var phone = TestAuthenticator()
            let first = WebClient(api)
            try await DemoTests.signUp("gus", first, &phone)
            var browsers = [first]
            for _ in 0..<4 {
                server.clock.advance(by: 1)
                let web = WebClient(api)
                #expect(try await DemoTests.signIn("gus", web, &phone).status == .ok)
                browsers.append(web)
            }
            for (index, web) in browsers.enumerated() {
                let status = try await web.get("/account").status
                #expect(status == (index < 2 ? .seeOther : .ok), "browser \(index): \(status)")
            }
        }
    }

    @Test("the console pages a user's sessions, 20 to a page", arguments: RealStore.available)
    func paged(_ store: RealStore) async throws {
        let configure: @Sendable (inout ServerConfiguration) -> Void = { $0.web.maxSessionsPerUser = 30 }
        try await store.withLiveServer(configure: configure) { server, api in
            var phone = TestAuthenticator()
            try await DemoTests.signUp("hana", WebClient(api), &phone)
            for _ in 0..<21 {
                server.clock.advance(by: 1)
                #expect(try await DemoTests.signIn("hana", WebClient(api), &phone).status == .ok)
            }
            let (userID, _) = try await DemoReclaimTests.user(api, named: "hana")
            let console = try await ConsoleTests.signedInConsole(api)
            let first = try await console.get("/console/users/\(userID)")
            #expect(Self.sessionRows(first.text) == 20)
            let older = try #require(ConsoleTests.link(first.text, "Older sessions"))
            #expect(older == "/console/users/\(userID)?sessionsFrom=20")
            let second = try await console.get(older)
            #expect(Self.sessionRows(second.text) == 2)
            #expect(ConsoleTests.link(second.text, "Older sessions") == nil)
            #expect(second.text.contains("Newer sessions"))
        }
    }

    @Test(
        "the demo's sign-in answers a demo user, an integrator's user and an unknown name alike",
        arguments: RealStore.available
    )
    func noUserOracle(_ store: RealStore) async throws {
        try await store.withLiveServer { _, api in
            var demoPhone = TestAuthenticator()
            try await DemoTests.signUp("ivy", WebClient(api), &demoPhone)
            var integratorPhone = TestAuthenticator()
            try await api.enroll(
                NewRegistration(userId: "integrator-carol", userName: "carol"),
                authenticator: &integratorPhone
            )
            var answers: [String: (session: Set<String>, options: JSONValue)] = [:]
            for name in ["ivy", "carol", "nobody"] {
                let web = WebClient(api)
                try await web.get("/")
                let response = try await web.post("/demo/sign-in", json: #"{"userName": "\#(name)"}"#)
                #expect(response.status == .created, "\(name): \(response)")
                let session = try response.decode(AuthenticationSession.self)
                let options = try await api.client(
                    .post,
                    "/v1/client/authentications/\(session.biometricPasskeySessionId)/options",
                    token: session.clientToken
                )
                .expect(.ok, JSONValue.self)
                answers[name] = (try response.json().object.map { Set($0.keys) } ?? [], options)
            }
            let shapes = answers.mapValues { answer in
                var publicKey = answer.options.object?["publicKey"]?.object ?? [:]
                publicKey["challenge"] = nil
                return
                    "\(answer.session.sorted()) \(publicKey.keys.sorted()) \(publicKey["allowCredentials"].map { "\($0)" } ?? "none")"
            }
            #expect(Set(shapes.values).count == 1, "\(shapes)")
            let allowed = answers["carol"]?.options.object?["publicKey"]?.object?["allowCredentials"]?.array ?? []
            #expect(allowed.isEmpty, "no credential id of the integrator's user")
        }
    }

    static func sessionRows(_ html: String) -> Int {
        html.components(separatedBy: "class=\"danger end-session\"").count - 1
    }
}
