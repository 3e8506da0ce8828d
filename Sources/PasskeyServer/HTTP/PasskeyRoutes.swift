import Foundation
public import HTTPTypes
import Hummingbird
import PasskeyStorage

/// Every endpoint of DESIGN §3 that this server implements.
public enum PasskeyRoutes {
    static func all(_ service: PasskeyService) -> [Route] {
        backend(service) + client(service) + open(service)
    }

    /// The method and path of every route, for documentation checks.
    public static func table(
        _ service: PasskeyService
    ) -> [(method: HTTPRequest.Method, path: String, access: Route.Access)] {
        all(service).map { ($0.method, $0.path, $0.access) }
    }

    static func backend(_ s: PasskeyService) -> [Route] {
        [
            Route(.post, "/v1/registrations", .backend) { request, _, call in
                JSONBody.response(
                    try await s.createRegistration(
                        try await call.body(CreateRegistrationRequest.self, request),
                        by: call.caller
                    ),
                    status: .created
                )
            },
            Route(.get, "/v1/registrations/{registrationAttemptId}", .backend) { _, _, call in
                JSONBody.response(try await s.registrationStatus(flowID: try call.parameter("registrationAttemptId")))
            },
            Route(.post, "/v1/registrations/{registrationAttemptId}/finalize", .backend) { _, _, call in
                JSONBody.response(
                    try await s.settleRegistration(
                        flowID: try call.parameter("registrationAttemptId"),
                        finalize: true,
                        by: call.caller
                    )
                )
            },
            Route(.post, "/v1/registrations/{registrationAttemptId}/abort", .backend) { _, _, call in
                JSONBody.response(
                    try await s.settleRegistration(
                        flowID: try call.parameter("registrationAttemptId"),
                        finalize: false,
                        by: call.caller
                    )
                )
            },
            Route(.post, "/v1/authentications", .backend) { request, _, call in
                JSONBody.response(
                    try await s.createAuthentication(
                        try await call.body(CreateAuthenticationRequest.self, request),
                        by: call.caller
                    ),
                    status: .created
                )
            },
            Route(.post, "/v1/authentications/{biometricPasskeySessionId}/redeem", .backend) { request, _, call in
                JSONBody.response(
                    try await s.redeemAuthentication(
                        flowID: try call.parameter("biometricPasskeySessionId"),
                        request: try await call.body(RedeemRequest.self, request),
                        by: call.caller
                    )
                )
            },
            Route(.post, "/v1/authentications/{biometricPasskeySessionId}/handoff", .backend) { _, _, call in
                JSONBody.response(
                    try await s.createHandoff(flowID: try call.parameter("biometricPasskeySessionId"), by: call.caller),
                    status: .created
                )
            },
            Route(.get, "/v1/users", .backend) { request, _, _ in
                let query = request.uri.queryParameters
                return JSONBody.response(
                    try await s.users(
                        matching: query["query"].map(String.init),
                        after: query["after"].map(String.init),
                        limit: try PasskeyService.userPageSize(query["limit"].map(String.init)),
                        userName: query["userName"].map(String.init)
                    )
                )
            },
            Route(.get, "/v1/users/{userId}/credentials", .backend) { _, _, call in
                JSONBody.response(try await s.listCredentials(userID: try call.parameter("userId")))
            },
            Route(.delete, "/v1/users/{userId}", .backend) { _, _, call in
                try await s.deleteUser(id: try call.parameter("userId"), by: call.caller)
                return Response(status: .noContent)
            },
            Route(.get, "/v1/credentials/{credentialId}", .backend) { _, _, call in
                JSONBody.response(try await s.credential(id: try call.parameter("credentialId")))
            },
            Route(.patch, "/v1/credentials/{credentialId}", .backend) { request, _, call in
                JSONBody.response(
                    try await s.renameCredential(
                        id: try call.parameter("credentialId"),
                        request: try await call.body(PasskeyService.RenameRequest.self, request),
                        by: call.caller
                    )
                )
            },
            Route(.delete, "/v1/credentials/{credentialId}", .backend) { _, _, call in
                try await s.revokeCredential(id: try call.parameter("credentialId"), by: call.caller)
                return Response(status: .noContent)
            },
            Route(.get, "/v1/identity-verification/runs/{workflowRunId}", .backend) { _, _, call in
                JSONBody.response(try await s.workflowRun(id: try call.parameter("workflowRunId")))
            },
            Route(.post, "/v1/identity-verification/runs/{workflowRunId}/decision", .backend) { request, _, call in
                guard s.configuration.identityVerification.provider == .simulated else {
                    throw APIError.notFound(
                        "Decisions are posted here only with the simulated identity-verification provider."
                    )
                }
                let body = try await call.body(PasskeyService.DecisionRequest.self, request)
                return JSONBody.response(
                    try await s.decideWorkflowRun(
                        id: try call.parameter("workflowRunId"),
                        decision: body.decision,
                        faceMatch: body.faceMatch,
                        by: call.caller
                    )
                )
            },
            Route(.get, "/v1/audit-events", .backend) { request, _, _ in
                let query = request.uri.queryParameters
                return JSONBody.response(
                    try await s.auditEvents(
                        order: query["order"].map(String.init),
                        after: query["after"].map(String.init),
                        before: query["before"].map(String.init),
                        limit: query["limit"].map(String.init),
                        userID: query["userId"].map(String.init)
                    )
                )
            },
            Route(.post, "/v1/recoveries", .backend) { request, _, call in
                JSONBody.response(
                    try await s.createRecovery(
                        try await call.body(CreateRecoveryRequest.self, request),
                        by: call.caller
                    ),
                    status: .created
                )
            },
            Route(.get, "/v1/recoveries/{recoveryAttemptId}", .backend) { _, _, call in
                JSONBody.response(try await s.recoveryStatus(id: try call.parameter("recoveryAttemptId")))
            },
            Route(.post, "/v1/recoveries/{recoveryAttemptId}/finalize", .backend) { _, _, call in
                JSONBody.response(
                    try await s.finalizeRecovery(id: try call.parameter("recoveryAttemptId"), by: call.caller)
                )
            },
            Route(.post, "/v1/recoveries/{recoveryAttemptId}/cancel", .backend) { _, _, call in
                JSONBody.response(
                    try await s.cancelRecovery(id: try call.parameter("recoveryAttemptId"), by: call.caller)
                )
            },
        ]
    }

