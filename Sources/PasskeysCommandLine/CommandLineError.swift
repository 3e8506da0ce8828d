import WebAuthn

/// A failure that a command reports with a stable code: a ``WebAuthnError`` from verification or decoding,
/// or one of the command line's own codes (such as `FILE_UNREADABLE`).
struct CommandLineError: Error, Sendable, Equatable {
    let code: WebAuthnError.Code
    let message: String

    init(_ code: WebAuthnError.Code, _ message: String) {
        self.code = code
        self.message = message
    }

    init(_ error: WebAuthnError) {
        self.init(error.code, error.reason)
    }
}

extension WebAuthnError.Code {
    /// The command line's FILE (or standard input) cannot be read: it does not exist, is a directory,
    /// or is not readable.
    static let fileUnreadable = Self(rawValue: "FILE_UNREADABLE")
    /// `passkeys inspect` does not recognize the input (it is empty).
    static let unrecognizedInput = Self(rawValue: "UNRECOGNIZED_INPUT")
}

/// An invalid option value, reported as bad usage (exit code 2) by ArgumentParser.
struct OptionValueError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
