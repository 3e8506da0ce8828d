/// The passkeys on this device — the authenticator's record, not the server's list (which the app's backend reads
/// with `GET /v1/users/{userId}/credentials`) — and whether to offer the user a new one.
extension PasskeyClient {
    public func listCredentials() async throws(PasskeyError) -> [Credential] {
        try await authenticator.credentials(rpDomain: configuration.rpDomain)
    }

    public func getCredential(id: String) async throws(PasskeyError) -> Credential {
        _ = try CredentialID.decode(id)
        guard let credential = try await listCredentials().first(where: { $0.credentialId == id }) else {
            throw PasskeyError(.passkeyNotFound, "No passkey with id \(id) is on this device.")
        }
        return credential
    }

    @discardableResult
    public func deleteCredential(id: String) async throws(PasskeyError) -> Credential {
        let credential = try await getCredential(id: id)
        try await authenticator.deleteCredential(id: id)
        trace("deleted a passkey on this device", ["credentialId": "\(id)"])
        return credential
    }

    public func isPlatformAuthenticatorAvailable() async -> Bool { await authenticator.isSupported() }

    public func isSupported() async -> Bool { await isPlatformAuthenticatorAvailable() }

    public func shouldPromptToCreatePasskey(userId: String) async throws(PasskeyError) -> Bool {
        try Self.validateUserID(userId)
        guard await isPlatformAuthenticatorAvailable() else { return false }
        return try await !listCredentials().contains { $0.userId == userId }
    }
}