    static func client(_ s: PasskeyService) -> [Route] {
        [
            Route(.post, "/v1/client/registrations/{registrationAttemptId}/options", .client) { _, _, call in
                JSONBody.response(
                    try await s.registrationOptions(
                        flowID: try call.parameter("registrationAttemptId"),
                        clientToken: call.bearerToken
                    )
                )
            },
            Route(.post, "/v1/client/registrations/{registrationAttemptId}/complete", .client) { request, _, call in
                // The token is checked before the body is read, so a caller without one learns nothing from validation.
                let flow = try await s.authorizeClient(
                    flowID: try call.parameter("registrationAttemptId"),
                    token: call.bearerToken,
                    kind: .registration
                )
                return JSONBody.response(
                    try await s.completeRegistration(
                        flow: flow,
                        request: try await call.body(CompleteRegistrationRequest.self, request),
                        by: call.caller
                    ),
                    status: .created
                )
            },
            Route(.post, "/v1/client/authentications/{biometricPasskeySessionId}/options", .client) { _, _, call in
                JSONBody.response(
                    try await s.authenticationOptions(
                        flowID: try call.parameter("biometricPasskeySessionId"),
                        clientToken: call.bearerToken
                    )
                )
            },
            Route(.post, "/biometric-passkey/mobile/step-up/{biometricPasskeySessionId}/idv/start", .client) {
                _,
                _,
                call in
                JSONBody.response(
                    try await s.startStepUpIdentityVerification(
                        flowID: try call.parameter("biometricPasskeySessionId"),
                        clientToken: call.bearerToken,
                        by: call.caller
                    ),
                    status: .created
                )
            },
            Route(.post, "/v1/client/authentications/{biometricPasskeySessionId}/complete", .client) {
                request,
                _,
                call in
                let flow = try await s.authorizeClient(
                    flowID: try call.parameter("biometricPasskeySessionId"),
                    token: call.bearerToken,
                    kind: .authentication
                )
                return JSONBody.response(
                    try await s.completeAuthentication(
                        flow: flow,
                        request: try await call.body(CompleteAuthenticationRequest.self, request),
                        by: call.caller
                    )
                )
            },
            Route(.post, "/biometric-passkey/mobile/recovery/{recoveryAttemptId}/idv/start", .client) { _, _, call in
                JSONBody.response(
                    try await s.startRecoveryIdentityVerification(
                        attemptID: try call.parameter("recoveryAttemptId"),
                        recoveryToken: call.bearerToken,
                        by: call.caller
                    ),
                    status: .created
                )
            },
        ] + crossDevice(s)
    }

