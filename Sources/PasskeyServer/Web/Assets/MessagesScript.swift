extension WebAssets {
    /// What the pages tell the user for each outcome: the browser's, and every error code the server sends (a test
    /// checks that the API's codes all have one). Loaded before the ceremony script, which shows them.
    static let messagesScript = #"""
        "use strict";
        const PasskeyMessages = Object.freeze({
          // The browser's outcomes.
          CANCELLED: "Passkey creation was cancelled or timed out. Nothing was saved; try again when ready.",
          CANCELLED_OR_NONE: "Sign-in was cancelled, or this device has no passkey for this site. Try again, or sign in on the device that has your passkey.",
          PASSKEY_ALREADY_EXISTS: "This device already has a passkey for this account. Sign in with it instead.",
          SECURITY_ERROR: "This page's address cannot use passkeys for this site (its origin does not match the server's relying party).",
          NOT_SUPPORTED: "This browser or authenticator cannot create a passkey with the algorithms this server accepts.",
          NETWORK_ERROR: "The server could not be reached. Check your connection and try again.",
          // Every code the server sends.
          INVALID_REQUEST: "The request was not valid. Check what you entered and try again.",
          CHALLENGE_MISMATCH: "The passkey answered another request than this one. Start again.",
          ORIGIN_NOT_ALLOWED: "This page's address is not one the server accepts for passkeys.",
          RP_ID_MISMATCH: "The passkey belongs to another site.",
          CEREMONY_TYPE_MISMATCH: "The browser sent the wrong kind of passkey response. Start again.",
          USER_PRESENCE_REQUIRED: "The passkey did not confirm you were present. Try again and touch or confirm when asked.",
          USER_VERIFICATION_REQUIRED: "This site needs you to unlock the passkey (PIN, fingerprint or face). Try again and confirm it's you.",
          ATTESTATION_FORMAT_NOT_ALLOWED: "This site does not accept passkeys from this kind of authenticator.",
          ATTESTATION_INVALID: "The authenticator's proof of origin did not verify, so the passkey was not saved. Try another authenticator.",
          AUTHENTICATOR_NOT_ALLOWED: "This site does not accept this authenticator model (it is unknown to the site, or reported as compromised). Use another authenticator.",
          ALGORITHM_NOT_ALLOWED: "The authenticator used a key type this site does not accept. Try another authenticator.",
          SYNCED_CREDENTIALS_NOT_ALLOWED: "This site accepts only device-bound passkeys, not synced ones. Use a security key or a device-bound passkey.",
          ASSERTION_INVALID: "The passkey's signature did not verify. Try again; if it keeps failing, delete this passkey and add a new one.",
          CREDENTIAL_CLONE_SUSPECTED: "This passkey's counter went backwards, which can mean it was copied. It was refused; contact support.",
          CREDENTIAL_NAME_INVALID: "A passkey name is 1 to 64 characters, without control characters.",
          CREDENTIAL_NAME_HTML: "A passkey name cannot contain < or >.",
          SIGN_IN_REQUIRED: "Your session ended. Sign in again.",
          UNAUTHENTICATED: "This request is no longer authorised. Reload the page and start again.",
          CSRF_TOKEN_INVALID: "This page is out of date. Reload it and try again.",
          INVALID_RESULT_TOKEN: "The sign-in result did not match. Start again.",
          CREDENTIAL_INACTIVE: "The passkey you chose was deleted from your account and can no longer sign in. Use another passkey, or remove this one from your device.",
          STEP_UP_CREDENTIAL_USER_MISMATCH: "The passkey you chose belongs to another account.",
          NOT_FOUND: "There is no account with that user name. Check the spelling, or sign up.",
          CREDENTIAL_NOT_FOUND: "The server does not know the passkey you chose: it was deleted, or belongs to another account. Use another passkey.",
          METHOD_NOT_ALLOWED: "The page sent a request the server does not accept. Reload the page.",
          USER_NAME_TAKEN: "That user name is taken. Sign in instead, or choose another name.",
          REGISTRATION_ATTEMPT_CONFLICT: "This sign-up was already finished or cancelled. Start again.",
          CHALLENGE_CONSUMED: "This request was already used. Start again.",
          CREDENTIAL_ALREADY_REGISTERED: "That passkey is already registered.",
          MAX_CREDENTIALS_REACHED: "This account has as many passkeys as allowed. Delete one on the account page first.",
          CREDENTIAL_NAME_DUPLICATE: "Another of your passkeys already has that name. Choose another.",
          NO_ACTIVE_CREDENTIALS: "This account has no passkey any more. Sign up again to create one.",
          RESULT_ALREADY_REDEEMED: "This sign-in was already used. Start again.",
          AUTHENTICATION_NOT_COMPLETED: "The sign-in was not completed. Start again.",
          INVALID_OR_EXPIRED_SESSION: "This sign-in took too long and expired. Start again.",
          REGISTRATION_ATTEMPT_EXPIRED: "This sign-up took too long and expired. Start again.",
          RESERVATION_EXPIRED: "The new passkey was not confirmed in time and was released. Start again.",
          CHALLENGE_EXPIRED: "The request expired before the passkey answered. Start again.",
          PAYLOAD_TOO_LARGE: "The passkey's response was too large for this server.",
          RATE_LIMITED: "Too many attempts. Wait a minute, then try again.",
          INTERNAL_ERROR: "Something went wrong on the server. Try again; if it keeps happening, contact support.",
          SERVICE_UNAVAILABLE: "The service is unavailable right now. Try again shortly.",
        });
        """#
}
