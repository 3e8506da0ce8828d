public import Foundation
import WebAuthn

extension PlatformCredential {
    /// Records in the platform adapter's registry that this credential signed in on this device at `time`.
    ///
    /// A passkey the adapter made has its `lastUsedAt` set. A platform passkey it did not make — one synced from
    /// another device of the user (iCloud Keychain, another passkey provider) — is added, so that the local list and
    /// ``PasskeyClient/shouldPromptToCreatePasskey(userId:serverCredentialIds:)`` (given the server's list) count it from now on: a passkey
    /// the user signed in with here is usable here. Security keys are not added (they leave with their owner), nor
    /// is a credential without a user handle. Platform-neutral, so it is tested on Linux.
    public func recordUse(in entries: inout [KeyStoreEntry], rpID: String, at time: Date) {
        if let index = entries.firstIndex(where: { $0.credentialId.bytes == id }) {
            entries[index].lastUsedAt = time
            return
        }
        guard case .platformProvider = source, let userHandle, !userHandle.isEmpty else { return }
        // Authenticator data: rpIdHash (32 bytes), then the flags (WebAuthn §6.1): BE is bit 3, BS bit 4.
        let flags = authenticatorData.flatMap { $0.count > 32 ? $0[32] : nil } ?? 0
        entries.append(
            KeyStoreEntry(
                credentialId: Base64URLBytes(id),
                key: [],
                rpId: rpID,
                userHandle: Base64URLBytes(userHandle),
                userName: "",
                userDisplayName: "",
                userId: nil,
                discoverable: true,
                signCount: 0,
                backupEligible: flags & 0x08 != 0,
                backupState: flags & 0x10 != 0,
                createdAt: time,
                lastUsedAt: time
            )
        )
    }
}
