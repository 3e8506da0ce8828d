// The token-session example of docs/sdk.md ("Token sessions"), compiled and run by the tests so the guide cannot
// drift from the SDK. Keep the two in step.
import Foundation
import PasskeyClient

/// Signs `userId` in and keeps the token session the backend asked for: `backend` plays your server, `client` the
/// app. The returned session hands out valid access tokens for your API.
func signInWithTokenSession(
    client: PasskeyClient,
    backend: PasskeyBackendAPI,
    serverBaseURL: URL,
    storage: any TokenSessionStorage,
    userId: String
) async throws -> TokenSession {
    // Your backend: a sign-in, redeemed with a token session for the app.
    let signIn = try await backend.createAuthentication(userId: userId)
    let result = try await client.authenticate(
        AuthenticationInput(sessionId: signIn.biometricPasskeySessionId, clientToken: signIn.clientToken)
    )
    let redeemed = try await backend.redeemAuthentication(
        sessionId: signIn.biometricPasskeySessionId,
        resultToken: result.resultToken,
        issueSession: true
    )
    guard let tokens = redeemed.session else { throw PasskeyError(.serverError, "The server issued no session.") }
    // The app: keep the session. Each call to your API asks it for an access token: it refreshes when needed.
    let session = TokenSession(api: PasskeyClientAPI(serverBaseURL: serverBaseURL), storage: storage)
    try await session.start(with: tokens)
    return session
}
