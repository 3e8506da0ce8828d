import Foundation
import HTTPTypes
import Logging
import PasskeyStorage

/// Identity-verification workflow runs (DESIGN §5): started for one flow, decided by the provider, required to be
/// approved before that flow may go on.
extension PasskeyService {
    /// A run as the API shows it.
    struct WorkflowRunResponse: Encodable, Sendable {
        let workflowRunId: String
        let purpose: String
        let userId: String
        let status: String
        let faceMatch: String?
        let createdAt: Date
        let updatedAt: Date
        let expiresAt: Date

        init(_ run: WorkflowRunRecord) {
            workflowRunId = run.id
            purpose = run.purpose.rawValue
            userId = run.userID
            status = run.status.rawValue
            faceMatch = run.faceMatch?.rawValue
            createdAt = run.createdAt
            updatedAt = run.updatedAt
            expiresAt = run.expiresAt
        }
    }

    /// What a client needs to run the capture: `POST …/idv/start`, and the fields a flow's create response adds.
    struct WorkflowRunStart: Encodable, Sendable {
        let workflowRunId: String
        let idvToken: String
        let expiresAt: Date
    }

    /// `POST /v1/identity-verification/runs/{id}/decision` (simulated provider only).
    struct DecisionRequest: Decodable, Sendable {
        let decision: ServerConfiguration.IdentityVerification.Decision
        let faceMatch: ServerConfiguration.IdentityVerification.FaceMatch?
    }

    /// Creates a run for `flowID` at the provider and stores it. Every flow gets a run of its own:
    /// `IDV_ALREADY_STARTED` when it has one.
    func startWorkflowRun(
        purpose: WorkflowRunRecord.Purpose,
        userID: String,
        flowID: String,
        by caller: Caller
    ) async throws(APIError) -> WorkflowRunStart {
        guard configuration.identityVerification.provider != .disabled else {
            throw APIError.identityVerificationNotConfigured("identityVerification 'required'")
        }
        let time = now()
        var run = WorkflowRunRecord(
            id: Secrets.identifier(prefix: "idv_"),
            purpose: purpose,
            userID: userID,
            flowID: flowID,
            status: .pending,
            createdAt: time,
            updatedAt: time,
            expiresAt: time.addingTimeInterval(TimeInterval(configuration.identityVerification.runLifetime))
        )
        let started = try await identityVerifier.start(run)
        run.status = started.decision ?? .pending
        run.vendorReference = started.vendorReference
        run.faceMatch = started.faceMatch
        do {
            try await store.createWorkflowRun(run)
        } catch  where error.code == .duplicate {
            throw APIError.identityVerificationAlreadyStarted
        } catch {
            logger.error("a workflow run could not be stored", metadata: ["error": "\(error)"])
            throw .storageUnavailable
        }
        await audit(
            "identity-verification.started",
            by: caller,
            userID: userID,
            subject: run.id,
            details: ["purpose": purpose.rawValue, "flow": flowID, "status": run.status.rawValue]
        )
        return WorkflowRunStart(workflowRunId: run.id, idvToken: started.idvToken, expiresAt: run.expiresAt)
    }

    /// The approved run of `flowID`, or the code that says why the flow must wait or stop.
    func approvedWorkflowRun(
        flowID: String,
        notStarted: APIError = .workflowNotCompleted
    ) async throws(APIError)
        -> WorkflowRunRecord
    {
        guard let run = try await storage({ try await store.workflowRun(flowID: flowID) }) else { throw notStarted }
        switch run.status {
        case .approved: return run
        case .declined: throw APIError.workflowDeclined
        case .review: throw APIError.workflowUnderReview
        case .pending: throw APIError.workflowNotCompleted
        }
    }

