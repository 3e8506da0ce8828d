import Foundation
public import PasskeyClient

/// A ``PasskeyClientProtocol`` for the tests of app code: it answers from what the test set, records what the app
/// asked, and fails with the error the test scripts — no server, no authenticator.
public actor FakePasskeyClient: PasskeyClientProtocol {
    /// The passkeys ``listCredentials()`` returns.
    public var credentials: [Credential]
    public var supported: Bool
    /// The next error to throw from any call (cleared when thrown).
    public var nextError: PasskeyError?
    public private(set) var enrollments: [EnrollmentInput] = []
    public private(set) var authentications: [AuthenticationInput] = []
    public private(set) var recoveries: [RecoveryInput] = []

    public init(credentials: [Credential] = [], supported: Bool = true) {
        self.credentials = credentials
        self.supported = supported
    }

    /// Makes the next call fail with `error`.
    public func failNext(with error: PasskeyError) { nextError = error }

    public func enroll(_ input: EnrollmentInput) async throws(PasskeyError) -> EnrollmentResult {
        enrollments.append(input)
        try throwIfScripted()
        let credential = Credential(
            credentialId: "fake-\(enrollments.count)",
            rpDomain: "example.com",
            userId: input.userId,
            userName: input.userId ?? "user",
            userHandle: "dXNlcg",
            createdAt: Date(),
            lastUsedAt: nil,
            isDiscoverable: true
        )
        credentials.append(credential)
        return EnrollmentResult(
            status: .enrolled,
            credentialId: credential.credentialId,
            registered: nil,
            credential: credential
        )
    }

    public func authenticate(_ input: AuthenticationInput) async throws(PasskeyError) -> AuthenticationResult {
        authentications.append(input)
        try throwIfScripted()
        guard let credential = credentials.first else {
            throw PasskeyError(.passkeyNotFound, "The fake client holds no passkey.")
        }
        return AuthenticationResult(
            sessionId: input.sessionId,
            resultToken: "fake-result-token",
            expiresAt: Date().addingTimeInterval(60),
            credentialId: credential.credentialId,
            userHandle: credential.userHandle
        )
    }

    public func listCredentials() async throws(PasskeyError) -> [Credential] {
        try throwIfScripted()
        return credentials
    }

    public func getCredential(id: String) async throws(PasskeyError) -> Credential {
        try throwIfScripted()
        guard let credential = credentials.first(where: { $0.credentialId == id }) else {
            throw PasskeyError(.passkeyNotFound, "The fake client holds no passkey \(id).")
        }
        return credential
    }

    @discardableResult
    public func deleteCredential(id: String) async throws(PasskeyError) -> Credential {
        let credential = try await getCredential(id: id)
        credentials.removeAll { $0.credentialId == id }
        return credential
    }

    public func isSupported() async -> Bool { supported }

    public func shouldPromptToCreatePasskey(userId: String) async throws(PasskeyError) -> Bool {
        try throwIfScripted()
        return supported && !credentials.contains { $0.userId == userId }
    }

    public func create(requestJSON: String) async throws(PasskeyError) -> String {
        try throwIfScripted()
        throw PasskeyError(
            .featureNotAvailable,
            "FakePasskeyClient does not run raw ceremonies; use ScriptableAuthenticator with PasskeyClient."
        )
    }

    public func authenticate(requestJSON: String) async throws(PasskeyError) -> String {
        try throwIfScripted()
        throw PasskeyError(
            .featureNotAvailable,
            "FakePasskeyClient does not run raw ceremonies; use ScriptableAuthenticator with PasskeyClient."
        )
    }

    public func recover(
        _ input: RecoveryInput,
        registrationProvider: any RecoveryRegistrationProvider
    ) async throws(PasskeyError) -> RecoveredCredentialOutput {
        recoveries.append(input)
        try throwIfScripted()
        let credential = Credential(
            credentialId: "fake-recovered-\(recoveries.count)",
            rpDomain: "example.com",
            userId: nil,
            userName: "user",
            userHandle: "dXNlcg",
            createdAt: Date(),
            lastUsedAt: nil,
            isDiscoverable: true
        )
        credentials.append(credential)
        return RecoveredCredentialOutput(
            credentialId: credential.credentialId,
            attestationObject: "",
            clientDataJson: "",
            userId: credential.userHandle
        )
    }

    private func throwIfScripted() throws(PasskeyError) {
        if let error = nextError {
            nextError = nil
            throw error
        }
    }
}
