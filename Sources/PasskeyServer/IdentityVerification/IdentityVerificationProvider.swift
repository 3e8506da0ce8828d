import Foundation
import PasskeyStorage

/// The seam to an identity-verification vendor (DESIGN §5): it creates a workflow run for a person and a purpose,
/// and gives the client what its capture UI needs. Decisions come back later — through the simulated provider's
/// backend endpoint, or the vendor's signed webhook — and are stored with the run.
protocol IdentityVerificationProvider: Sendable {
    /// Creates `run` at the provider.
    func start(_ run: WorkflowRunRecord) async throws(APIError) -> IdentityVerificationStart
}

/// What a provider answers when a run is created.
struct IdentityVerificationStart: Sendable, Equatable {
    /// Opaque to the server: the client hands it to the vendor's capture UI.
    let idvToken: String
    /// The vendor's own reference for the run.
    let vendorReference: String?
    /// A decision known at once (the simulated provider's `autoDecision`).
    let decision: WorkflowRunRecord.Status?
    /// The face match known with that decision, for a recovery.
    var faceMatch: WorkflowRunRecord.FaceMatch? = nil
}

/// `identityVerification.provider: disabled`: there is none.
struct DisabledIdentityVerification: IdentityVerificationProvider {
    func start(_ run: WorkflowRunRecord) async throws(APIError) -> IdentityVerificationStart {
        throw APIError.identityVerificationNotConfigured("This flow")
    }
}

/// `identityVerification.provider: simulated`: for development, demos and tests. A run waits for a decision posted
/// to `POST /v1/identity-verification/runs/{id}/decision`, or gets `autoDecision` at once. It verifies nobody.
struct SimulatedIdentityVerification: IdentityVerificationProvider {
    let autoDecision: ServerConfiguration.IdentityVerification.Decision?

    func start(_ run: WorkflowRunRecord) async throws(APIError) -> IdentityVerificationStart {
        IdentityVerificationStart(
            idvToken: Secrets.token(prefix: "idvt_sim_"),
            vendorReference: nil,
            decision: autoDecision.flatMap { WorkflowRunRecord.Status(rawValue: $0.rawValue) },
            // Demo mode approves a recovery's person as matching the enrolled identity.
            faceMatch: autoDecision == .approved && run.purpose == .recovery ? .pass : nil
        )
    }
}

extension ServerConfiguration.IdentityVerification {
    /// The provider these settings name.
    var makeProvider: any IdentityVerificationProvider {
        switch provider {
        case .disabled: DisabledIdentityVerification()
        case .simulated: SimulatedIdentityVerification(autoDecision: autoDecision)
        case .webhook:
            webhook.map { WebhookIdentityVerification(settings: $0) } ?? DisabledIdentityVerification()
        }
    }
}
