import Foundation
import HTTPTypes
import PasskeyTesting
import Testing
import WebAuthn

@testable import PasskeyServer

/// The demo and an operator's account: a relayed "sign in with your phone" or a passkey added in the demo would
/// hand someone the account, so neither is offered for it. Over a real socket, on SQLite and on PostgreSQL.
@Suite("Web demo: operator accounts")
struct OperatorDemoTests {
    @Test(
        "the demo adds no passkey to an operator's account and signs it in with no phone",
        arguments: RealStore.available
    )
    func operatorAccountsRestricted(_ store: RealStore) async throws {
        let operatorID = DemoAccount.userID(forName: "olga")
        let configure: @Sendable (inout ServerConfiguration) -> Void = { $0.web.operators = [operatorID] }
        try await store.withLiveServer(configure: configure) { _, api in
            let web = WebClient(api)
            var phone = TestAuthenticator()
            try await DemoTests.signUp("olga", web, &phone)
            let account = try await web.get("/account")
            #expect(!account.text.contains(#"id="add-passkey""#))
            #expect(account.text.contains(#"id="operator-account""#))
            expectError(try await web.post("/demo/passkeys"), "OPERATOR_ACCOUNT_RESTRICTED", .forbidden)

            try await web.get("/account")
            #expect(try await web.submit("/sign-out").headers[.location] == "/")
            try await web.get("/")
            let handoff = try await web.post("/demo/sign-in/phone").expect(.created, PhoneSignInTests.PhoneSignIn.self)
            let (_, approved) = try await api.approve(handoff.handoff, phone: &phone)
            #expect(approved.status == .ok, "\(approved)")
            let finish = try await web.post(
                "/demo/sign-in/finish",
                body: [
                    "biometricPasskeySessionId": handoff.biometricPasskeySessionId, "resultToken": handoff.pollToken,
                ]
            )
            expectError(finish, "OPERATOR_ACCOUNT_RESTRICTED", .forbidden)
            #expect(try await web.get("/account").status == .seeOther, "not signed in")

            // On the device that holds the passkey, the operator signs in to the demo as before.
            #expect(try await DemoTests.signIn("olga", web, &phone).status == .ok)
        }
    }
}
