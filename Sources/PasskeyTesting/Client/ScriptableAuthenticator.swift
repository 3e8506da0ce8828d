public import Foundation
public import PasskeyClient
public import WebAuthn

/// An in-memory authenticator for tests of passkey flows: a ``SoftwareAuthenticator`` on a ``MemoryKeyStore``
/// whose next ceremonies follow a script — the user cancels, biometrics are locked, no credential is found, the
/// user takes a while — and that records every request it got, so a test can check what reached it.
///
/// ```swift
/// let authenticator = ScriptableAuthenticator()
/// await authenticator.script(.cancel)          // the next ceremony: the user closes the sheet
/// ```
public actor ScriptableAuthenticator: Authenticator {
    /// One scripted ceremony.
    public enum Step: Sendable {
        /// Run normally.
        case proceed
        /// The user closes the prompt: `USER_CANCELLED`.
        case cancel
        /// Biometrics are locked: `BIOMETRIC_LOCKOUT`.
        case lockout
        /// No matching credential here: `PASSKEY_NOT_FOUND`.
        case noCredential
        /// The user takes this long, then the ceremony runs normally.
        case delay(Duration)
        /// Fail with this error.
        case fail(PasskeyError)
    }

    public let keyStore: MemoryKeyStore
    public nonisolated let software: SoftwareAuthenticator
    private var steps: [Step] = []
    private var supported = true
    /// Every registration request, in order.
    public private(set) var creationRequests: [CredentialCreationRequest] = []
    /// Every authentication request, in order.
    public private(set) var assertionRequests: [CredentialAssertionRequest] = []

    public init(
        behaviour: SoftwareAuthenticator.Behaviour = SoftwareAuthenticator.Behaviour(),
        verifier: any UserVerifier = AutomaticUserVerifier(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        let store = MemoryKeyStore()
        self.keyStore = store
        self.software = SoftwareAuthenticator(keyStore: store, verifier: verifier, behaviour: behaviour, now: now)
    }

    /// Queues steps for the next ceremonies (one step each); ceremonies past the script proceed.
    public func script(_ steps: Step...) { self.steps += steps }

    /// What ``isSupported()`` answers.
    public func setSupported(_ supported: Bool) { self.supported = supported }

    public func isSupported() async -> Bool { supported }

    public func makeCredential(
        _ request: CredentialCreationRequest
    ) async throws(PasskeyError) -> RegistrationResponseJSON {
        creationRequests.append(request)
        try await runNextStep()
        return try await software.makeCredential(request)
    }

    public func getAssertion(
        _ request: CredentialAssertionRequest
    ) async throws(PasskeyError) -> AuthenticationResponseJSON {
        assertionRequests.append(request)
        try await runNextStep()
        return try await software.getAssertion(request)
    }

    public func credentials(rpDomain: String?) async throws(PasskeyError) -> [Credential] {
        try await software.credentials(rpDomain: rpDomain)
    }

    public func deleteCredential(id: String) async throws(PasskeyError) {
        try await software.deleteCredential(id: id)
    }

    private func runNextStep() async throws(PasskeyError) {
        guard !steps.isEmpty else { return }
        switch steps.removeFirst() {
        case .proceed: return
        case .cancel: throw PasskeyError(.userCancelled, "The user cancelled (scripted).")
        case .lockout: throw PasskeyError(.biometricLockout, "Biometrics are locked (scripted).")
        case .noCredential: throw PasskeyError(.passkeyNotFound, "No passkey here (scripted).")
        case .fail(let error): throw error
        case .delay(let duration):
            do {
                try await Task.sleep(for: duration)
            } catch {
                throw PasskeyError(
                    .cancelled,
                    "The ceremony was cancelled while the user was deciding (scripted delay)."
                )
            }
        }
    }
}
