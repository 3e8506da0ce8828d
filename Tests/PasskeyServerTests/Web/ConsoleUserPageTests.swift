import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing

/// What the console's user page and audit log say: sign out everywhere, the passkey a session was signed in with by
/// its name, unknown authenticators, recovery on a server that cannot verify identities, and the audit log found by
/// user name.
@Suite("Operator console pages")
struct ConsoleUserPageTests {
    /// The user id the demo gave `name`.
    static func userID(_ api: API, _ name: String) async throws -> String {
        let users = try await api.backend(.get, "/v1/users?userName=\(name)").json()
        return try #require(users.object?["users"]?.array?.first?.object?["userId"]?.string)
    }

    @Test("a signed-in user's page offers Sign out everywhere, which ends all their sessions")
    func signOutEverywhere() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            let phoneWeb = WebClient(api)
            try await DemoTests.signUp("ella", phoneWeb, &phone)
            let laptopWeb = WebClient(api)
            #expect(try await DemoTests.signIn("ella", laptopWeb, &phone).status == .ok)
            let id = try await Self.userID(api, "ella")
            let console = try await ConsoleTests.signedInConsole(api)

            let page = try await console.get("/console/users/\(id)")
            #expect(page.text.contains(#"id="end-all-sessions""#))
            #expect(page.text.contains("Sign out everywhere"))
            let ended = try await console.submit("/console/users/\(id)/sessions/end")
            #expect(ended.headers[.location] == "/console/users/\(id)?done=ended")
            #expect(try await phoneWeb.get("/account").status == .seeOther)
            #expect(try await laptopWeb.get("/account").status == .seeOther)
            let after = try await console.get("/console/users/\(id)?done=ended")
            #expect(after.text.contains("Not signed in anywhere."))
            #expect(!after.text.contains(#"id="end-all-sessions""#), "nothing left to end")
        }
    }

    @Test("a session shows the name of the passkey it was signed in with, not its id")
    func sessionPasskeyName() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            let web = WebClient(api)
            let credentialID = try await DemoTests.signUp("finn", web, &phone)
            let renamed = try await api.backend(
                .patch,
                "/v1/credentials/\(credentialID)",
                json: #"{"name": "Finn's phone"}"#
            )
            #expect(renamed.status == .ok)
            let id = try await Self.userID(api, "finn")
            let console = try await ConsoleTests.signedInConsole(api)
            let page = try await console.get("/console/users/\(id)")
            let sessions = try #require(page.text.components(separatedBy: "<h2>Sessions</h2>").last)
            #expect(sessions.contains("Finn&#39;s phone") || sessions.contains("Finn&#x27;s phone"))
            #expect(!sessions.contains(credentialID))
        }
    }

    @Test("an authenticator the server does not know reads Unknown authenticator with its AAGUID, once")
    func unknownAuthenticator() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var key = TestAuthenticator()
            let aaguid = "1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d"
            key.aaguid = AuthenticatorNameTests.aaguid(aaguid)
            try await api.enroll("gina", authenticator: &key)
            let console = try await ConsoleTests.signedInConsole(api)
            let page = try await console.get("/console/users/gina")
            #expect(page.text.contains("Unknown authenticator (AAGUID \(aaguid))"))
            #expect(page.text.components(separatedBy: aaguid).count == 2, "the AAGUID once")
        }
    }

    @Test("Start recovery on a server without identity verification says what to start the server with")
    func recoveryWithoutIdentityVerification() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("hugo", authenticator: &phone)
            let console = try await ConsoleTests.signedInConsole(api)
            let page = try await console.get("/console/users/hugo")
            #expect(page.text.contains("--identity-verification simulated"))
            #expect(!page.text.contains(#"id="start-recovery""#), "no button that can only fail")
            let refused = try await console.submit("/console/users/hugo/recovery")
            #expect(refused.status == .forbidden)
            #expect(refused.text.contains("--identity-verification simulated"))
            #expect(refused.text.contains(#"href="/console/users/hugo""#), "back to the user")
        }
    }

    @Test("the audit log is filtered by a user's name as well as by their id")
    func auditByUserName() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var first = TestAuthenticator()
            try await DemoTests.signUp("iris", WebClient(api), &first)
            var second = TestAuthenticator()
            try await DemoTests.signUp("jonas", WebClient(api), &second)
            let iris = try await Self.userID(api, "iris")
            let jonas = try await Self.userID(api, "jonas")
            let console = try await ConsoleTests.signedInConsole(api)

            let byName = try await console.get("/console/audit?user=iris")
            #expect(byName.status == .ok)
            #expect(byName.text.contains(iris))
            #expect(!byName.text.contains(jonas))
            let byID = try await console.get("/console/audit?user=\(jonas)")
            #expect(byID.text.contains(jonas))
            #expect(!byID.text.contains(iris))
            let nobody = try await console.get("/console/audit?user=nobody-at-all")
            #expect(nobody.text.contains("No events."))
        }
    }
}
