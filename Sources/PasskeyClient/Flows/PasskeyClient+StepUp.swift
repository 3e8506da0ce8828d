import WebAuthn

extension PasskeyClient {
    /// The session's options (and transaction); for a step-up with identity verification, after starting the
    /// verification, running the ``identityVerifier`` and waiting for the server's approval.
    func authenticationRequest(
        _ input: AuthenticationInput,
        stepUp: AuthenticationInput.StepUp?
    ) async throws(PasskeyError) -> AuthenticationRequest {
        guard let stepUp, stepUp.identityVerification else {
            return try await api.authenticationRequest(sessionId: input.sessionId, clientToken: input.clientToken)
        }
        let verifier = try requireIdentityVerifier(for: "AuthenticationInput.StepUp.identityVerification")
        let started = try await api.startStepUpIdentityVerification(
            sessionId: input.sessionId,
            clientToken: input.clientToken
        )
        try await verifier.verify(
            IdentityVerificationRequest(
                workflowRunId: started.workflowRunId,
                idvToken: started.idvToken,
                purpose: .stepUp,
                expiresAt: started.expiresAt
            )
        )
        return try await awaitingApproval { () async throws(PasskeyError) in
            try await api.authenticationRequest(sessionId: input.sessionId, clientToken: input.clientToken)
        }
    }

    /// Checks that `challenge` binds `transaction`, then has the user confirm its text. Nothing is signed unless
    /// both succeed.
    func confirm(
        _ transaction: TransactionDetails,
        challenge: [UInt8],
        stepUp: AuthenticationInput.StepUp?
    ) async throws(PasskeyError) {
        try transaction.verify(boundInto: challenge)
        guard let confirmTransaction = stepUp?.confirmTransaction else {
            throw PasskeyError(
                .invalidConfiguration,
                "The session binds a transaction the user must see before signing: pass AuthenticationInput.StepUp(confirmTransaction:) in mode .stepUp."
            )
        }
        guard await confirmTransaction(transaction) else {
            throw PasskeyError(.userCancelled, "The user did not approve the transaction; nothing was signed.")
        }
        if Task.isCancelled { throw PasskeyError(.cancelled, "The step-up was cancelled; nothing was signed.") }
    }

    func requireIdentityVerifier(for parameter: String) throws(PasskeyError) -> any IdentityVerifier {
        guard let identityVerifier else {
            throw PasskeyError(
                .invalidConfiguration,
                "\(parameter) asks for identity verification, but this PasskeyClient has no identityVerifier: pass your vendor's IdentityVerifier to PasskeyClient(…, identityVerifier:)."
            )
        }
        return identityVerifier
    }

    /// The first delay between two attempts while the server answers `WORKFLOW_NOT_COMPLETED`; it doubles up to
    /// ``approvalPollMaximumDelay``.
    static let approvalPollFirstDelay: Duration = .milliseconds(250)
    static let approvalPollMaximumDelay: Duration = .seconds(2)

    /// Runs `fetch` until the server stops answering `WORKFLOW_NOT_COMPLETED` (or `pending`: the vendor's decision
    /// has not reached it yet), within ``identityVerificationWait``. Every other error — `WORKFLOW_UNDER_REVIEW` and
    /// `WORKFLOW_DECLINED` among them — ends the wait at once.
    func awaitingApproval<T>(
        while pending: PasskeyError.Code = .workflowNotCompleted,
        _ fetch: () async throws(PasskeyError) -> T
    ) async throws(PasskeyError) -> T {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: identityVerificationWait)
        var delay = Self.approvalPollFirstDelay
        while true {
            do {
                return try await fetch()
            } catch  where error.code == pending {
                let remaining = clock.now.duration(to: deadline)
                guard remaining > .zero else {
                    throw PasskeyError(
                        pending,
                        "The identity verification had no decision after \(identityVerificationWait.formattedSeconds) seconds; try again later, or raise identityVerificationWait.",
                        isRetryable: true,
                        serverCode: error.serverCode,
                        httpStatus: error.httpStatus,
                        requestId: error.requestId
                    )
                }
                do {
                    try await Task.sleep(for: min(delay, remaining))
                } catch {
                    throw PasskeyError(.cancelled, "Waiting for the identity verification's decision was cancelled.")
                }
                delay = min(delay * 2, Self.approvalPollMaximumDelay)
            }
        }
    }
}
