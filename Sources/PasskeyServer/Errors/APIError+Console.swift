import HTTPTypes

// The operator console's refusals of passkeys and of the demo for operator accounts.
extension APIError {
    static let consolePasskeyRequired = Self(
        .consolePasskeyRequired,
        .forbidden,
        "This passkey was not enrolled for the console. An operator already in the console (or a break-glass session with an API key) adds a console passkey on the operator's user page."
    )
    static let consoleUserVerificationRequired = Self(
        .userVerificationRequired,
        .badRequest,
        "The console needs you to unlock the passkey (PIN, fingerprint or face). Sign in again and confirm it's you."
    )
    static let operatorAccountRestricted = Self(
        .operatorAccountRestricted,
        .forbidden,
        "This is an operator's account: the demo neither signs it in with a phone nor adds passkeys to it. Sign in on the device that holds its passkey; console passkeys are added in the console."
    )
    static let consoleEnrolmentForbidden = Self(
        .consoleEnrolmentForbidden,
        .forbidden,
        "Console passkeys are added for a user named in web.operators, by that operator or in a break-glass session."
    )
}
