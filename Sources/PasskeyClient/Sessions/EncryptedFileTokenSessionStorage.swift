public import Crypto
import Foundation

/// A token session in a file of its own, sealed as the SDK's key store seals its file: AES-256-GCM under a 256-bit
/// key (``KeychainKey`` on Apple platforms, a key file or the key store's key elsewhere), owner-only permissions
/// (0600), replaced atomically on every save. A file that does not open with the key is reported
/// (`KEY_STORE_CORRUPT`) and left alone, so the app signs in again rather than losing another file's contents.
public struct EncryptedFileTokenSessionStorage: TokenSessionStorage {
    public let path: String
    private let key: SymmetricKey

    /// The largest file read: a session is well under 4 KiB.
    static let maximumSize = 16 * 1024
    /// What the sealed box authenticates besides the session, so that another file sealed with the same key (the key
    /// store's) is not taken for a session.
    static let context = Array("swift-passkeys token session v1".utf8)

    public init(path: String, key: SymmetricKey) {
        self.path = path
        self.key = key
    }

    public func load() async throws(PasskeyError) -> StoredTokenSession? {
        try AtomicFile.withLock(path, exclusive: false) { () throws(PasskeyError) -> StoredTokenSession? in
            guard let bytes = try AtomicFile.read(path, limit: Self.maximumSize) else { return nil }
            let plaintext: Data
            do {
                plaintext = try AES.GCM.open(
                    AES.GCM.SealedBox(combined: bytes),
                    using: key,
                    authenticating: Self.context
                )
            } catch {
                throw PasskeyError(
                    .keyStoreCorrupt,
                    "The token session file '\(path)' does not open with this key: it was changed, or sealed with another key. Sign in again (clear() removes it).",
                    cause: error
                )
            }
            do {
                return try JSONDecoder.tokenSession.decode(StoredTokenSession.self, from: plaintext)
            } catch {
                throw PasskeyError(.keyStoreCorrupt, "The token session file '\(path)' holds no session.", cause: error)
            }
        }
    }

    public func save(_ session: StoredTokenSession) async throws(PasskeyError) {
        let sealed: [UInt8]
        do {
            let plaintext = try JSONEncoder.tokenSession.encode(session)
            guard let combined = try AES.GCM.seal(plaintext, using: key, authenticating: Self.context).combined else {
                throw PasskeyError(.keyStoreUnavailable, "The token session could not be sealed.")
            }
            sealed = Array(combined)
        } catch let error as PasskeyError {
            throw error
        } catch {
            throw PasskeyError(.keyStoreUnavailable, "The token session could not be sealed.", cause: error)
        }
        try AtomicFile.withLock(path, exclusive: true) { () throws(PasskeyError) in
            try AtomicFile.write(sealed, to: path)
        }
    }

    public func clear() async throws(PasskeyError) {
        try AtomicFile.withLock(path, exclusive: true) { () throws(PasskeyError) in
            guard FileManager.default.fileExists(atPath: path) else { return }
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw PasskeyError(
                    .keyStoreUnavailable,
                    "The token session file '\(path)' could not be removed.",
                    cause: error
                )
            }
        }
    }
}

extension JSONEncoder {
    static var tokenSession: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

extension JSONDecoder {
    static var tokenSession: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
