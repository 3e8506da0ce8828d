import Crypto
import Foundation
import Hummingbird
import PasskeyStorage
import WebAuthn

/// The demo's integrator side, as an integrator's own server would be: it starts flows, checks that the browser
/// finished the one it started, redeems sign-in results, and keeps the signed-in user in the session cookie.
extension WebPages {
    struct SignUpRequest: Decodable, Sendable {
        let userName: String
        let displayName: String?
    }

    struct SignInRequest: Decodable, Sendable {
        let userName: String?
    }

    struct AddPasskeyRequest: Decodable, Sendable {
        let name: String?
    }

    struct FinishRegistrationRequest: Decodable, Sendable {
        let registrationAttemptId: String
    }

    struct Redirect: Encodable, Sendable {
        let redirect: String
    }

    /// The audit log's actor for what the demo does as integrator.
    static let demoActor = "web:demo"

    func registerDemo(on router: Router<PasskeyRequestContext>) {
        router.get("/") { request, context in
            try await page(request, context) { call throws(APIError) in
                let user = call.signedIn == nil ? nil : try? await signedInUser(call)
                let notice =
                    call.query("done") == "deleted-signed-out"
                    ? "Passkey deleted. You had signed in with it, so you are signed out: sign in with another passkey."
                    : nil
                return templates.page(
                    "demo",
                    layoutValues(call) + [
                        "userName": user?.name, "notice": notice,
                        "unknownCredential": notice == nil ? nil : Self.credentialIDQuery(call),
                    ]
                )
            }
        }
        router.post("/demo/sign-up") { request, context in
            try await endpoint(request, context) { call throws(APIError) in
                let body = try await decode(SignUpRequest.self, call)
                let name = try Self.userName(body.userName)
                // User names are unique per relying party: a name the backend API (or the CLI) gave is taken.
                if let holder = try await service.accounts.user(name: name),
                    !holder.isDemoAccount
                {
                    throw APIError.userNameTaken
                }
                let userID = DemoAccount.userID(forName: name)
                if try await service.accounts.credentialRecords(userID: userID)
                    .contains(where: { $0.isLive(at: call.now) })
                {
                    throw APIError.userNameTaken
                }
                return try await startRegistration(
                    &call,
                    userID: userID,
                    userName: name,
                    displayName: Self.nonEmpty(body.displayName) ?? name,
                    credentialName: nil,
                    newAccount: true
                )
            }
        }
        router.post("/demo/sign-up/finish") { request, context in
            try await endpoint(request, context) { call throws(APIError) in
                let credential = try await finishedRegistration(call)
                try await signIn(&call, userID: credential.userId, credentialID: credential.credentialId)
                return JSONBody.response(Redirect(redirect: "/account?done=welcome"))
            }
        }
        router.post("/demo/sign-in") { request, context in
            try await endpoint(request, context) { call throws(APIError) in
                let body = try await decode(SignInRequest.self, call)
                let session = try await createDemoSignIn(&call, userName: body.userName)
                return JSONBody.response(session, status: .created)
            }
        }
        router.post("/demo/sign-in/finish") { request, context in
            try await endpoint(request, context) { call throws(APIError) in
                let flowID = call.session.pendingFlowID ?? ""
                let result = try await redeemPendingSignIn(&call, as: Self.demoActor)
                guard let user = try await service.accounts.user(id: result.userId),
                    user.isDemoAccount
                else { throw APIError.demoAccountsOnly }
                // A phone's approval can be relayed by whoever shows its QR code: never for an operator's account.
                if isOperator(user.id),
                    try await service.handoff.session(forSignIn: flowID) != nil
                {
                    throw APIError.operatorAccountRestricted
                }
                try await signIn(&call, userID: result.userId, credentialID: result.credentialId)
                return JSONBody.response(Redirect(redirect: "/account"))
            }
        }
        router.post("/demo/passkeys") { request, context in
            try await endpoint(request, context) { call throws(APIError) in
                let user = try await signedInUser(call)
                guard !isOperator(user.id) else { throw APIError.operatorAccountRestricted }
                let body = try await decode(AddPasskeyRequest.self, call)
                return try await startRegistration(
                    &call,
                    userID: user.id,
                    userName: user.name,
                    displayName: user.name,
                    credentialName: Self.nonEmpty(body.name)
                )
            }
        }
        router.post("/demo/passkeys/finish") { request, context in
            try await endpoint(request, context) { call throws(APIError) in
                let userID = try call.signedInUserID()
                guard try await finishedRegistration(call).userId == userID else { throw APIError.signInRequired }
                call.session.pendingFlowID = nil
                return JSONBody.response(Redirect(redirect: "/account?done=added"))
            }
        }
    }

