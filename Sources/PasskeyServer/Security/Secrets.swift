import Crypto
import WebAuthn

/// Random secrets (challenges, tokens, ids) and their stored form, a SHA-256 hash.
enum Secrets {
    /// `count` bytes from the system's secure generator, taken eight at a time (each draw is a system call).
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            var word = generator.next()
            for _ in 0..<min(8, count - bytes.count) {
                bytes.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return bytes
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
