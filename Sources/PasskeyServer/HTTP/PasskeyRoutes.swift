import Foundation
public import HTTPTypes
import Hummingbird
import PasskeyStorage

/// Every endpoint of DESIGN §3 that this server implements.
public enum PasskeyRoutes {
    static func all(_ service: PasskeyService) -> [Route] {
        backend(service) + client(service) + open(service) + sessions(service)
    }

    /// The method, path, access and (for a backend route) scope of every route, for documentation checks.
    public static func table(
        _ service: PasskeyService
    ) -> [(method: HTTPRequest.Method, path: String, access: Route.Access, scope: APIScope?)] {
        all(service).map { ($0.method, $0.path, $0.access, $0.scope) }
    }

    static func backend(_ s: PasskeyService) -> [Route] {
        [
            Route.backend(.post, "/v1/registrations", scope: .registrations) { request, _, call in
                JSONBody.response(
                    try await s.registration.create(
                        try await call.body(CreateRegistrationRequest.self, request),
                        by: call.caller
                    ),
                    status: .created
                )
            },
            Route.backend(.get, "/v1/registrations/{registrationAttemptId}", scope: .registrations) { _, _, call in
                JSONBody.response(try await s.registration.status(id: try call.parameter("registrationAttemptId")))
            },
            Route.backend(.post, "/v1/registrations/{registrationAttemptId}/finalize", scope: .registrations) {
                request,
                _,
                call in
                JSONBody.response(
                    try await s.registration.finalize(
                        id: try call.parameter("registrationAttemptId"),
                        try await call.body(SettleRegistrationRequest.self, request, empty: .none),
                        by: call.caller
                    )
                )
            },
            Route.backend(.post, "/v1/registrations/{registrationAttemptId}/abort", scope: .registrations) {
                request,
                _,
                call in
                JSONBody.response(
                    try await s.registration.abort(
                        id: try call.parameter("registrationAttemptId"),
                        try await call.body(SettleRegistrationRequest.self, request, empty: .none),
                        by: call.caller
                    )
                )
            },
            Route.backend(.post, "/v1/registrations/{registrationAttemptId}/cancel", scope: .registrations) {
                _,
                _,
                call in
                JSONBody.response(
                    try await s.registration.cancel(id: try call.parameter("registrationAttemptId"), by: call.caller)
                )
            },
            Route.backend(.post, "/v1/authentications", scope: .authentications) { request, _, call in
                JSONBody.response(
                    try await s.signIn.create(
                        try await call.body(CreateAuthenticationRequest.self, request),
                        by: call.caller
                    ),
                    status: .created
                )
            },
            Route.backend(.post, "/v1/authentications/{biometricPasskeySessionId}/redeem", scope: .authentications) {
                request,
                _,
                call in
                JSONBody.response(
                    try await s.signIn.redeem(
                        id: try call.parameter("biometricPasskeySessionId"),
                        request: try await call.body(RedeemRequest.self, request),
                        by: call.caller
                    )
                )
            },
            Route.backend(.post, "/v1/authentications/{biometricPasskeySessionId}/handoff", scope: .authentications) {
                _,
                _,
                call in
                JSONBody.response(
                    try await s.handoff.create(
                        forSignIn: try call.parameter("biometricPasskeySessionId"),
                        by: call.caller
                    ),
                    status: .created
                )
            },
            Route.backend(.get, "/v1/users", scope: .users) { request, _, _ in
                let query = request.uri.queryParameters
                return JSONBody.response(
                    try await s.accounts.users(
                        matching: query["query"].map(String.init),
                        after: query["after"].map(String.init),
                        limit: try AccountFlow.userPageSize(query["limit"].map(String.init)),
                        order: try AccountFlow.userOrder(query["order"].map(String.init)),
                        userName: query["userName"].map(String.init)
                    )
                )
            },
            Route.backend(.get, "/v1/users/{userId}/credentials", scope: .credentialsRead) { _, _, call in
                JSONBody.response(try await s.accounts.listCredentials(userID: try call.parameter("userId")))
            },
            Route.backend(.delete, "/v1/users/{userId}", scope: .users) { _, _, call in
                try await s.accounts.deleteUser(id: try call.parameter("userId"), by: call.caller)
                return Response(status: .noContent)
            },
            Route.backend(.get, "/v1/credentials/{credentialId}", scope: .credentialsRead) { _, _, call in
                JSONBody.response(try await s.accounts.credential(id: try call.parameter("credentialId")))
            },
            Route.backend(.patch, "/v1/credentials/{credentialId}", scope: .credentialsWrite) { request, _, call in
                JSONBody.response(
                    try await s.accounts.renameCredential(
                        id: try call.parameter("credentialId"),
                        request: try await call.body(AccountFlow.RenameRequest.self, request),
                        by: call.caller
                    )
                )
            },
            Route.backend(.delete, "/v1/credentials/{credentialId}", scope: .credentialsWrite) { _, _, call in
                try await s.accounts.revokeCredential(id: try call.parameter("credentialId"), by: call.caller)
                return Response(status: .noContent)
            },
            Route.backend(.get, "/v1/identity-verification/runs/{workflowRunId}", scope: .identityVerificationRead) {
                _,
                _,
                call in
                JSONBody.response(try await s.identityVerification.workflowRun(id: try call.parameter("workflowRunId")))
            },
            Route.backend(
                .post,
                "/v1/identity-verification/runs/{workflowRunId}/decision",
                scope: .identityVerificationDecide
            ) { request, _, call in
                guard s.configuration.identityVerification.provider == .simulated else {
                    throw APIError.notFound(
                        "Decisions are posted here only with the simulated identity-verification provider."
                    )
                }
                let body = try await call.body(DecisionRequest.self, request)
                return JSONBody.response(
                    try await s.identityVerification.decideWorkflowRun(
                        id: try call.parameter("workflowRunId"),
                        decision: body.decision,
                        faceMatch: body.faceMatch,
                        by: call.caller
                    )
                )
            },
            Route.backend(.get, "/v1/audit-events", scope: .auditRead) { request, _, _ in
                let query = request.uri.queryParameters
                return JSONBody.response(
                    try await s.accounts.auditEvents(
                        order: query["order"].map(String.init),
                        after: query["after"].map(String.init),
                        before: query["before"].map(String.init),
                        limit: query["limit"].map(String.init),
                        userID: query["userId"].map(String.init)
                    )
                )
            },
            Route.backend(.post, "/v1/recoveries", scope: .recoveries) { request, _, call in
                JSONBody.response(
                    try await s.recovery.create(
                        try await call.body(CreateRecoveryRequest.self, request),
                        by: call.caller
                    ),
                    status: .created
                )
            },
            Route.backend(.get, "/v1/recoveries/{recoveryAttemptId}", scope: .recoveries) { _, _, call in
                JSONBody.response(try await s.recovery.status(id: try call.parameter("recoveryAttemptId")))
            },
            Route.backend(.post, "/v1/recoveries/{recoveryAttemptId}/finalize", scope: .recoveries) { _, _, call in
                JSONBody.response(
                    try await s.recovery.finalize(id: try call.parameter("recoveryAttemptId"), by: call.caller)
                )
            },
            Route.backend(.post, "/v1/recoveries/{recoveryAttemptId}/cancel", scope: .recoveries) { _, _, call in
                JSONBody.response(
                    try await s.recovery.cancel(id: try call.parameter("recoveryAttemptId"), by: call.caller)
                )
            },
        ]
    }

