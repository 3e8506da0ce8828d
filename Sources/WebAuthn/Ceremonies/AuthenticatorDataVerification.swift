import Crypto

/// The authenticator-data steps shared by registration (§7.1 steps 13–17) and authentication (§7.2 steps 15–18).
struct AuthenticatorDataVerification {
    let relyingPartyIDs: [String]
    let requireUserPresence: Bool
    let userVerification: UserVerificationRequirement
    let allowBackupEligible: Bool

    func verify(_ authenticatorData: AuthenticatorData) throws(WebAuthnError) {
        // §7.1 step 13 / §7.2 step 15: rpIdHash is SHA-256 of an expected RP ID.
        guard
            relyingPartyIDs.contains(where: { Array(SHA256.hash(data: Array($0.utf8))) == authenticatorData.rpIDHash })
        else {
            throw WebAuthnError(
                .rpIDMismatch,
                "The authenticator data's rpIdHash is not the SHA-256 of \(relyingPartyIDs.map { "'\($0)'" }.joined(separator: " or ")); the credential was made for another RP ID."
            )
        }
        // §7.1 step 14 / §7.2 step 16: user presence.
        if requireUserPresence, !authenticatorData.userPresent {
            throw WebAuthnError(
                .userPresenceRequired,
                "The authenticator did not report user presence (UP flag); ask the user to touch or unlock the authenticator."
            )
        }
        // §7.1 step 15 / §7.2 step 17: user verification, when required.
        if userVerification == .required, !authenticatorData.userVerified {
            throw WebAuthnError(
                .userVerificationRequired,
                "User verification is required but the authenticator did not verify the user (UV flag); use an authenticator with a PIN or biometric."
            )
        }
        // §7.1 step 16 / §7.2 step 18: BS without BE is checked when authenticator data is decoded.
        // §7.1 step 17: relying-party policy on backup eligibility.
        if !allowBackupEligible, authenticatorData.backupEligible {
            throw WebAuthnError(
                .backupEligibleNotAllowed,
                "This relying party accepts only device-bound credentials, and this one is backup eligible (a synced passkey)."
            )
        }
    }
}
