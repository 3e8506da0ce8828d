/// An ``IdentityVerifier`` for development, demos and tests, against a server whose identity verification provider
/// is `simulated`: instead of a capture, it decides the run itself through the backend API
/// (`POST /v1/identity-verification/runs/{id}/decision`).
///
/// It is a stand-in for a vendor's capture UI and **must never ship in an app**: it needs a backend API key, and
/// it approves whoever holds the device. Use it on Linux, in the CLI and in tests.
public struct SimulatedIdentityVerifier: IdentityVerifier {
    public let backend: PasskeyBackendAPI
    /// The decision it makes for every run.
    public let decision: IdentityVerificationDecision
    /// The face match it reports with the decision (nil: none).
    public let faceMatch: IdentityVerificationFaceMatch?

    public init(
        backend: PasskeyBackendAPI,
        decision: IdentityVerificationDecision = .approved,
        faceMatch: IdentityVerificationFaceMatch? = nil
    ) {
        self.backend = backend
        self.decision = decision
        self.faceMatch = faceMatch
    }

    public func verify(_ request: IdentityVerificationRequest) async throws(PasskeyError) {
        _ = try await backend.decideIdentityVerificationRun(
            workflowRunId: request.workflowRunId,
            decision: decision,
            faceMatch: faceMatch
        )
    }
}
