import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyStorage
import PasskeyTesting
import Testing
import WebAuthn

/// Who may open the operator console: an operator's passkey enrolled for the console, with user verification; a
/// break-glass API key; and each only while the configuration still names them. Over a real socket, on SQLite and
/// on PostgreSQL.
@Suite("Operator console: authority")
struct ConsoleAuthorityTests {
    static let secret = "a session secret shared by the instances, 32+ chars"
    static let spareKey = "spare-api-key-0123456789-abcdefgh"

    /// A console passkey sign-in with `phone`, in a new browser: the finish's response, and the browser.
    static func consoleSignIn(
        _ api: API,
        _ phone: inout TestAuthenticator,
        flags: AuthenticatorDataFlags = [.userPresent, .userVerified]
    ) async throws -> (WebClient, APIResponse) {
        let web = WebClient(api)
        try await web.get("/console")
        let session = try await web.post("/console/sign-in/passkey").expect(.created, AuthenticationSession.self)
        let options = try await api.authenticationOptions(session)
        let completed = try await api.completeSignIn(
            session,
            api.assertion(options, authenticator: &phone, flags: flags)
        )
        guard completed.status == .ok else { return (web, completed) }
        let finish = try await web.post(
            "/console/sign-in/passkey/finish",
            body: [
                "biometricPasskeySessionId": session.biometricPasskeySessionId,
                "resultToken": try completed.decode(SignInCompletion.self).resultToken,
            ]
        )
        return (web, finish)
    }

    /// Enrols a console passkey on `phone` for `userID` from the console signed in as `console`.
    static func enrol(
        _ console: WebClient,
        _ userID: String,
        _ phone: inout TestAuthenticator
    ) async throws
        -> APIResponse
    {
        try await console.get("/console")
        let path = "/console/users/\(userID)/console-passkeys"
        let started = try await console.post(path)
        guard started.status == .created else { return started }
        let attempt = try started.decode(RegistrationAttempt.self)
        let options = try await console.api.registrationOptions(attempt)
        _ = try await console.api.completeRegistration(
            attempt,
            console.api.registrationResponse(options, authenticator: &phone)
        )
        .expect(.created, CredentialView.self)
        return try await console.post(path + "/finish", body: ["registrationAttemptId": attempt.registrationAttemptId])
    }

    @Test(
        "a passkey made by the API or the demo does not open the console, even an operator's",
        arguments: RealStore.available
    )
    func onlyConsolePasskeys(_ store: RealStore) async throws {
        let configure: @Sendable (inout ServerConfiguration) -> Void = { $0.web.operators = ["ops-1"] }
        try await store.withLiveServer(configure: configure) { _, api in
            var apiPhone = TestAuthenticator()
            try await api.enroll("ops-1", authenticator: &apiPhone)
            let (web, refused) = try await Self.consoleSignIn(api, &apiPhone)
            expectError(refused, "CONSOLE_PASSKEY_REQUIRED", .forbidden)
            #expect(!(try await web.get("/console").text.contains("<table")))
        }
    }

    @Test(
        "a break-glass session enrols an operator's console passkey, which opens the console with user verification only",
        arguments: RealStore.available
    )
    func enrolment(_ store: RealStore) async throws {
        let configure: @Sendable (inout ServerConfiguration) -> Void = { $0.web.operators = ["ops-1", "ops-2"] }
        try await store.withLiveServer(configure: configure) { _, api in
            var everyday = TestAuthenticator()
            try await api.enroll("ops-1", authenticator: &everyday)
            var customerPhone = TestAuthenticator()
            try await api.enroll("customer", authenticator: &customerPhone)

            let breakGlass = try await ConsoleTests.signedInConsole(api)
            let page = try await breakGlass.get("/console/users/ops-1")
            #expect(page.text.contains(#"id="enrol-console-passkey""#))
            var consolePhone = TestAuthenticator()
            let enrolled = try await Self.enrol(breakGlass, "ops-1", &consolePhone)
            #expect(try enrolled.expect(.ok, DemoTests.Redirect.self).redirect == "/console/users/ops-1?done=enrolled")
            #expect(try await breakGlass.get("/console/users/ops-1?done=enrolled").text.contains("(console)"))
            var stranger = TestAuthenticator()
            expectError(
                try await Self.enrol(breakGlass, "customer", &stranger),
                "CONSOLE_ENROLMENT_FORBIDDEN",
                .forbidden
            )

            // Without user verification the console's sign-in fails, whatever the server's policy.
            let (_, unverified) = try await Self.consoleSignIn(api, &consolePhone, flags: [.userPresent])
            expectError(unverified, "USER_VERIFICATION_REQUIRED", .badRequest)
            let (operatorWeb, signedIn) = try await Self.consoleSignIn(api, &consolePhone)
            #expect(signedIn.status == .ok, "\(signedIn)")
            #expect(try await operatorWeb.get("/console").text.contains("Operator <strong>user:ops-1</strong>"))
            let audit = try await operatorWeb.get("/console/audit?userId=ops-1").text
            #expect(audit.contains("console.passkey-enrolled"))

            // An operator enrols more for themselves, never for another operator.
            var second = TestAuthenticator()
            #expect(try await Self.enrol(operatorWeb, "ops-1", &second).status == .ok)
            var other = TestAuthenticator()
            expectError(try await Self.enrol(operatorWeb, "ops-2", &other), "CONSOLE_ENROLMENT_FORBIDDEN", .forbidden)
        }
    }

