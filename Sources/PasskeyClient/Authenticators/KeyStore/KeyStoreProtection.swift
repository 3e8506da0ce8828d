public import Crypto
import CryptoExtras
import Foundation
import WebAuthn

/// How an ``EncryptedFileKeyStore`` gets its encryption key.
public enum KeyStoreProtection: Sendable {
    /// A passphrase, stretched with scrypt (the parameters are used for new files; existing files keep theirs).
    case passphrase(String, ScryptParameters = .recommended)
    /// A file holding a random 256-bit key: 32 raw bytes, 64 hex digits or 43 base64url characters.
    case keyFile(path: String)
    /// A 256-bit key held by the caller (from the system keychain, a secrets manager).
    case key(SymmetricKey)
}

/// scrypt's cost parameters (RFC 7914): `N = 2^logN`, block size `r`, parallelism `p`.
public struct ScryptParameters: Sendable, Hashable, Codable {
    public var logN: Int
    public var r: Int
    public var p: Int

    public init(logN: Int, r: Int, p: Int) {
        self.logN = logN
        self.r = r
        self.p = p
    }

    /// N = 2^15, r = 8, p = 1: 32 MiB of memory per derivation (the RFC 7914 interactive-login setting).
    public static let recommended = Self(logN: 15, r: 8, p: 1)
    /// N = 2^10, r = 8, p = 1: fast and weak — for tests only, never for keys that matter.
    public static let insecureForTesting = Self(logN: 10, r: 8, p: 1)

    /// The bounds a file's parameters must be in before any work is done, so a crafted file cannot make us
    /// allocate gigabytes or spin for minutes.
    var isWithinBounds: Bool { (10...20).contains(logN) && (1...16).contains(r) && (1...4).contains(p) }
}

extension KeyStoreProtection {
    /// The 256-bit master key: scrypt of the passphrase with the file's salt, or the key itself.
    func masterKey(salt: [UInt8], scrypt: ScryptParameters?) throws(PasskeyError) -> SymmetricKey {
        switch self {
        case .passphrase(let passphrase, _):
            guard let scrypt else {
                throw PasskeyError(
                    .keyStoreWrongPassphrase,
                    "This key store is protected by a key, not a passphrase; open it with its key file."
                )
            }
            guard !passphrase.isEmpty else { throw PasskeyError(.invalidInput, "The key store passphrase is empty.") }
            do {
                return try KDF.Scrypt.deriveKey(
                    from: Array(passphrase.utf8),
                    salt: salt,
                    outputByteCount: 32,
                    rounds: 1 << scrypt.logN,
                    blockSize: scrypt.r,
                    parallelism: scrypt.p
                )
            } catch {
                throw PasskeyError(
                    .keyStoreUnavailable,
                    "The key could not be derived from the passphrase (scrypt failed).",
                    cause: error
                )
            }
        case .keyFile(let path):
            guard scrypt == nil else { throw Self.passphraseExpected }
            return try Self.readKeyFile(path)
        case .key(let key):
            guard scrypt == nil else { throw Self.passphraseExpected }
            guard key.bitCount == 256 else {
                throw PasskeyError(.invalidInput, "A key store key must be 256 bits, not \(key.bitCount).")
            }
            return key
        }
    }

    /// The scrypt parameters for a new file (nil when a key, not a passphrase, protects it).
    var newFileScrypt: ScryptParameters? {
        if case .passphrase(_, let parameters) = self { return parameters }
        return nil
    }

    private static let passphraseExpected = PasskeyError(
        .keyStoreWrongPassphrase,
        "This key store is protected by a passphrase, not a key; open it with its passphrase."
    )

    static func readKeyFile(_ path: String) throws(PasskeyError) -> SymmetricKey {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 1024 else {
            throw PasskeyError(.keyStoreUnavailable, "The key file '\(path)' cannot be read.")
        }
        let bytes = Array(data)
        if bytes.count == 32 { return SymmetricKey(data: bytes) }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.utf8.count == 64, let hex = Self.hexBytes(text) { return SymmetricKey(data: hex) }
        if let decoded = try? Base64URL.decode(text), decoded.count == 32 { return SymmetricKey(data: decoded) }
        throw PasskeyError(
            .invalidInput,
            "The key file '\(path)' must hold a 256-bit key: 32 raw bytes, 64 hex digits or 43 base64url characters."
        )
    }

    private static func hexBytes(_ text: String) -> [UInt8]? {
        var bytes = [UInt8]()
        var iterator = text.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            guard let h = nibble(high), let l = nibble(low) else { return nil }
            bytes.append(h << 4 | l)
        }
        return bytes
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
