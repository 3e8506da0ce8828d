import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyStorage
import PasskeyTesting
import Testing
import WebAuthn

/// The demo as its own integrator, in process: the pages' endpoints start and finish flows, the browser part
/// runs through the client API with a test authenticator, and the session lives in the signed cookie.
@Suite("Web demo")
struct DemoTests {
    struct Redirect: Decodable { let redirect: String }

    /// Signs up `name` through the demo's endpoints; returns the credential id.
    @discardableResult
    static func signUp(
        _ name: String,
        _ web: WebClient,
        _ authenticator: inout TestAuthenticator
    ) async throws -> String {
        try await web.get("/")
        let attempt = try await web.post("/demo/sign-up", json: #"{"userName": "\#(name)"}"#)
            .expect(.created, RegistrationAttempt.self)
        let options = try await web.api.registrationOptions(attempt)
        let response = try web.api.registrationResponse(options, authenticator: &authenticator)
        let credential = try await web.api.completeRegistration(attempt, response).expect(.created, CredentialView.self)
        let finish = try await web.post(
            "/demo/sign-up/finish",
            body: ["registrationAttemptId": attempt.registrationAttemptId]
        )
        #expect(try finish.expect(.ok, Redirect.self).redirect == "/account?done=welcome")
        return credential.credentialId
    }

    /// Signs in through the demo's endpoints, with `name` or without one.
    static func signIn(
        _ name: String?,
        _ web: WebClient,
        _ authenticator: inout TestAuthenticator
    ) async throws
        -> APIResponse
    {
        try await web.get("/")
        let body = name.map { #"{"userName": "\#($0)"}"# } ?? "{}"
        let session = try await web.post("/demo/sign-in", json: body).expect(.created, AuthenticationSession.self)
        let options = try await web.api.authenticationOptions(session)
        let completed = try await web.api.completeSignIn(
            session,
            web.api.assertion(options, authenticator: &authenticator)
        )
        // The demo's sessions refuse another account's passkey at the completion already (DEMO_ACCOUNT_REQUIRED).
        guard completed.status == .ok else { return completed }
        let completion = try completed.expect(.ok, SignInCompletion.self)
        return try await web.post(
            "/demo/sign-in/finish",
            body: [
                "biometricPasskeySessionId": session.biometricPasskeySessionId, "resultToken": completion.resultToken,
            ]
        )
    }

    @Test("sign up, see the passkey on the account page, sign out, sign in with and without a user name")
    func lifecycle() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            var authenticator = TestAuthenticator()
            let credentialID = try await Self.signUp("Alice.Example", web, &authenticator)

            let account = try await web.get("/account?done=welcome")
            #expect(account.status == .ok)
            #expect(account.text.contains("Signed in as <strong>alice.example</strong>"))
            #expect(account.text.contains(#"data-credential-id="\#(credentialID)""#))
            #expect(account.text.contains("Your account is ready"))

            #expect(try await web.submit("/sign-out").headers[.location] == "/")
            #expect(try await web.get("/account").headers[.location] == "/", "signed out: the account page redirects")

            #expect(try await Self.signIn("ALICE.example", web, &authenticator).status == .ok)
            #expect(try await web.get("/account").text.contains("alice.example"))
            try await web.submit("/sign-out")
            let usernameless = try await Self.signIn(nil, web, &authenticator)
            #expect(try usernameless.expect(.ok, Redirect.self).redirect == "/account")
            #expect(try await web.get("/account").status == .ok)
        }
    }