    @Test(
        "a console session whose operator or API key left the configuration is refused after a restart",
        arguments: RealStore.available
    )
    func configurationChecked(_ store: RealStore) async throws {
        try await store.with { store in
            let before = try TestServer(store: store) {
                $0.web.sessionSecret = Self.secret
                $0.web.operators = ["ops-1"]
                $0.apiKeys.append(.init(name: "spare", key: Self.spareKey))
            }
            let (breakGlassCookie, operatorCookie) = try await before.withLiveAPI { api in
                let breakGlass = WebClient(api)
                try await breakGlass.get("/console")
                #expect(try await breakGlass.submit("/console/sign-in", ["apiKey": Self.spareKey]).status == .seeOther)
                #expect(try await breakGlass.get("/console").text.contains("Operator <strong>spare</strong>"))
                var everyday = TestAuthenticator()
                try await api.enroll("ops-1", authenticator: &everyday)
                var phone = TestAuthenticator()
                #expect(try await Self.enrol(breakGlass, "ops-1", &phone).status == .ok)
                let (operatorWeb, signedIn) = try await Self.consoleSignIn(api, &phone)
                #expect(signedIn.status == .ok, "\(signedIn)")
                return (try #require(breakGlass.cookie), try #require(operatorWeb.cookie))
            }
            let after = try TestServer(store: store) { $0.web.sessionSecret = Self.secret }
            try await after.withLiveAPI { api in
                for cookie in [breakGlassCookie, operatorCookie] {
                    let web = WebClient(api)
                    web.setCookie(cookie)
                    let console = try await web.get("/console")
                    #expect(console.text.contains(#"name="apiKey""#), "the sign-in page, not the console")
                    #expect(!console.text.contains("<table"))
                    #expect(try await web.get("/console/audit").headers[.location] == "/console")
                }
            }
        }
    }

    @Test("break-glass sessions are listed, and one is ended from another", arguments: RealStore.available)
    func breakGlassSessions(_ store: RealStore) async throws {
        let configure: @Sendable (inout ServerConfiguration) -> Void = {
            $0.apiKeys.append(.init(name: "spare", key: Self.spareKey))
        }
        try await store.withLiveServer(configure: configure) { _, api in
            let first = try await ConsoleTests.signedInConsole(api)
            let second = WebClient(api)
            try await second.get("/console")
            #expect(try await second.submit("/console/sign-in", ["apiKey": Self.spareKey]).status == .seeOther)

            let list = try await first.get("/console/sessions")
            #expect(list.status == .ok)
            #expect(list.text.components(separatedBy: "class=\"danger end-session\"").count - 1 == 2)
            let row = try #require(list.text.components(separatedBy: "<tr>").first { $0.contains("<td>spare</td>") })
            let id = try #require(ConsoleTests.between(row, "<td class=\"mono\">", "</td>"))
            let ended = try await first.submit("/console/sessions/\(id)/end")
            #expect(ended.headers[.location] == "/console/sessions?done=ended")
            #expect(try await second.get("/console").text.contains(#"name="apiKey""#), "the spare key's session ended")
            #expect(try await first.get("/console").text.contains("<table"), "the other one goes on")
            #expect(try await first.get("/console/audit").text.contains("web-session.ended"))
        }
    }

    @Test("console passkey sign-ins are limited per client address", arguments: RealStore.available)
    func passkeySignInLimited(_ store: RealStore) async throws {
        let configure: @Sendable (inout ServerConfiguration) -> Void = { $0.web.operators = ["ops-1"] }
        try await store.withLiveServer(configure: configure) { _, api in
            let web = WebClient(api)
            try await web.get("/console")
            for _ in 0..<10 {
                #expect(try await web.post("/console/sign-in/passkey").status == .created)
            }
            expectError(try await web.post("/console/sign-in/passkey"), "RATE_LIMITED", .tooManyRequests)
        }
    }
}