    /// Refuses a run id the caller brought from elsewhere: a run belongs to the flow it was started for.
    func refuseReusedWorkflowRun(_ id: String?) async throws(APIError) {
        guard let id else { return }
        guard (1...128).contains(id.utf8.count), try await storage({ try await store.workflowRun(id: id) }) != nil
        else { throw APIError.notFound("No identity-verification run \(id).") }
        throw APIError.workflowRunReuseForbidden
    }

    func workflowRun(id: String) async throws(APIError) -> WorkflowRunResponse {
        guard (1...128).contains(id.utf8.count), let run = try await storage({ try await store.workflowRun(id: id) })
        else { throw APIError.notFound("No identity-verification run \(id).") }
        return WorkflowRunResponse(run)
    }

    /// Records a decision for a pending run (or one under review). With the simulated provider it comes from the
    /// backend API; with the webhook provider, from the vendor's signed webhook.
    func decideWorkflowRun(
        id: String,
        decision: ServerConfiguration.IdentityVerification.Decision,
        faceMatch: ServerConfiguration.IdentityVerification.FaceMatch?,
        by caller: Caller
    ) async throws(APIError) -> WorkflowRunResponse {
        _ = try await workflowRun(id: id)
        let status = WorkflowRunRecord.Status(rawValue: decision.rawValue) ?? .pending
        guard
            let run = try await storage({
                try await store.decideWorkflowRun(
                    id: id,
                    from: [.pending, .review],
                    to: status,
                    faceMatch: faceMatch.flatMap { WorkflowRunRecord.FaceMatch(rawValue: $0.rawValue) },
                    at: now()
                )
            })
        else { throw APIError.workflowAlreadyDecided }
        await audit(
            "identity-verification.decided",
            by: caller,
            userID: run.userID,
            subject: run.id,
            details: ["decision": status.rawValue, "faceMatch": faceMatch?.rawValue ?? "none"]
        )
        return WorkflowRunResponse(run)
    }

    /// `POST /v1/identity-verification/webhook`: a vendor's signed decision, accepted once per event id.
    func receiveWebhook(_ body: [UInt8], headers: HTTPFields, by caller: Caller) async throws(APIError) {
        guard let settings = configuration.identityVerification.webhook,
            configuration.identityVerification.provider == .webhook
        else { throw APIError.notFound("This server has no webhook identity-verification provider.") }
        guard
            let timestamp = WebhookSignature.timestamp(
                headers[HTTPField.Name(WebhookSignature.timestampHeader)!],
                now: now()
            )
        else { throw APIError.webhookTimestampInvalid }
        guard let signature = headers[HTTPField.Name(WebhookSignature.signatureHeader)!],
            WebhookSignature(secret: settings.secret).isValid(signature, body: body, timestamp: timestamp)
        else { throw APIError.webhookSignatureInvalid }
        struct Event: Decodable {
            let eventId: String
            let workflowRunId: String
            let decision: ServerConfiguration.IdentityVerification.Decision
            let faceMatch: ServerConfiguration.IdentityVerification.FaceMatch?
        }
        guard let event = try? JSONDecoder().decode(Event.self, from: Data(body)),
            (1...128).contains(event.eventId.utf8.count)
        else {
            throw APIError.invalidRequest(
                "The webhook body must be {\"eventId\", \"workflowRunId\", \"decision\": approved|declined|review, \"faceMatch\"?: pass|fail}."
            )
        }
        // An event id is counted once in a window longer than the timestamps' tolerance: a replay within the
        // tolerance finds it counted, and a later one fails the timestamp check.
        let seen: LimitWindow
        do {
            seen = try await store.countLimitEvent(
                keyHash: Secrets.hash("idv-webhook-event:" + event.eventId),
                window: WebhookSignature.tolerance * 2,
                at: now()
            )
        } catch {
            throw .storageUnavailable
        }
        guard seen.count == 1 else { throw APIError.webhookEventReplayed }
        _ = try await decideWorkflowRun(
            id: event.workflowRunId,
            decision: event.decision,
            faceMatch: event.faceMatch,
            by: caller
        )
    }
}
