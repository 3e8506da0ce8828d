import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyStorage
import PasskeyTesting
import Testing

/// Sessions of the pages live in the store: they end at sign-out (even for a copy of the cookie), with the passkey
/// they were signed in with, and with the user; the console's session is apart from the demo's; operators sign in
/// with their own passkeys, and the console lists and ends a user's sessions.
@Suite("Web sessions that end")
struct WebSessionEndTests {
    @Test("a copy of the cookie taken before sign-out opens nothing afterwards")
    func stolenCookie() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            var phone = TestAuthenticator()
            try await DemoTests.signUp("ines", web, &phone)
            let copy = try #require(web.cookie)
            let thief = WebClient(api)
            thief.setCookie(copy)
            #expect(try await thief.get("/account").status == .ok, "the copy works while the session lasts")
            try await web.get("/account")
            #expect(try await web.submit("/sign-out").headers[.location] == "/")
            #expect(try await thief.get("/account").status == .seeOther)
            #expect(try await web.get("/account").status == .seeOther)
        }
    }

    @Test("signing in to and out of the demo leaves the console's own session as it was")
    func separateConsole() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = try await ConsoleTests.signedInConsole(api)
            let consoleCookie = try #require(web.lastSetCookie)
            #expect(consoleCookie.hasPrefix("passkeys_console=") && consoleCookie.contains("Path=/console"))
            #expect(consoleCookie.contains("Max-Age=3600"))
            var phone = TestAuthenticator()
            try await DemoTests.signUp("jack", web, &phone)
            try await web.get("/account")
            #expect(try await web.submit("/sign-out").headers[.location] == "/")
            #expect(web.lastSetCookie?.hasPrefix("passkeys_session=") == true, "only the demo's cookie changed")
            let console = try await web.get("/console")
            #expect(console.text.contains("<table"), "still signed in to the console")
            #expect(try await web.submit("/console/sign-out").headers[.location] == "/console")
            #expect(try await web.get("/console").text.contains(#"name="apiKey""#))
        }
    }

    @Test("revoking a passkey ends the sessions signed in with it; deleting the user ends all of theirs")
    func revokeAndDelete() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let first = WebClient(api)
            var phone = TestAuthenticator()
            let phoneCredential = try await DemoTests.signUp("kim", first, &phone)
            try await first.get("/account")
            var laptop = TestAuthenticator()
            let added = try await first.post("/demo/passkeys", json: "{}").expect(.created, RegistrationAttempt.self)
            let options = try await api.registrationOptions(added)
            _ = try await api.completeRegistration(added, api.registrationResponse(options, authenticator: &laptop))
            #expect(
                try await first.post(
                    "/demo/passkeys/finish",
                    body: ["registrationAttemptId": added.registrationAttemptId]
                )
                .status == .ok
            )
            let second = WebClient(api)
            #expect(try await DemoTests.signIn("kim", second, &laptop).status == .ok)

            #expect(try await api.backend(.delete, Path.credential(phoneCredential)).status == .noContent)
            #expect(try await first.get("/account").status == .seeOther, "signed in with the revoked passkey")
            #expect(try await second.get("/account").status == .ok, "signed in with another passkey")

            let users = try await api.backend(.get, "/v1/users?query=kim").json()
            let id = try #require(users.object?["users"]?.array?.first?.object?["userId"]?.string)
            #expect(try await api.backend(.delete, "/v1/users/\(id)").status == .noContent)
            #expect(try await second.get("/account").status == .seeOther)
        }
    }

    @Test("the console lists a user's sessions and signs them out, one or all")
    func consoleEndsSessions() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            let browsers = [WebClient(api), WebClient(api), WebClient(api)]
            try await DemoTests.signUp("lena", browsers[0], &phone)
            for browser in browsers.dropFirst() {
                server.clock.advance(by: 1)
                #expect(try await DemoTests.signIn("lena", browser, &phone).status == .ok)
            }
            let users = try await api.backend(.get, "/v1/users?query=lena").json()
            let id = try #require(users.object?["users"]?.array?.first?.object?["userId"]?.string)

            let console = try await ConsoleTests.signedInConsole(api)
            let page = try await console.get("/console/users/\(id)")
            let sessionIDs = page.text.components(separatedBy: #"name="sessionId" value=""#).dropFirst().map {
                String($0.prefix { $0 != "\"" })
            }
            #expect(sessionIDs.count == 3)
            let newest = try #require(sessionIDs.first)
            let ended = try await console.submit("/console/users/\(id)/sessions/end", ["sessionId": newest])
            #expect(ended.headers[.location] == "/console/users/\(id)?done=ended")
            #expect(try await browsers[2].get("/account").status == .seeOther, "the newest session ended")
            #expect(try await browsers[0].get("/account").status == .ok)
            let again = try await console.submit("/console/users/\(id)/sessions/end", ["sessionId": newest])
            #expect(again.status == .notFound)

            #expect(try await console.submit("/console/users/\(id)/sessions/end").status == .seeOther)
            for browser in browsers { #expect(try await browser.get("/account").status == .seeOther) }
            let audit = try await console.get("/console/audit?userId=\(id)")
            #expect(audit.text.contains("web-session.ended"))
            #expect(try await console.get("/console/users/\(id)").text.contains("Not signed in anywhere."))
        }
    }

    @Test("operators named in web.operators sign in to the console with their console passkeys; nobody else does")
    func operatorPasskeys() async throws {
        let server = try TestServer { $0.web.operators = ["ops-1"] }
        try await server.withAPI { api in
            var operatorPhone = TestAuthenticator()
            var customerPhone = TestAuthenticator()
            try await api.enroll("customer-2", authenticator: &customerPhone)
            // The operator's console passkey is enrolled in a break-glass session.
            let breakGlass = try await ConsoleTests.signedInConsole(api)
            #expect(try await ConsoleAuthorityTests.enrol(breakGlass, "ops-1", &operatorPhone).status == .ok)

            func passkeySignIn(_ phone: inout TestAuthenticator) async throws -> (WebClient, APIResponse) {
                let web = WebClient(api)
                #expect(try await web.get("/console").text.contains(#"id="console-passkey""#))
                let session = try await web.post("/console/sign-in/passkey").expect(
                    .created,
                    AuthenticationSession.self
                )
                let options = try await api.authenticationOptions(session)
                let completion = try await api.completeSignIn(session, api.assertion(options, authenticator: &phone))
                    .expect(.ok, SignInCompletion.self)
                let finish = try await web.post(
                    "/console/sign-in/passkey/finish",
                    body: [
                        "biometricPasskeySessionId": session.biometricPasskeySessionId,
                        "resultToken": completion.resultToken,
                    ]
                )
                return (web, finish)
            }

            let (operatorWeb, signedIn) = try await passkeySignIn(&operatorPhone)
            #expect(signedIn.status == .ok)
            let users = try await operatorWeb.get("/console")
            #expect(users.text.contains("Operator <strong>user:ops-1</strong>"))
            #expect(try await operatorWeb.get("/console/audit").text.contains("operator:user:ops-1"))

            let (customerWeb, refused) = try await passkeySignIn(&customerPhone)
            expectError(refused, "OPERATOR_REQUIRED", .forbidden)
            #expect(!(try await customerWeb.get("/console").text.contains("<table")))
        }
        let closed = try TestServer()
        try await closed.withAPI { api in
            let web = WebClient(api)
            #expect(!(try await web.get("/console").text.contains(#"id="console-passkey""#)))
            expectError(try await web.post("/console/sign-in/passkey"), "OPERATOR_REQUIRED", .forbidden)
        }
    }
}