    static func client(_ s: PasskeyService) -> [Route] {
        let a = s.authorization
        return [
            Route.client(
                .post,
                "/v1/client/registrations/{registrationAttemptId}/options",
                .flow(.registration, id: "registrationAttemptId", a)
            ) { _, _, flow in
                JSONBody.response(try await s.registration.options(for: flow))
            },
            // The flow is resolved before the body is read, so a caller without its token learns nothing from validation.
            Route.client(
                .post,
                "/v1/client/registrations/{registrationAttemptId}/complete",
                .flow(.registration, id: "registrationAttemptId", a)
            ) { request, call, flow in
                JSONBody.response(
                    try await s.registration.complete(
                        flow,
                        request: try await call.body(CompleteRegistrationRequest.self, request),
                        by: call.caller
                    ),
                    status: .created
                )
            },
            Route.client(
                .post,
                "/v1/client/authentications/{biometricPasskeySessionId}/options",
                .flow(.authentication, id: "biometricPasskeySessionId", a)
            ) { request, call, flow in
                JSONBody.response(
                    try await s.signIn.options(
                        for: flow,
                        held: try await call.body(AuthenticationOptionsRequest.self, request, empty: .none),
                        by: call.caller
                    )
                )
            },
            Route.client(
                .post,
                "/biometric-passkey/mobile/step-up/{biometricPasskeySessionId}/idv/start",
                .flow(.authentication, id: "biometricPasskeySessionId", a)
            ) { _, call, flow in
                JSONBody.response(
                    try await s.signIn.startIdentityVerification(for: flow, by: call.caller),
                    status: .created
                )
            },
            Route.client(
                .post,
                "/v1/client/authentications/{biometricPasskeySessionId}/complete",
                .flow(.authentication, id: "biometricPasskeySessionId", a)
            ) { request, call, flow in
                JSONBody.response(
                    try await s.signIn.complete(
                        flow,
                        request: try await call.body(CompleteAuthenticationRequest.self, request),
                        by: call.caller
                    )
                )
            },
            Route.client(.post, "/biometric-passkey/mobile/recovery/{recoveryAttemptId}/idv/start", .recoveryDevice(a))
            {
                _,
                call,
                attempt in
                JSONBody.response(
                    try await s.recovery.startIdentityVerification(for: attempt, by: call.caller),
                    status: .created
                )
            },
        ] + handoff(s)
    }

