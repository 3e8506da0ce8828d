import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyTesting
import Testing
import WebAuthn

/// The demo's "Sign in with your phone" over HTTP, in process: the browser's sign-in handed off to a phone, redeemed
/// with the poll token once the phone approved; and `/approve`, the page the phone's browser opens.
@Suite("Web demo: sign in with your phone")
struct PhoneSignInTests {
    /// `POST /demo/sign-in/phone`
    struct PhoneSignIn: Decodable {
        let biometricPasskeySessionId: String
        let crossPlatformSessionId: String
        let deepLink: String
        let qrCodeSVG: String
        let verificationCode: String
        let pollToken: String
        let expiresAt: String

        var handoffToken: String { String(deepLink.split(separator: "#", maxSplits: 1).last ?? "") }
        var handoff: Handoff {
            Handoff(
                crossPlatformSessionId: crossPlatformSessionId,
                handoffToken: handoffToken,
                deepLink: deepLink,
                qrCodeSVG: qrCodeSVG,
                verificationCode: verificationCode,
                pollToken: pollToken,
                expiresAt: expiresAt
            )
        }
    }

    /// Signs `name` up through the demo, then out again: the browser is anonymous, the passkey on `authenticator`.
    static func signedUpAndOut(_ name: String, _ web: WebClient, _ authenticator: inout TestAuthenticator) async throws
    {
        try await DemoTests.signUp(name, web, &authenticator)
        try await web.get("/account")
        #expect(try await web.submit("/sign-out").headers[.location] == "/")
        try await web.get("/")
        #expect(try await web.get("/account").status == .seeOther)
    }

