// The Linux program of docs/sdk.md ("The same flow on Linux"), compiled and run by the tests so the guide
// cannot drift from the SDK. Keep the two in step.
import Foundation
import PasskeyClient

/// Enrolls a passkey for `alice` on this machine and signs in with it; returns who the backend says signed in.
/// `PasskeyBackendAPI` plays the app's own backend here; in a real app, the API key stays on your server.
func enrollAndSignIn(server: URL, apiKey: String, keyStorePath: String, passphrase: String) async throws -> String {
    // The device: a software authenticator whose keys live in an encrypted file (scrypt + AES-GCM, mode 0600).
    let authenticator = SoftwareAuthenticator(
        keyStore: EncryptedFileKeyStore(path: keyStorePath, protection: .passphrase(passphrase)),
        verifier: AutomaticUserVerifier()
    )
    let client = PasskeyClient(
        configuration: try PasskeyClientConfiguration(
            rpDomain: "localhost",
            serverBaseURL: server,
            storage: "com.example.linux"
        ),
        authenticator: authenticator
    )

    // Your backend creates the registration attempt (POST /v1/registrations) and hands the app its id and token.
    let backend = PasskeyBackendAPI(serverBaseURL: server, apiKey: apiKey)
    if try await client.shouldPromptToCreatePasskey(userId: "alice") {
        let attempt = try await backend.createRegistration(
            userId: "alice",
            userName: "alice@example.com",
            displayName: "Alice"
        )
        let enrolled = try await client.enroll(
            EnrollmentInput(
                registrationAttemptId: attempt.registrationAttemptId,
                clientToken: attempt.clientToken,
                userId: "alice"
            )
        )
        print("enrolled passkey \(enrolled.credentialId)")
    }

    // Sign-in: your backend creates the session (POST /v1/authentications), the device answers it ...
    let session = try await backend.createAuthentication(userId: "alice")
    let result: AuthenticationResult
    do {
        result = try await client.authenticate(
            AuthenticationInput(sessionId: session.biometricPasskeySessionId, clientToken: session.clientToken)
        )
    } catch {
        if error.code == .passkeyNotFound { print("no passkey for alice on this device: offer to enroll one") }
        throw error
    }
    // ... and your backend redeems the result token once (POST /v1/authentications/{id}/redeem).
    let redeemed = try await backend.redeemAuthentication(
        sessionId: session.biometricPasskeySessionId,
        resultToken: result.resultToken
    )
    return redeemed.userId
}