    /// The handoff (DESIGN §3 flow 4, `cross-platform` in the paths): the phone's calls, and the first device's.
    static func handoff(_ s: PasskeyService) -> [Route] {
        let a = s.authorization
        return [
            // The phone has no token yet: the handoff token in the body is its credential.
            Route.open(.post, "/v1/client/cross-platform/preview") { request, _, call in
                JSONBody.response(
                    try await s.handoff.preview(
                        try await call.body(ResumeHandoffRequest.self, request),
                        by: call.caller
                    )
                )
            },
            Route.open(.post, "/v1/client/cross-platform/resume") { request, _, call in
                JSONBody.response(
                    try await s.handoff.resume(try await call.body(ResumeHandoffRequest.self, request), by: call.caller)
                )
            },
            Route.client(.post, "/v1/client/cross-platform/{crossPlatformSessionId}/confirm", .handoff(.phone, a)) {
                request,
                call,
                handoff in
                JSONBody.response(
                    try await s.handoff.confirm(
                        handoff,
                        request: try await call.body(ConfirmHandoffRequest.self, request),
                        by: call.caller
                    )
                )
            },
            Route.client(.post, "/v1/client/cross-platform/{crossPlatformSessionId}/reject", .handoff(.phone, a)) {
                _,
                call,
                handoff in
                JSONBody.response(try await s.handoff.reject(handoff, by: call.caller))
            },
            Route.client(
                .post,
                "/biometric-passkey/mobile/cross-platform/{crossPlatformSessionId}/idv/start",
                .handoff(.phone, a)
            ) {
                _,
                call,
                handoff in
                JSONBody.response(
                    try await s.handoff.startIdentityVerification(for: handoff, by: call.caller),
                    status: .created
                )
            },
            Route.client(.post, "/v1/client/cross-platform/{crossPlatformSessionId}/cancel", .handoff(.firstDevice, a))
            {
                _,
                call,
                handoff in
                JSONBody.response(try await s.handoff.cancel(handoff, by: call.caller))
            },
            Route.client(.get, "/v1/client/cross-platform/{crossPlatformSessionId}/status", .handoff(.firstDevice, a)) {
                _,
                _,
                handoff in
                JSONBody.response(try await s.handoff.status(of: handoff))
            },
            Route.client(.get, "/v1/client/cross-platform/{crossPlatformSessionId}/events", .handoff(.firstDevice, a)) {
                _,
                call,
                handoff in
                try await s.handoff.events(of: handoff, by: call.caller)
            },
        ]
    }

