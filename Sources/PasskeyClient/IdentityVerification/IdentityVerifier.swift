public import Foundation

/// Runs the identity verification vendor's capture (document scan, selfie, liveness) for one workflow run.
///
/// The app plugs its vendor's SDK in here; ``PasskeyClient`` calls ``verify(_:)`` when an enrollment or a step-up
/// needs identity verification, then waits for the server to learn the decision from the vendor. Return when the
/// user has finished the capture — the decision is the vendor's and reaches the server on its own. Throw
/// `USER_CANCELLED` when the user gives up, and map the vendor's failures onto ``PasskeyError``.
///
/// On Linux and in tests, ``SimulatedIdentityVerifier`` stands in for a vendor.
public protocol IdentityVerifier: Sendable {
    func verify(_ request: IdentityVerificationRequest) async throws(PasskeyError)
}

/// One identity verification the server started: the run the vendor's capture reports to, and its token.
public struct IdentityVerificationRequest: Sendable, Hashable {
    /// What the verification is for.
    public struct Purpose: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Before a passkey is enrolled (identity-verified enrollment).
        public static let enrollment = Self(rawValue: "enrollment")
        /// Before a step-up sign-in.
        public static let stepUp = Self(rawValue: "stepUp")
        /// Before approving a sign-in handed off from another device.
        public static let crossPlatform = Self(rawValue: "crossPlatform")
    }

    /// The vendor's workflow run (`idv_…`).
    public var workflowRunId: String
    /// The token the vendor's SDK starts the capture with.
    public var idvToken: String
    public var purpose: Purpose
    /// When the run expires, when the server said.
    public var expiresAt: Date?

    public init(workflowRunId: String, idvToken: String, purpose: Purpose, expiresAt: Date? = nil) {
        self.workflowRunId = workflowRunId
        self.idvToken = idvToken
        self.purpose = purpose
        self.expiresAt = expiresAt
    }
}