    @Test("a user name with a passkey is taken; a bad user name is refused; an unknown one is answered as any other")
    func userNames() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            var authenticator = TestAuthenticator()
            try await Self.signUp("bob", web, &authenticator)
            let other = WebClient(api)
            try await other.get("/")
            expectError(
                try await other.post("/demo/sign-up", json: #"{"userName": "BOB"}"#),
                "USER_NAME_TAKEN",
                .conflict
            )
            for bad in ["", "two words", String(repeating: "a", count: 65), "<script>", "émile"] {
                expectError(
                    try await other.post("/demo/sign-up", body: ["userName": bad]),
                    "INVALID_REQUEST",
                    .badRequest
                )
            }
            // The demo's sign-in never looks a name up (WebSessionBoundTests): an unknown name gets a sign-in too.
            #expect(try await other.post("/demo/sign-in", json: #"{"userName": "carol"}"#).status == .created)
        }
    }

    @Test("a browser cannot finish a registration it did not start, nor sign in without the result token")
    func bindings() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let victim = WebClient(api)
            try await victim.get("/")
            let attempt = try await victim.post("/demo/sign-up", json: #"{"userName": "dora"}"#)
                .expect(.created, RegistrationAttempt.self)
            var authenticator = TestAuthenticator()
            let options = try await api.registrationOptions(attempt)
            _ = try await api.completeRegistration(
                attempt,
                api.registrationResponse(options, authenticator: &authenticator)
            )

            let attacker = WebClient(api)
            try await attacker.get("/")
            let stolen = try await attacker.post(
                "/demo/sign-up/finish",
                body: ["registrationAttemptId": attempt.registrationAttemptId]
            )
            expectError(stolen, "NOT_FOUND", .notFound)
            #expect(try await attacker.get("/account").status == .seeOther)

            let session = try await attacker.post("/demo/sign-in", json: #"{"userName": "dora"}"#)
                .expect(.created, AuthenticationSession.self)
            let guessed = try await attacker.post(
                "/demo/sign-in/finish",
                body: ["biometricPasskeySessionId": session.biometricPasskeySessionId, "resultToken": "pkr_guess"]
            )
            #expect(guessed.status.code >= 400)
            #expect(try await attacker.get("/account").status == .seeOther)
        }
    }

    @Test("rename and delete with forms; another user's passkey is not found; deleted passkeys cannot sign in")
    func manage() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            var phone = TestAuthenticator()
            let phoneID = try await Self.signUp("erin", web, &phone)
            try await web.get("/account")
            let renamed = try await web.submit("/account/passkeys/\(phoneID)/rename", ["name": "Erin's phone"])
            #expect(renamed.status == .seeOther)
            #expect(renamed.headers[.location] == "/account?done=renamed")
            let page = try await web.get("/account?done=renamed")
            #expect(page.text.contains("Erin&#39;s phone") || page.text.contains("Erin&#x27;s phone"))
            #expect(page.text.contains("Passkey renamed."))

            let bad = try await web.submit("/account/passkeys/\(phoneID)/rename", ["name": "<b>"])
            #expect(bad.status == .badRequest)
            #expect(bad.text.contains("must not contain HTML (&#39;&lt;&#39; or &#39;&gt;&#39;)."), "\(bad.text)")
            #expect(bad.text.contains(#"class="status error""#))

            // Add a second passkey while signed in.
            var laptop = TestAuthenticator()
            let attempt = try await web.post("/demo/passkeys", json: #"{"name": "Laptop"}"#)
                .expect(.created, RegistrationAttempt.self)
            let options = try await api.registrationOptions(attempt)
            _ = try await api.completeRegistration(attempt, api.registrationResponse(options, authenticator: &laptop))
                .expect(.created, CredentialView.self)
            let added = try await web.post(
                "/demo/passkeys/finish",
                body: ["registrationAttemptId": attempt.registrationAttemptId]
            )
            #expect(try added.expect(.ok, Redirect.self).redirect == "/account?done=added")
            #expect(try await web.get("/account").text.contains("Laptop"))

            let confirm = try await web.get("/account/passkeys/\(phoneID)/delete")
            #expect(confirm.text.contains("Delete “Erin"))
            // Deleting a passkey ends the sessions signed in with it, this one too.
            let deletion = "/?done=deleted-signed-out&credential=\(phoneID)"
            #expect(try await web.submit("/account/passkeys/\(phoneID)/delete").headers[.location] == deletion)
            #expect(try await web.get("/account").status == .seeOther)
            let after = try await web.get(deletion).text
            #expect(after.contains("You had signed in with it"))
            #expect(after.contains(#"data-unknown-credential="\#(phoneID)""#), "the page signals it to the browser")
            #expect(try await Self.signIn("erin", web, &laptop).status == .ok)
            #expect(!(try await web.get("/account").text.contains(phoneID)))

            // Another user cannot touch erin's laptop passkey.
            let other = WebClient(api)
            var mallory = TestAuthenticator()
            try await Self.signUp("mallory", other, &mallory)
            let users = try await api.backend(.get, "/v1/users?query=erin").json()
            let erin = try #require(users.object?["users"]?.array?.first?.object?["userId"]?.string)
            let laptopID = try await api.backend(.get, Path.userCredentials(erin)).json()
            let id = try #require(laptopID.object?["credentials"]?.array?.first?.object?["credentialId"]?.string)
            try await other.get("/account")
            #expect(try await other.submit("/account/passkeys/\(id)/delete").status == .notFound)
            #expect(try await other.get("/account/passkeys/\(id)/delete").status == .notFound)

            // The deleted phone passkey cannot sign in any more.
            try await web.submit("/sign-out")
            try await web.get("/")
            let session = try await web.post("/demo/sign-in", json: "{}").expect(.created, AuthenticationSession.self)
            let options2 = try await api.authenticationOptions(session)
            expectError(
                try await api.completeSignIn(session, api.assertion(options2, authenticator: &phone)),
                "CREDENTIAL_INACTIVE",
                .forbidden
            )
        }
    }

    @Test("malformed bodies to the demo's endpoints are 4xx errors with a code, never a 500")
    func malformedBodies() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            try await web.get("/")
            let paths = [
                "/demo/sign-up", "/demo/sign-up/finish", "/demo/sign-in", "/demo/sign-in/finish", "/demo/passkeys",
                "/demo/passkeys/finish", "/demo/sign-in/phone",
            ]
            let bodies = ["", "[]", "{", #"{"userName": 5}"#, String(repeating: "[", count: 5000), "\u{0}"]
            for path in paths {
                for body in bodies {
                    let response = try await web.post(path, json: body)
                    #expect((400..<500).contains(response.status.code), "\(path) \(body.prefix(20)): \(response)")
                    #expect((try? response.json().object?["error"]?.object?["code"]?.string) != nil)
                }
            }
        }
    }

    @Test("the demo's endpoints share the client API's rate limit")
    func rateLimited() async throws {
        let server = try TestServer { $0.limits.clientRequestsPerMinute = 3 }
        try await server.withAPI { api in
            let web = WebClient(api)
            try await web.get("/")
            for _ in 0..<3 { #expect(try await web.post("/demo/sign-in").status == .created) }
            expectError(try await web.post("/demo/sign-in"), "RATE_LIMITED", .tooManyRequests, retryable: true)
        }
    }

    @Test("a user deleted while signed in is sent back to the start")
    func deletedUser() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            var authenticator = TestAuthenticator()
            try await Self.signUp("wanda", web, &authenticator)
            #expect(try await web.get("/account").status == .ok)
            let users = try await api.backend(.get, "/v1/users?query=wanda").json()
            let id = try #require(users.object?["users"]?.array?.first?.object?["userId"]?.string)
            #expect(try await api.backend(.delete, "/v1/users/\(id)").status == .noContent)
            let account = try await web.get("/account")
            #expect(account.status == .seeOther)
            #expect(account.headers[.location] == "/")
        }
    }
}
