// Apple platforms only (AuthenticationServices); type-checked on Linux against stand-in declarations
// (scripts/typecheck-apple.sh). Thin: cancellation is `SystemPrompt`'s, errors are `AppleErrorMapping`'s.
#if canImport(AuthenticationServices) && !os(tvOS) && !os(watchOS)
import AuthenticationServices
import Foundation

/// Runs one `ASAuthorizationController` and awaits its outcome; cancelling the awaiting task cancels the
/// controller, which closes the sheet.
@MainActor
final class AuthorizationRunner: NSObject {
    private let prompt = SystemPrompt<PlatformCredential>()
    private let anchor: ASPresentationAnchor

    private init(anchor: ASPresentationAnchor) { self.anchor = anchor }

    /// The credential the system returned, or the ``PasskeyError`` its failure maps to.
    static func perform(
        _ requests: [ASAuthorizationRequest],
        anchor: @MainActor @Sendable () -> ASPresentationAnchor
    ) async throws(PasskeyError) -> PlatformCredential {
        let runner = AuthorizationRunner(anchor: anchor())
        let controller = ASAuthorizationController(authorizationRequests: requests)
        controller.delegate = runner
        controller.presentationContextProvider = runner
        // The controller holds its delegate and presentation context provider weakly: both stay alive, by this
        // scope, until the system has answered.
        defer { withExtendedLifetime((runner, controller)) {} }
        do {
            return try await runner.prompt.run(start: { controller.performRequests() }, cancel: { controller.cancel() })
        } catch {
            throw AppleErrorMapping.passkeyError(for: error)
        }
    }
}

extension AuthorizationRunner: ASAuthorizationControllerDelegate {
    func authorizationController(
        controller: ASAuthorizationController,
        didCompleteWithAuthorization authorization: ASAuthorization
    ) {
        do throws(PasskeyError) {
            prompt.answer(.success(try PlatformCredential(authorization)))
        } catch {
            prompt.answer(.failure(error))
        }
    }

    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        prompt.answer(.failure(error))
    }
}

extension AuthorizationRunner: ASAuthorizationControllerPresentationContextProviding {
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor { anchor }
}
#endif
