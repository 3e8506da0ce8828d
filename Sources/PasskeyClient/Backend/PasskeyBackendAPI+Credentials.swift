extension PasskeyBackendAPI {
    /// `GET /v1/users/{userId}/credentials`: the user's passkeys on the server, every status. The ids of the
    /// `active` ones are what ``PasskeyClientProtocol/shouldPromptToCreatePasskey(userId:serverCredentialIds:)``
    /// takes (your backend passes them to the app).
    public func credentials(ofUser userId: String) async throws(PasskeyError) -> [RegisteredCredential] {
        struct List: Decodable { let credentials: [RegisteredCredential] }
        return try await requester.send(
            "GET",
            ["v1", "users", userId, "credentials"],
            token: apiKey,
            body: EmptyBody?.none,
            as: List.self
        ).credentials
    }

    /// `DELETE /v1/credentials/{credentialId}`: revokes the passkey on the server (it can no longer sign in). The
    /// device keeps its key until the app deletes it (``PasskeyClient/deleteCredential(id:)``).
    public func revokeCredential(id credentialId: String) async throws(PasskeyError) {
        _ = try await requester.sendRaw(
            "DELETE",
            ["v1", "credentials", credentialId],
            token: apiKey,
            body: EmptyBody?.none
        )
    }
}