    /// Cross-device approval (DESIGN §3 flow 4): the phone's calls, and the first device's status.
    static func crossDevice(_ s: PasskeyService) -> [Route] {
        [
            // The phone has no token yet: the handoff token in the body is its credential.
            Route(.post, "/v1/client/cross-platform/preview", .open) { request, _, call in
                JSONBody.response(
                    try await s.previewHandoff(try await call.body(ResumeHandoffRequest.self, request), by: call.caller)
                )
            },
            Route(.post, "/v1/client/cross-platform/resume", .open) { request, _, call in
                JSONBody.response(
                    try await s.resumeHandoff(try await call.body(ResumeHandoffRequest.self, request), by: call.caller)
                )
            },
            Route(.post, "/v1/client/cross-platform/{crossPlatformSessionId}/confirm", .client) { request, _, call in
                // The token is checked before the body is read, so a caller without one learns nothing from validation.
                let handoff = try await s.authorizeHandoffClient(
                    id: try call.parameter("crossPlatformSessionId"),
                    token: call.bearerToken
                )
                return JSONBody.response(
                    try await s.confirmHandoff(
                        handoff,
                        request: try await call.body(ConfirmHandoffRequest.self, request),
                        by: call.caller
                    )
                )
            },
            Route(.post, "/v1/client/cross-platform/{crossPlatformSessionId}/reject", .client) { _, _, call in
                JSONBody.response(
                    try await s.rejectHandoff(
                        id: try call.parameter("crossPlatformSessionId"),
                        clientToken: call.bearerToken,
                        by: call.caller
                    )
                )
            },
            Route(.post, "/v1/client/cross-platform/{crossPlatformSessionId}/cancel", .client) { _, _, call in
                JSONBody.response(
                    try await s.cancelHandoff(
                        id: try call.parameter("crossPlatformSessionId"),
                        pollToken: call.bearerToken,
                        by: call.caller
                    )
                )
            },
            Route(.get, "/v1/client/cross-platform/{crossPlatformSessionId}/status", .client) { _, _, call in
                JSONBody.response(
                    try await s.handoffStatus(
                        id: try call.parameter("crossPlatformSessionId"),
                        pollToken: call.bearerToken
                    )
                )
            },
            Route(.get, "/v1/client/cross-platform/{crossPlatformSessionId}/events", .client) { _, _, call in
                try await s.handoffEvents(
                    id: try call.parameter("crossPlatformSessionId"),
                    pollToken: call.bearerToken,
                    by: call.caller
                )
            },
            Route(.post, "/biometric-passkey/mobile/cross-platform/{crossPlatformSessionId}/idv/start", .client) {
                _,
                _,
                call in
                JSONBody.response(
                    try await s.startHandoffIdentityVerification(
                        id: try call.parameter("crossPlatformSessionId"),
                        clientToken: call.bearerToken,
                        by: call.caller
                    ),
                    status: .created
                )
            },
        ]
    }

    static func open(_ s: PasskeyService) -> [Route] {
        let files = AssociationFiles(configuration: s.configuration)
        return [
            Route(.post, "/v1/identity-verification/webhook", .open) { request, _, call in
                let body: [UInt8]
                do {
                    body = Array(buffer: try await request.body.collect(upTo: call.bodyLimit))
                } catch {
                    throw APIError.payloadTooLarge(call.bodyLimit)
                }
                try await s.receiveWebhook(
                    body,
                    headers: request.headers,
                    by: Caller(actor: "idv-webhook", requestID: call.caller.requestID, clientIP: call.caller.clientIP)
                )
                return Response(status: .noContent)
            },
            Route(.get, "/health", .open) { _, _, _ in
                JSONBody.response(["status": "ok"])
            },
            Route(.get, "/metrics", .open) { _, _, _ in
                JSONBody.raw(s.metrics.exposition(), contentType: "text/plain; version=0.0.4")
            },
            Route(.get, "/.well-known/apple-app-site-association", .open) { _, _, _ in
                JSONBody.raw(try files.appleAppSiteAssociation, contentType: "application/json")
            },
            Route(.get, "/.well-known/assetlinks.json", .open) { _, _, _ in
                JSONBody.raw(try files.assetLinks, contentType: "application/json")
            },
            Route(.get, "/.well-known/webauthn", .open) { _, _, _ in
                JSONBody.raw(try files.relatedOrigins, contentType: "application/json")
            },
            // The new device of a recovery proves itself with the token in the body, not with a bearer token.
            Route(.post, "/v1/client/recoveries/{recoveryAttemptId}/registration", .open) { request, _, call in
                JSONBody.response(
                    try await s.recoveryRegistration(
                        attemptID: try call.parameter("recoveryAttemptId"),
                        request: try await call.body(RecoveryRegistrationRequest.self, request),
                        by: call.caller.asClient
                    )
                )
            },
            Route(.post, "/v1/client/recoveries/{recoveryAttemptId}/complete", .open) { request, _, call in
                JSONBody.response(
                    try await s.completeRecovery(
                        attemptID: try call.parameter("recoveryAttemptId"),
                        request: try await call.body(CompleteRecoveryRequest.self, request),
                        by: call.caller.asClient
                    ),
                    status: .created
                )
            },
        ]
    }
}
