// Apple platforms only (LocalAuthentication); type-checked on Linux against stand-in declarations
// (scripts/typecheck-apple.sh). Errors are mapped by `AppleErrorMapping`, tested on Linux.
#if canImport(LocalAuthentication)
import Foundation
import LocalAuthentication

/// An evaluated `LAContext`, handed from the verifier to the key operations so the user is asked once.
final class EvaluatedContext: @unchecked Sendable {
    // LAContext is not Sendable. This one is evaluated once, invalidated if the ceremony is cancelled meanwhile,
    // then used by the Secure Enclave key operations of the same ceremony, one after the other.
    let context: LAContext
    init(_ context: LAContext) { self.context = context }
}

/// Verifies the user with biometrics or the device passcode. Cancelling the awaiting task (the ceremony's
/// timeout) invalidates the context, which ends the prompt.
public struct LocalAuthenticationVerifier: UserVerifier {
    public let reason: String
    public init(reason: String) { self.reason = reason }

    /// Whether the user can be verified on this device now — biometrics or the device passcode
    /// (`canEvaluatePolicy(.deviceOwnerAuthentication)`); false without a passcode.
    public static func canVerifyUser() -> Bool {
        LAContext().canEvaluatePolicy(.deviceOwnerAuthentication, error: nil)
    }

    public func verifyUser(_ request: UserVerificationRequest) async throws(PasskeyError) -> UserVerificationOutcome {
        let evaluated = EvaluatedContext(LAContext())
        let reason = self.reason
        do {
            _ = try await withTaskCancellationHandler {
                try await evaluated.context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: reason)
            } onCancel: {
                // The evaluation then fails with LAError.appCancel.
                evaluated.context.invalidate()
            }
        } catch {
            if Task.isCancelled {
                throw PasskeyError(.cancelled, "The ceremony was cancelled while the user was asked.", cause: error)
            }
            throw AppleErrorMapping.passkeyError(for: error)
        }
        return UserVerificationOutcome(userVerified: true, context: evaluated)
    }
}
#endif
