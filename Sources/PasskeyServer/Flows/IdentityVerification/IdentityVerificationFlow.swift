import Foundation
import HTTPTypes
import Logging
import PasskeyStorage

/// Identity-verification workflow runs (DESIGN §5): started for one flow, decided by the provider, required to be
/// approved before that flow may go on.
struct IdentityVerificationFlow: ServiceFlow {
    let context: FlowContext
}

extension IdentityVerificationFlow {
    /// Creates a run for `flowID`: stores it first, then asks the provider to create it. Every flow gets a run of its
    /// own, and the stored run is its reservation: a second start of the flow — while the first waits for the vendor,
    /// or after — is `IDV_ALREADY_STARTED` without a second call to the vendor. When the provider does not create the
    /// run, the reservation is released, so the flow may start again.
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
        do {
            try await store.createWorkflowRun(run)
        } catch  where error.code == .duplicate {
            throw APIError.identityVerificationAlreadyStarted
        } catch {
            logger.error("a workflow run could not be stored", metadata: ["error": "\(error)"])
            throw .storageUnavailable
        }
        let started: IdentityVerificationStart
        do {
            started = try await context.identityVerifier.start(run)
        } catch {
            do {
                _ = try await store.releaseWorkflowRun(id: run.id)
            } catch let release {
                logger.error("a workflow run could not be released", metadata: ["error": "\(release)"])
            }
            throw error
        }
        if let reference = started.vendorReference {
            _ = try await storage {
                try await store.setWorkflowRunVendorReference(id: run.id, vendorReference: reference)
            }
            run.vendorReference = reference
        }
        if let decision = started.decision,
            let decided = try await storage({
                try await store.decideWorkflowRun(
                    id: run.id,
                    from: [.pending],
                    to: decision,
                    faceMatch: started.faceMatch,
                    at: time
                )
            })
        {
            run = decided
        }
        await audit(
            .identityVerificationStarted,
            by: caller,
            userID: userID,
            subject: run.id,
            details: [
                "purpose": purpose.rawValue, "flow": flowID, "status": run.status.rawValue,
                "provider": configuration.identityVerification.provider.rawValue,
            ]
        )
        return WorkflowRunStart(
            workflowRunId: run.id,
            idvToken: started.idvToken,
            expiresAt: run.expiresAt,
            simulated: isSimulatedIdentityVerification ? true : nil
        )
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
        return WorkflowRunResponse(run, simulated: isSimulatedIdentityVerification)
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
        await auditDecision(run, faceMatch: faceMatch, by: caller)
        return WorkflowRunResponse(run, simulated: isSimulatedIdentityVerification)
    }

    private func auditDecision(
        _ run: WorkflowRunRecord,
        faceMatch: ServerConfiguration.IdentityVerification.FaceMatch?,
        by caller: Caller
    ) async {
        await audit(
            .identityVerificationDecided,
            by: caller,
            userID: run.userID,
            subject: run.id,
            details: [
                "decision": run.status.rawValue, "faceMatch": faceMatch?.rawValue ?? "none",
                "provider": configuration.identityVerification.provider.rawValue,
            ]
        )
    }

    /// `POST /v1/identity-verification/webhook`: a vendor's signed decision, accepted once per event id. The event
    /// is spent in the same store operation that applies the decision: one that could not be applied (the store
    /// failed, the run was decided already) may be sent again, and one that was applied is never applied twice.
    ///
    /// A call without its timestamp or signature header is refused as such (400, 401) whatever the provider, as for
    /// any route whose required parts are missing; a complete call to a server without the webhook provider finds
    /// nothing there (404).
    func receiveWebhook(_ body: [UInt8], headers: HTTPFields, by caller: Caller) async throws(APIError) {
        guard let timestampField = headers[HTTPField.Name(WebhookSignature.timestampHeader)!] else {
            throw APIError.webhookTimestampInvalid
        }
        guard let signature = headers[HTTPField.Name(WebhookSignature.signatureHeader)!] else {
            throw APIError.webhookSignatureInvalid
        }
        guard let settings = configuration.identityVerification.webhook,
            configuration.identityVerification.provider == .webhook
        else { throw APIError.notFound("This server has no webhook identity-verification provider.") }
        guard let timestamp = WebhookSignature.timestamp(timestampField, now: now()) else {
            throw APIError.webhookTimestampInvalid
        }
        guard WebhookSignature(secret: settings.secret).isValid(signature, body: body, timestamp: timestamp) else {
            throw APIError.webhookSignatureInvalid
        }
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
        _ = try await workflowRun(id: event.workflowRunId)
        // An event id is counted once in a window longer than the timestamps' tolerance: a replay within the
        // tolerance finds it counted, and a later one fails the timestamp check.
        let outcome = try await storage {
            try await store.decideWorkflowRun(
                id: event.workflowRunId,
                from: [.pending, .review],
                to: WorkflowRunRecord.Status(rawValue: event.decision.rawValue) ?? .pending,
                faceMatch: event.faceMatch.flatMap { WorkflowRunRecord.FaceMatch(rawValue: $0.rawValue) },
                at: now(),
                eventKeyHash: Secrets.hash("idv-webhook-event:" + event.eventId),
                eventWindow: WebhookSignature.tolerance * 2
            )
        }
        switch outcome {
        case .decided(let run): await auditDecision(run, faceMatch: event.faceMatch, by: caller)
        case .replayed: throw APIError.webhookEventReplayed
        case .refused: throw APIError.workflowAlreadyDecided
        }
    }
}