    @Test("the CSRF token is required; without it nothing is handed off")
    func csrfRequired() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            try await web.get("/")
            expectError(try await web.post("/demo/sign-in/phone", csrf: false), "CSRF_TOKEN_INVALID", .forbidden)
            let fresh = WebClient(api)
            expectError(try await fresh.post("/demo/sign-in/phone"), "CSRF_TOKEN_INVALID", .forbidden)
        }
    }

    @Test("the answer has the QR code, the number, the link to /approve and the poll token, which reads 'pending'")
    func answer() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            try await web.get("/")
            let phone = try await web.post("/demo/sign-in/phone").expect(.created, PhoneSignIn.self)
            #expect(phone.deepLink.hasPrefix(server.origin + "/approve#pkh_"))
            #expect(phone.qrCodeSVG.contains("<svg"))
            #expect(phone.verificationCode.count == 2 && phone.verificationCode.allSatisfy(\.isNumber))
            #expect(phone.pollToken.hasPrefix("pkp_"))
            #expect(phone.crossPlatformSessionId.hasPrefix("xps_"))
            #expect(try await api.handoffStatus(phone.handoff) == "pending")
            // A name is never looked up: one nobody has is answered as any other, telling nothing.
            #expect(try await web.post("/demo/sign-in/phone", json: #"{"userName": "nobody"}"#).status == .created)
        }
    }

    @Test("the phone approves: the browser redeems with the poll token and is signed in; the token works once")
    func approvedSignsIn() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            var authenticator = TestAuthenticator()
            try await Self.signedUpAndOut("pat", web, &authenticator)
            let phone = try await web.post("/demo/sign-in/phone", json: #"{"userName": "pat"}"#)
                .expect(.created, PhoneSignIn.self)

            // Before the phone approved, the poll token redeems nothing.
            let early = try await web.post(
                "/demo/sign-in/finish",
                body: ["biometricPasskeySessionId": phone.biometricPasskeySessionId, "resultToken": phone.pollToken]
            )
            #expect(early.status.code >= 400 && early.status.code < 500, "\(early)")

            let (_, completed) = try await api.approve(phone.handoff, phone: &authenticator)
            #expect(completed.status == .ok, "\(completed)")
            #expect(try await api.handoffStatus(phone.handoff) == "approved")

            let finish = try await web.post(
                "/demo/sign-in/finish",
                body: ["biometricPasskeySessionId": phone.biometricPasskeySessionId, "resultToken": phone.pollToken]
            )
            #expect(try finish.expect(.ok, DemoTests.Redirect.self).redirect == "/account")
            let account = try await web.get("/account")
            #expect(account.status == .ok)
            #expect(account.text.contains("Signed in as <strong>pat</strong>"))
        }
    }

    @Test("another browser cannot redeem the handoff, even with its poll token")
    func otherBrowser() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            var authenticator = TestAuthenticator()
            try await Self.signedUpAndOut("quinn", web, &authenticator)
            let phone = try await web.post("/demo/sign-in/phone").expect(.created, PhoneSignIn.self)
            _ = try await api.approve(phone.handoff, phone: &authenticator)
            let other = WebClient(api)
            try await other.get("/")
            let stolen = try await other.post(
                "/demo/sign-in/finish",
                body: ["biometricPasskeySessionId": phone.biometricPasskeySessionId, "resultToken": phone.pollToken]
            )
            expectError(stolen, "NOT_FOUND", .notFound)
            #expect(try await other.get("/account").status == .seeOther)
        }
    }

    @Test("the phone says not me: the status reads 'rejected' and the browser cannot redeem")
    func rejected() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            var authenticator = TestAuthenticator()
            try await Self.signedUpAndOut("rhea", web, &authenticator)
            let phone = try await web.post("/demo/sign-in/phone").expect(.created, PhoneSignIn.self)
            let resumed = try await api.resume(phone.handoffToken).expect(.ok, ResumedHandoff.self)
            #expect(try await api.handoffStatus(phone.handoff) == "claimed")
            _ = try await api.reject(resumed).expect(.ok, JSONValue.self)
            #expect(try await api.handoffStatus(phone.handoff) == "rejected")
            let finish = try await web.post(
                "/demo/sign-in/finish",
                body: ["biometricPasskeySessionId": phone.biometricPasskeySessionId, "resultToken": phone.pollToken]
            )
            #expect(finish.status.code >= 400 && finish.status.code < 500, "\(finish)")
            let account = try await web.get("/account")
            #expect(account.status == .seeOther, "\(account)")
        }
    }

    @Test(
        "a phone that names its passkeys, all of a site account, is refused at the options: nothing is signed, the handoff is rejected with DEMO_ACCOUNT_REQUIRED"
    )
    func siteAccountRefusedBeforeSigning() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            var phone = TestAuthenticator()
            let site = try await api.enroll("alice", authenticator: &phone)
            try await web.get("/")
            let handoff = try await web.post("/demo/sign-in/phone").expect(.created, PhoneSignIn.self)
            let resumed = try await api.resume(handoff.handoffToken).expect(.ok, ResumedHandoff.self)
            _ = try await api.confirm(resumed, code: handoff.verificationCode).expect(.ok, JSONValue.self)

            let options = try await api.client(
                .post,
                Path.authenticationOptions(resumed.biometricPasskeySessionId),
                token: resumed.clientToken,
                body: ["credentialIds": [site.credentialId]]
            )
            expectError(options, "DEMO_ACCOUNT_REQUIRED", .forbidden)
            let status = try await api.client(
                .get,
                "/v1/client/cross-platform/\(handoff.crossPlatformSessionId)/status",
                token: handoff.pollToken
            ).json().object
            #expect(status?["status"]?.string == "rejected")
            #expect(status?["code"]?.string == "DEMO_ACCOUNT_REQUIRED")
            // No challenge was issued: the phone has nothing it could sign.
            let again = try await api.client(
                .post,
                Path.authenticationOptions(resumed.biometricPasskeySessionId),
                token: resumed.clientToken
            )
            #expect(again.status.code >= 400 && again.status.code < 500, "\(again)")
        }
    }

    @Test(
        "a phone's named passkeys narrow the demo's options to its demo accounts'; unknown or malformed ids, too many, are refused with their codes"
    )
    func heldPasskeysNarrowTheOptions() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            // The phone holds two passkeys: one of a site account, one of a demo account.
            var sitePasskey = TestAuthenticator()
            var phone = TestAuthenticator()
            let site = try await api.enroll("alice", authenticator: &sitePasskey)
            let demo = try await DemoTests.signUp("bea", web, &phone)
            try await web.get("/account")
            _ = try await web.submit("/sign-out")
            try await web.get("/")
            let handoff = try await web.post("/demo/sign-in/phone").expect(.created, PhoneSignIn.self)
            let resumed = try await api.resume(handoff.handoffToken).expect(.ok, ResumedHandoff.self)
            _ = try await api.confirm(resumed, code: handoff.verificationCode).expect(.ok, JSONValue.self)
            let path = Path.authenticationOptions(resumed.biometricPasskeySessionId)

            let unknown = Base64URL.encode(Array(repeating: 7, count: 16))
            expectError(
                try await api.client(.post, path, token: resumed.clientToken, body: ["credentialIds": [unknown]]),
                "CREDENTIAL_NOT_FOUND",
                .notFound
            )
            expectError(
                try await api.client(
                    .post,
                    path,
                    token: resumed.clientToken,
                    body: ["credentialIds": ["not base64url!"]]
                ),
                "INVALID_REQUEST",
                .badRequest
            )
            expectError(
                try await api.client(
                    .post,
                    path,
                    token: resumed.clientToken,
                    body: ["credentialIds": Array(repeating: unknown, count: 65)]
                ),
                "INVALID_REQUEST",
                .badRequest
            )
            let options = try await api.client(
                .post,
                path,
                token: resumed.clientToken,
                body: ["credentialIds": [site.credentialId, unknown, demo]]
            ).expect(.ok, Options<PublicKeyCredentialRequestOptionsJSON>.self).publicKey
            #expect(options.allowCredentials?.map(\.id.base64URL) == [demo])
            let completed = try await api.completeSignIn(resumed.session, api.assertion(options, authenticator: &phone))
            #expect(completed.status == .ok, "\(completed)")
            #expect(try await api.handoffStatus(handoff.handoff) == "approved")
        }
    }

    @Test("GET /approve: the page and its script, under the pages' policy (no inline script), without a token in it")
    func approvePage() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            let page = try await web.get("/approve")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"))
            #expect(page.text.contains(#"<script src="/assets/approve.js" defer></script>"#))
            #expect(page.text.contains(#"<script src="/assets/passkeys.js" defer></script>"#))
            #expect(!page.text.contains("<script>"))
            #expect(page.text.contains(#"id="approve-form""#))
            #expect(page.text.contains(#"id="approve-reject""#))
            let script = try await web.get("/assets/approve.js")
            #expect(script.status == .ok)
            #expect(script.text.contains("/v1/client/cross-platform/resume"))
            #expect(try await web.get("/assets/phone-sign-in.js").status == .ok)
            #expect(try await web.get("/").text.contains(#"id="sign-in-phone""#))
        }
    }

    @Test("without the demo there is neither /approve nor /demo/sign-in/phone")
    func demoOff() async throws {
        let server = try TestServer { $0.web.demo = false }
        try await server.withAPI { api in
            let web = WebClient(api)
            let page = try await web.get("/approve")
            let endpoint = try await web.post("/demo/sign-in/phone", csrf: false)
            #expect(page.status == .notFound)
            #expect(endpoint.status == .notFound)
        }
    }
}