    /// Token sessions (docs/server.md, "Token sessions"): the app's refresh token, in the body, is the credential of
    /// the refresh and the revocation; the keys that verify access tokens are public.
    static func sessions(_ s: PasskeyService) -> [Route] {
        [
            Route.open(.post, "/v1/sessions/refresh") { request, _, call in
                JSONBody.response(
                    try await s.sessions.refresh(
                        try await call.body(SessionTokenRequest.self, request),
                        by: call.caller.asClient
                    )
                )
            },
            Route.open(.post, "/v1/sessions/revoke") { request, _, call in
                JSONBody.response(
                    try await s.sessions.revoke(
                        try await call.body(SessionTokenRequest.self, request),
                        by: call.caller.asClient
                    )
                )
            },
            Route.open(.get, "/.well-known/jwks.json") { _, _, _ in
                var response = JSONBody.response(try await s.sessions.keySet())
                response.headers[.contentType] = "application/jwk-set+json"
                // Verifiers cache the set briefly; a token whose key they do not know makes them fetch it again.
                response.headers[.cacheControl] = "public, max-age=300"
                return response
            },
        ]
    }

    static func open(_ s: PasskeyService) -> [Route] {
        let files = AssociationFiles(configuration: s.configuration)
        return [
            Route.open(.post, "/v1/identity-verification/webhook") { request, _, call in
                let body: [UInt8]
                do {
                    body = Array(buffer: try await request.body.collect(upTo: call.bodyLimit))
                } catch {
                    throw APIError.payloadTooLarge(call.bodyLimit)
                }
                try await s.identityVerification.receiveWebhook(
                    body,
                    headers: request.headers,
                    by: Caller(actor: "idv-webhook", requestID: call.caller.requestID, clientIP: call.caller.clientIP)
                )
                return Response(status: .noContent)
            },
            Route.open(.get, "/health") { _, _, _ in
                JSONBody.response(["status": "ok"])
            },
            Route.open(.get, "/metrics") { _, _, _ in
                JSONBody.raw(s.metrics.exposition(), contentType: "text/plain; version=0.0.4")
            },
            Route.open(.get, "/.well-known/apple-app-site-association") { _, _, _ in
                JSONBody.raw(try files.appleAppSiteAssociation, contentType: "application/json")
            },
            Route.open(.get, "/.well-known/assetlinks.json") { _, _, _ in
                JSONBody.raw(try files.assetLinks, contentType: "application/json")
            },
            Route.open(.get, "/.well-known/webauthn") { _, _, _ in
                JSONBody.raw(try files.relatedOrigins, contentType: "application/json")
            },
            // The new device of a recovery proves itself with the token in the body, not with a bearer token.
            Route.open(.post, "/v1/client/recoveries/{recoveryAttemptId}/registration") { request, _, call in
                JSONBody.response(
                    try await s.recovery.exchange(
                        id: try call.parameter("recoveryAttemptId"),
                        request: try await call.body(RecoveryRegistrationRequest.self, request),
                        by: call.caller.asClient
                    )
                )
            },
            Route.open(.post, "/v1/client/recoveries/{recoveryAttemptId}/complete") { request, _, call in
                JSONBody.response(
                    try await s.recovery.complete(
                        id: try call.parameter("recoveryAttemptId"),
                        request: try await call.body(CompleteRecoveryRequest.self, request),
                        by: call.caller.asClient
                    ),
                    status: .created
                )
            },
        ]
    }
}
