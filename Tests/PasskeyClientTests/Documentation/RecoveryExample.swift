// The recovery example of docs/sdk.md ("Recovery on a new device"), compiled and run by the tests so the guide
// cannot drift from the SDK. Keep the two in step.
import Foundation
import PasskeyClient

/// Recovers `userId`'s account on a new device: `backend` plays your server, `client` the new phone (with your
/// vendor's `IdentityVerifier`). Returns the ids of the passkeys the recovery revoked.
func recoverAccount(client: PasskeyClient, backend: PasskeyBackendAPI, userId: String) async throws -> [String] {
    // Your backend: starts the recovery and sends the token to the person out of band (e-mail, SMS, a call).
    let attempt = try await backend.createRecovery(userId: userId)
    // The new phone: identity verification (with the face match), the replacement registration data from the
    // server, a new passkey, reserved on the server.
    let recovered = try await client.recover(
        RecoveryInput(recoveryAttemptId: attempt.recoveryAttemptId, recoveryToken: attempt.recoveryToken),
        registrationProvider: ServerRecoveryRegistrationProvider(api: client.api)
    )
    // Your backend: makes the new passkey active and revokes the lost ones.
    let finalized = try await backend.finalizeRecovery(recoveryAttemptId: attempt.recoveryAttemptId)
    precondition(finalized.credential.credentialId == recovered.credentialId)
    return finalized.revokedCredentialIds
}