    /// A sign-in session for whoever answers with a passkey, remembered as the one this browser may finish.
    ///
    /// A user name, when one is given, is checked for its form only and never looked up: the answer and its options
    /// (an empty `allowCredentials`) are the same for every name — a demo account's, an integrator's user's, or
    /// nobody's — so the demo tells no one which names exist nor which credential ids they have. The passkey that
    /// answers names its account; only a demo account is signed in.
    func createDemoSignIn(
        _ call: inout WebCall,
        userName: String?
    ) async throws(APIError) -> CreateAuthenticationResponse {
        _ = try Self.nonEmpty(userName).map(Self.userName)
        let session = try await service.signIn.create(
            CreateAuthenticationRequest(userId: nil, mode: nil, action: "demo.sign-in", transaction: nil),
            demoAccountsOnly: true,
            by: call.caller(Self.demoActor)
        )
        call.session.pendingFlowID = session.biometricPasskeySessionId
        return session
    }

    /// The passkey of the registration this browser started, once it completed.
    private func finishedRegistration(_ call: WebCall) async throws(APIError) -> CredentialResponse {
        let body = try await decode(FinishRegistrationRequest.self, call)
        guard call.session.pendingFlowID == body.registrationAttemptId else {
            throw APIError.notFound("This browser did not start that registration; start again.")
        }
        let status = try await service.registration.status(id: body.registrationAttemptId)
        guard status.status == FlowStatus.completed.rawValue, let credential = status.credential else {
            throw APIError.invalidRequest("The registration has not completed (\(status.status)); start again.")
        }
        return credential
    }

    /// Starts a registration for the user, remembered as the one this browser may finish.
    private func startRegistration(
        _ call: inout WebCall,
        userID: String,
        userName: String,
        displayName: String,
        credentialName: String?,
        newAccount: Bool = false
    ) async throws(APIError) -> Response {
        let attempt = try await service.registration.create(
            CreateRegistrationRequest(
                userId: userID,
                userName: userName,
                displayName: displayName,
                identityVerification: nil,
                credentialName: credentialName,
                finalize: nil,
                workflowRunId: nil
            ),
            newAccount: newAccount,
            by: call.caller(Self.demoActor)
        )
        call.session.pendingFlowID = attempt.registrationAttemptId
        return JSONBody.response(attempt, status: .created)
    }

    func decode<T: Decodable>(_ type: T.Type, _ call: WebCall) async throws(APIError) -> T {
        try await JSONBody.decode(type, from: call.request, limit: service.configuration.limits.maxRequestBodyBytes)
    }

    static func nonEmpty(_ text: String?) -> String? { text?.isEmpty == false ? text : nil }

    /// A demo user name: 1–64 of letters, digits and `._-@+`, compared without case.
    static func userName(_ text: String) throws(APIError) -> String {
        let name = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard (1...64).contains(name.utf8.count),
            name.unicodeScalars.allSatisfy({
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-@+".unicodeScalars.contains($0))
            })
        else {
            throw APIError.invalidRequest("A user name is 1 to 64 letters, digits and . _ - @ + characters.")
        }
        return name
    }

    /// The `credential` query parameter when it is a credential id (base64url), for the pages' WebAuthn signals.
    static func credentialIDQuery(_ call: WebCall) -> String? {
        call.query("credential").flatMap { id in
            (try? Base64URL.decode(id)).map { !$0.isEmpty && $0.count <= 1023 } == true ? id : nil
        }
    }

}
