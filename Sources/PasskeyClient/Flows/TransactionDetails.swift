import Crypto
import Foundation
import WebAuthn

/// The transaction a step-up session binds into its challenge: the text the user approves, and its digest.
///
/// The server makes the session's WebAuthn challenge 64 bytes: 32 random bytes followed by the 32 bytes of
/// SHA-256 over the UTF-8 of the text in Unicode normalization form C. The signature over the challenge is then a
/// signature over the text. The SDK recomputes the digest from the text it shows and refuses to sign a challenge
/// that does not end with it (``verify(boundInto:)``), so a server or network that shows one text and binds another
/// cannot get a signature.
public struct TransactionDetails: Sendable, Hashable, Codable {
    /// What the user approves, exactly as the server holds it.
    public var text: String
    /// The unpadded base64url SHA-256 of the NFC-normalised UTF-8 text.
    public var digest: String

    public init(text: String, digest: String) {
        self.text = text
        self.digest = digest
    }

    /// The transaction for `text`, with its digest computed.
    public init(text: String) {
        self.init(text: text, digest: Self.digest(of: text))
    }

    /// The unpadded base64url SHA-256 of `text`'s UTF-8 after NFC normalisation.
    public static func digest(of text: String) -> String {
        Base64URL.encode(digestBytes(of: text))
    }

    /// SHA-256 of `text`'s UTF-8 after NFC normalisation (so `é` as one scalar and as `e` + U+0301 agree).
    static func digestBytes(of text: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(text.precomposedStringWithCanonicalMapping.utf8)))
    }

    /// The length of a transaction-bound challenge: 32 random bytes, then the 32 bytes of the digest.
    public static let boundChallengeLength = 64

    /// Checks that this transaction is the one `challenge` binds: ``digest`` is the digest of ``text``, and the
    /// challenge is 64 bytes whose last 32 are that digest.
    ///
    /// - Throws: `AUTH_CONTEXT_MISMATCH` when either does not hold: nothing may be signed then.
    public func verify(boundInto challenge: [UInt8]) throws(PasskeyError) {
        let computed = Self.digestBytes(of: text)
        guard digest == Base64URL.encode(computed) else {
            throw PasskeyError(
                .authContextMismatch,
                "The transaction's digest is not the SHA-256 of its text; nothing was signed. Start the step-up again, and report it if it persists."
            )
        }
        guard challenge.count == Self.boundChallengeLength,
            challenge.suffix(computed.count).elementsEqual(computed)
        else {
            throw PasskeyError(
                .authContextMismatch,
                "The challenge does not carry the digest of the transaction shown (it must be \(Self.boundChallengeLength) bytes ending with it); nothing was signed."
            )
        }
    }
}
