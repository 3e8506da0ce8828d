import Crypto
import Foundation
import WebAuthn

/// The transaction a step-up approves (DESIGN §3 flow 3): its text, NFC-normalised, and the SHA-256 of its UTF-8,
/// which is the last 32 bytes of the challenge. A client shows the text and can check that the challenge it signs
/// commits to exactly that text.
struct Transaction: Codable, Sendable, Equatable {
    let text: String
    /// Unpadded base64url of SHA-256(UTF-8 of `text`).
    let digest: String

    static let maximumLength = 1000

    /// Checks and normalises the text: 1 to 1,000 Unicode scalars after NFC, not only white space, and what
    /// ``TransactionText`` allows (no character the person would not see as it is signed; few lines).
    init(text raw: String) throws(APIError) {
        let text = raw.precomposedStringWithCanonicalMapping
        guard (1...Self.maximumLength).contains(text.unicodeScalars.count),
            !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        else {
            throw APIError.transactionTextInvalid(
                "transaction.text must be 1 to \(Self.maximumLength) characters (Unicode scalars) of text, not only white space."
            )
        }
        try TransactionText.check(text)
        self.text = text
        self.digest = Base64URL.encode(Self.digest(of: text))
    }

    static func digest(of text: String) -> [UInt8] { Array(SHA256.hash(data: Array(text.utf8))) }

    /// The 64-byte challenge that commits to this transaction: 32 random bytes, then the digest.
    func challenge(random: [UInt8]) -> [UInt8] { random + Self.digest(of: text) }
}

/// `"transaction": {"text": "…"}` in `POST /v1/authentications`.
struct TransactionRequest: Decodable, Sendable {
    let text: String
}
