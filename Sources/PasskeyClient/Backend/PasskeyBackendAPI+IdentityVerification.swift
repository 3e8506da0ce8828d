public import Foundation

extension PasskeyBackendAPI {
    /// `POST /v1/identity-verification/runs/{id}/decision`: decides a run of the simulated identity verification
    /// provider (development, demos, tests). Any other provider answers `NOT_FOUND`.
    public func decideIdentityVerificationRun(
        workflowRunId: String,
        decision: IdentityVerificationDecision,
        faceMatch: IdentityVerificationFaceMatch? = nil
    ) async throws(PasskeyError) -> IdentityVerificationRun {
        struct Body: Encodable, Sendable {
            let decision: IdentityVerificationDecision
            let faceMatch: IdentityVerificationFaceMatch?
        }
        return try await requester.send(
            "POST",
            ["v1", "identity-verification", "runs", workflowRunId, "decision"],
            token: apiKey,
            body: Body(decision: decision, faceMatch: faceMatch),
            as: IdentityVerificationRun.self
        )
    }

    /// `GET /v1/identity-verification/runs/{id}`: a run and its status.
    public func identityVerificationRun(workflowRunId: String) async throws(PasskeyError) -> IdentityVerificationRun {
        try await requester.send(
            "GET",
            ["v1", "identity-verification", "runs", workflowRunId],
            token: apiKey,
            body: EmptyBody?.none,
            as: IdentityVerificationRun.self
        )
    }
}

/// A decision of the simulated identity verification provider.
public enum IdentityVerificationDecision: String, Sendable, Hashable, Codable, CaseIterable {
    case approved
    case declined
    /// A person reviews the run: the flow fails with `WORKFLOW_UNDER_REVIEW` until then.
    case review
}

/// The face match the simulated provider reports with its decision.
public enum IdentityVerificationFaceMatch: String, Sendable, Hashable, Codable, CaseIterable {
    case pass
    case fail
}

/// An identity verification workflow run as the server keeps it.
public struct IdentityVerificationRun: Sendable, Hashable, Codable {
    public var workflowRunId: String
    /// What the run is for (`enrollment`, `stepUp`, …).
    public var purpose: String
    public var userId: String
    /// Where the run is (such as `pending`, `approved`, `declined`, `review`).
    public var status: String
    public var faceMatch: String?
    public var createdAt: Date
    public var updatedAt: Date
    public var expiresAt: Date
}
