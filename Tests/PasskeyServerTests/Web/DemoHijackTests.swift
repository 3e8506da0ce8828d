import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// What a stranger could do with the demo: squat a user name, finish another browser's sign-in, redeem the
/// integrator's own sign-ins, or sign in to the demo as one of the integrator's users.
@Suite("Web demo: hijacking")
struct DemoHijackTests {
    @Test("a sign-up left pending cannot add its passkey to the account someone else completed meanwhile")
    func squattedName() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let attacker = WebClient(api)
            try await attacker.get("/")
            let squat = try await attacker.post("/demo/sign-up", json: #"{"userName": "victim"}"#)
                .expect(.created, RegistrationAttempt.self)

            let victim = WebClient(api)
            var victimPhone = TestAuthenticator()
            try await DemoTests.signUp("victim", victim, &victimPhone)

            var attackerPhone = TestAuthenticator()
            let options = try await api.registrationOptions(squat)
            let late = try await api.completeRegistration(
                squat,
                api.registrationResponse(options, authenticator: &attackerPhone)
            )
            expectError(late, "USER_NAME_TAKEN", .conflict)
            let finish = try await attacker.post(
                "/demo/sign-up/finish",
                body: ["registrationAttemptId": squat.registrationAttemptId]
            )
            #expect(finish.status.code >= 400)
            #expect(try await attacker.get("/account").status == .seeOther, "the attacker is not signed in")
            let users = try await api.backend(.get, "/v1/users?query=victim").json()
            let owner = try #require(users.object?["users"]?.array?.first?.object?["userId"]?.string)
            #expect(try await api.credentials(of: owner).count == 1, "only the victim's passkey")
        }
    }

    @Test("a sign-in is finished only by the browser that started it")
    func signInBoundToItsBrowser() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await DemoTests.signUp("dora", WebClient(api), &phone)
            let owner = WebClient(api)
            try await owner.get("/")
            let session = try await owner.post("/demo/sign-in", json: #"{"userName": "dora"}"#)
                .expect(.created, AuthenticationSession.self)
            let options = try await api.authenticationOptions(session)
            let completion = try await api.completeSignIn(session, api.assertion(options, authenticator: &phone))
                .expect(.ok, SignInCompletion.self)
            let finish = [
                "biometricPasskeySessionId": session.biometricPasskeySessionId, "resultToken": completion.resultToken,
            ]

            let other = WebClient(api)
            try await other.get("/")
            expectError(try await other.post("/demo/sign-in/finish", body: finish), "NOT_FOUND", .notFound)
            #expect(try await other.get("/account").status == .seeOther)
            // The result was not spent: the browser that started the sign-in finishes it.
            #expect(try await owner.post("/demo/sign-in/finish", body: finish).status == .ok)
            #expect(try await owner.get("/account").status == .ok)
        }
    }

    @Test("the payment confirmation needs a signed-in user and is finished only by the browser that started it")
    func stepUpDemo() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let stranger = WebClient(api)
            try await stranger.get("/")
            expectError(try await stranger.post("/demo/step-up"), "SIGN_IN_REQUIRED", .unauthorized)

            let owner = WebClient(api)
            var phone = TestAuthenticator()
            try await DemoTests.signUp("rita", owner, &phone)
            try await owner.get("/account")
            let created = try await owner.post("/demo/step-up")
            #expect(created.status == .created)
            #expect(
                try created.json().object?["transaction"]?.object?["text"]?.string?.hasPrefix("Pay 42.00 EUR") == true
            )
            let session = try created.decode(AuthenticationSession.self)
            let options = try await api.authenticationOptions(session)
            let completion = try await api.completeSignIn(session, api.assertion(options, authenticator: &phone))
                .expect(.ok, SignInCompletion.self)
            let finish = [
                "biometricPasskeySessionId": session.biometricPasskeySessionId, "resultToken": completion.resultToken,
            ]
            let other = WebClient(api)
            var otherPhone = TestAuthenticator()
            try await DemoTests.signUp("sam", other, &otherPhone)
            try await other.get("/account")
            expectError(try await other.post("/demo/step-up/finish", body: finish), "NOT_FOUND", .notFound)
            let result = try await owner.post("/demo/step-up/finish", body: finish).json().object
            #expect(result?["assurance"]?.string == "passkey+uv")
            #expect(result?["mode"]?.string == "stepUp")
        }
    }

    @Test("the demo neither redeems the integrator's sign-ins nor signs in the integrator's users")
    func integratorUsers() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("customer-1", authenticator: &phone)

            // The integrator's own sign-in, its result token seen by the demo's browser.
            let session = try await api.startSignIn(userID: "customer-1")
            let options = try await api.authenticationOptions(session)
            let completion = try await api.completeSignIn(session, api.assertion(options, authenticator: &phone))
                .expect(.ok, SignInCompletion.self)
            let web = WebClient(api)
            try await web.get("/")
            let stolen = try await web.post(
                "/demo/sign-in/finish",
                body: [
                    "biometricPasskeySessionId": session.biometricPasskeySessionId,
                    "resultToken": completion.resultToken,
                ]
            )
            expectError(stolen, "NOT_FOUND", .notFound)
            #expect(try await api.redeem(session, completion.resultToken).status == .ok, "the integrator's to redeem")

            // A demo sign-in without a user name, answered by the integrator user's passkey.
            let usernameless = try await DemoTests.signIn(nil, web, &phone)
            expectError(usernameless, "DEMO_ACCOUNT_REQUIRED", .forbidden)
            #expect(try await web.get("/account").status == .seeOther)
        }
    }
}
