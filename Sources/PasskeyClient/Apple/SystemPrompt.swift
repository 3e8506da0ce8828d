/// A system prompt awaited by one task — the passkey sheet of AuthenticationServices — that ends when the task is
/// cancelled (the ceremony's timeout in ``WebAuthnClient``, or the caller's cancellation). Platform-neutral, so
/// its behaviour is tested on Linux.
///
/// ``run(start:cancel:)`` calls `start` to show the prompt; the adapter's delegate calls ``answer(_:)`` once
/// the system answers. When the awaiting task is cancelled, `cancel` runs at once on the main actor
/// (`ASAuthorizationController.cancel()`, after which the system answers the delegate), and:
/// - a failure the system answers with is reported as `CancellationError`: the SDK ended the prompt, not the
///   user;
/// - a credential the system still answers with (the user finished as the sheet closed) is returned: the
///   passkey exists, so its response is delivered rather than thrown away (``WebAuthnClient`` returns a response
///   that arrives after its deadline);
/// - a system that has not answered `grace` after the cancellation is given up with `CancellationError`, and an
///   answer that comes later is ignored.
@MainActor
package final class SystemPrompt<Value: Sendable> {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Value, any Error>)
        case cancelling(CheckedContinuation<Value, any Error>)
        case finished
    }

    private var state = State.idle
    private var cancelHook: (() -> Void)?
    private let grace: Duration

    /// - Parameter grace: how long to wait for the system's answer after cancelling the prompt.
    package init(grace: Duration = .seconds(5)) { self.grace = grace }

    /// Shows the prompt with `start` and returns the system's answer; `cancel` ends the prompt when the awaiting
    /// task is cancelled. A task cancelled before the prompt starts never shows it. Runs once.
    package func run(start: () -> Void, cancel: @escaping () -> Void) async throws -> Value {
        cancelHook = cancel
        defer { cancelHook = nil }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                guard case .idle = state, !Task.isCancelled else {
                    state = .finished
                    continuation.resume(throwing: CancellationError())
                    return
                }
                state = .waiting(continuation)
                start()
            }
        } onCancel: {
            Task { @MainActor in self.cancelled() }
        }
    }

    /// The system's answer (from the delegate). Only the first answer counts.
    package func answer(_ result: Result<Value, any Error>) {
        switch state {
        case .waiting(let continuation):
            state = .finished
            continuation.resume(with: result)
        case .cancelling(let continuation):
            state = .finished
            switch result {
            case .success(let value): continuation.resume(returning: value)
            case .failure: continuation.resume(throwing: CancellationError())
            }
        case .idle, .finished:
            break
        }
    }

    private func cancelled() {
        guard case .waiting(let continuation) = state else { return }
        state = .cancelling(continuation)
        cancelHook?()
        guard case .cancelling = state else { return }  // the system answered at once
        let grace = self.grace
        Task { @MainActor in
            try? await Task.sleep(for: grace)
            self.giveUp()
        }
    }

    private func giveUp() {
        guard case .cancelling(let continuation) = state else { return }
        state = .finished
        continuation.resume(throwing: CancellationError())
    }
}
