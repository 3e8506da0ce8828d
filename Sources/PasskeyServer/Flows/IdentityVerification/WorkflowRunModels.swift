import Foundation
import PasskeyStorage

/// A run as the API shows it.
struct WorkflowRunResponse: Encodable, Sendable {
    let workflowRunId: String
    let purpose: String
    let userId: String
    let status: String
    let faceMatch: String?
    /// True when the simulated provider decided the run: nobody was verified.
    let simulated: Bool?
    let createdAt: Date
    let updatedAt: Date
    let expiresAt: Date

    init(_ run: WorkflowRunRecord, simulated: Bool) {
        workflowRunId = run.id
        self.simulated = simulated ? true : nil
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
    /// True with the simulated provider, which verifies nobody.
    var simulated: Bool? = nil
}

/// `POST /v1/identity-verification/runs/{id}/decision` (simulated provider only).
struct DecisionRequest: Decodable, Sendable {
    let decision: ServerConfiguration.IdentityVerification.Decision
    let faceMatch: ServerConfiguration.IdentityVerification.FaceMatch?
}
