import Crypto
import Foundation
public import WebAuthn

extension SoftwareAuthenticator {
    /// `authenticatorGetAssertion` (WebAuthn §6.3.3) with the client's part of `get()` (§5.1.4).
    public func getAssertion(
        _ request: CredentialAssertionRequest
    ) async throws(PasskeyError) -> AuthenticationResponseJSON {
        let options = request.options
        let userVerification = UserVerificationRequirementValue(options.userVerification)
        let allowed = Set((options.allowCredentials ?? []).map(\.id.bytes))
        // §6.3.3 step 6: the credentials of this RP in allowCredentials, or its discoverable credentials.
        let candidates = try await keyStore.entries().filter {
            $0.rpId == request.rpID && (allowed.isEmpty ? $0.discoverable : allowed.contains($0.credentialId.bytes))
        }
        // Several: the account picker's choice, here the most recently used.
        guard let chosen = candidates.max(by: { ($0.lastUsedAt ?? $0.createdAt) < ($1.lastUsedAt ?? $1.createdAt) })
        else {
            throw PasskeyError(
                .passkeyNotFound,
                allowed.isEmpty
                    ? "This device has no passkey for \(request.rpID) that can be used without a user name; enroll one first."
                    : "None of the passkeys the server allows for this account is on this device; enroll one here, or sign in on the device that has it."
            )
        }
        let clientDataJSON = ClientDataEncoding.encode(
            type: "webauthn.get",
            challenge: options.challenge.bytes,
            origin: request.origin,
            crossOrigin: false
        )
        let signed = try await sign(
            chosen,
            rpID: request.rpID,
            clientDataHash: Array(SHA256.hash(data: clientDataJSON)),
            userVerification: userVerification
        )
        let used = signed.entry
        return AuthenticationResponseJSON(
            id: used.credentialId.base64URL,
            rawId: used.credentialId,
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: Base64URLBytes(clientDataJSON),
                authenticatorData: Base64URLBytes(signed.authenticatorData),
                signature: Base64URLBytes(signed.signature),
                userHandle: used.discoverable ? used.userHandle : nil
            ),
            authenticatorAttachment: behaviour.attachment
        )
    }

    /// The authenticator's part of §6.3.3 once the credential is chosen (steps 7–13): verifies the user as
    /// `userVerification` asks, counts the use, builds the authenticator data (UP; UV when the user was verified; BE
    /// and BS as the credential's) and signs it with the client data's hash. `getAssertion` and a credential
    /// provider extension, which gets only the hash from the system, both end here.
    func sign(
        _ chosen: KeyStoreEntry,
        rpID: String,
        clientDataHash: [UInt8],
        userVerification: UserVerificationRequirementValue
    ) async throws(PasskeyError) -> (entry: KeyStoreEntry, authenticatorData: [UInt8], signature: [UInt8]) {
        let outcome = try await verifier.verifyUser(
            UserVerificationRequest(
                ceremony: .authentication,
                rpID: rpID,
                userName: chosen.userName,
                userVerification: userVerification
            )
        )
        try Self.check(outcome, against: userVerification)

        let time = now()
        let incrementing = behaviour.counter == .incrementing
        let used = try await keyStore.update { entries throws(PasskeyError) -> KeyStoreEntry in
            guard let index = entries.firstIndex(where: { $0.credentialId == chosen.credentialId }) else {
                throw PasskeyError(
                    .passkeyNotFound,
                    "The passkey \(chosen.credentialId.base64URL) was deleted during sign-in."
                )
            }
            if incrementing { entries[index].signCount &+= 1 }
            entries[index].lastUsedAt = time
            return entries[index]
        }
        var flags: AuthenticatorDataFlags = [.userPresent]
        if outcome.userVerified { flags.insert(.userVerified) }
        if used.backupEligible { flags.insert(.backupEligible) }
        if used.backupState { flags.insert(.backupState) }
        let authenticatorData = AuthenticatorDataEncoding.encode(
            rpIDHash: Array(SHA256.hash(data: Array(rpID.utf8))),
            flags: flags,
            signCount: incrementing ? used.signCount : 0
        )
        let signature = try await keys.sign(
            authenticatorData + clientDataHash,
            stored: used.key.bytes,
            verification: outcome
        )
        return (used, authenticatorData, signature)
    }
}
