import Foundation
import WebAuthn

/// Cross-device approval on this device (DESIGN §3.4): the other device handed its sign-in off by QR code or deep link.
extension PasskeyClient {
    /// Claims the handoff, for apps that run the steps themselves: confirm with
    /// ``PasskeyClientAPI/confirmHandoff(_:verificationCode:)``, then sign the handoff's session as a standard or
    /// step-up sign-in with its client token. The first claim wins; a second is `HANDOFF_ALREADY_CLAIMED`.
    public func resumeCrossPlatform(handoffToken: String) async throws(PasskeyError) -> CrossPlatformHandoff {
        let token = AuthenticationInput.CrossPlatform.handoffToken(in: handoffToken)
        guard (1...128).contains(token.utf8.count), token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw PasskeyError(
                .invalidInput,
                "The handoff token is empty, too long or not text: pass the QR code's link or the part after its '#'."
            )
        }
        return try await api.resumeHandoff(handoffToken: token)
    }

    /// `authenticate` in mode `.crossPlatform`: claim, confirm the number, verify identity when asked, show the
    /// transaction, sign. Nothing is signed unless the number was confirmed by the server.
    func approveCrossPlatform(
        _ input: AuthenticationInput,
        _ crossPlatform: AuthenticationInput.CrossPlatform
    ) async throws(PasskeyError) -> AuthenticationResult {
        let handoff = try await resumeCrossPlatform(handoffToken: crossPlatform.handoffToken)
        try await confirmNumber(handoff, crossPlatform)
        let session = AuthenticationInput(
            sessionId: handoff.biometricPasskeySessionId,
            clientToken: handoff.clientToken,
            mode: .stepUp(.init(confirmTransaction: crossPlatform.confirmTransaction)),
            hints: input.hints
        )
        let request: AuthenticationRequest
        if handoff.requiresIdentityVerification {
            let verifier = try requireIdentityVerifier(for: "The handed-off session")
            let started = try await api.startHandoffIdentityVerification(handoff)
            try await verifier.verify(
                IdentityVerificationRequest(
                    workflowRunId: started.workflowRunId,
                    idvToken: started.idvToken,
                    purpose: .crossPlatform,
                    expiresAt: started.expiresAt
                )
            )
            request = try await awaitingApproval { () async throws(PasskeyError) in
                try await api.authenticationRequest(
                    sessionId: session.sessionId,
                    clientToken: session.clientToken,
                    heldCredentialIds: try await heldCredentialIDs()
                )
            }
        } else {
            request = try await api.authenticationRequest(
                sessionId: session.sessionId,
                clientToken: session.clientToken,
                heldCredentialIds: try await heldCredentialIDs()
            )
        }
        return try await sign(request, session: session, crossPlatformSessionId: handoff.crossPlatformSessionId)
    }

    /// The passkeys this device holds for the relying party, when the authenticator can list them all: the server
    /// then refuses a handoff none of them can approve before the person is asked to sign.
    private func heldCredentialIDs() async throws(PasskeyError) -> [String]? {
        try await authenticator.heldCredentialIDs(
            originHost: URL(string: configuration.origin)?.host ?? configuration.rpDomain
        )
    }

    /// Asks for the number until the server confirms it; nil from the user rejects the handoff.
    private func confirmNumber(
        _ handoff: CrossPlatformHandoff,
        _ crossPlatform: AuthenticationInput.CrossPlatform
    ) async throws(PasskeyError) {
        var wrongAttempts = 0
        while true {
            let request = AuthenticationInput.VerificationCodeRequest(handoff: handoff, wrongAttempts: wrongAttempts)
            guard let code = await crossPlatform.verificationCode(request) else {
                _ = try await api.rejectHandoff(handoff)
                throw PasskeyError(
                    .userCancelled,
                    "The user said this sign-in was not theirs; the handoff is rejected."
                )
            }
            do {
                _ = try await api.confirmHandoff(handoff, verificationCode: code)
                return
            } catch  where error.code == .handoffCodeMismatch && !error.message.contains("rejected") {
                wrongAttempts += 1
            }
        }
    }
}
