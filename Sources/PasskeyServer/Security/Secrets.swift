import Crypto
import WebAuthn

/// Random secrets (challenges, tokens, ids) and their stored form, a SHA-256 hash.
enum Secrets {
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// A bearer token: a prefix that names its kind (helping secret scanners), then 32 random bytes.
    static func token(prefix: String) -> String { prefix + Base64URL.encode(randomBytes(32)) }

    /// An identifier: a prefix, then 16 random bytes.
    static func identifier(prefix: String) -> String { prefix + Base64URL.encode(randomBytes(16)) }

    static func hash(_ text: String) -> [UInt8] { Array(SHA256.hash(data: Array(text.utf8))) }
    static func hash(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }

    static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
