import Foundation
import WebAuthn

/// A key store in one encrypted file (format: ``KeyStoreFile``): AES-256-GCM with a key from a passphrase
/// (scrypt) or a key file, owner-only permissions (0600, refused otherwise), atomic replacement on every change,
/// and an advisory lock so several processes can share it. A damaged, modified or foreign file is reported
/// (`KEY_STORE_CORRUPT`, `KEY_STORE_UNRECOGNIZED`, `KEY_STORE_WRONG_PASSPHRASE`) and never overwritten.
///
/// A missing file is an empty key store; the file is created by the first change.
public actor EncryptedFileKeyStore: KeyStore {
    public nonisolated let path: String
    private let protection: KeyStoreProtection
    private let fault: AtomicFile.Fault?
    /// The keys of the file as last read or written, so scrypt runs once per instance and salt.
    private var keys: KeyStoreKeys?

    public init(path: String, protection: KeyStoreProtection) {
        self.init(path: path, protection: protection, fault: nil)
    }

    init(path: String, protection: KeyStoreProtection, fault: AtomicFile.Fault?) {
        self.path = path
        self.protection = protection
        self.fault = fault
    }

    public func entries() async throws(PasskeyError) -> [KeyStoreEntry] {
        try AtomicFile.withLock(path, exclusive: false) { () throws(PasskeyError) -> [KeyStoreEntry] in try read() }
    }

    public func update<Result: Sendable>(
        _ body: @Sendable (inout [KeyStoreEntry]) throws(PasskeyError) -> Result
    ) async throws(PasskeyError) -> Result {
        try AtomicFile.withLock(path, exclusive: true) { () throws(PasskeyError) -> Result in
            var entries = try read()
            let result = try body(&entries)
            let keys: KeyStoreKeys
            if let cached = self.keys { keys = cached } else { keys = try KeyStoreKeys.new(protection: protection) }
            try AtomicFile.write(try KeyStoreFile.seal(entries, keys: keys), to: path, fault: fault)
            self.keys = keys
            return result
        }
    }

    /// An existing file is opened (it must be a key store this protection opens); a missing one must be creatable:
    /// its folder exists (or is made, owner-only) and is writable.
    public func checkAvailable() async throws(PasskeyError) {
        guard !exists else {
            _ = try await entries()
            return
        }
        let directory = (path as NSString).deletingLastPathComponent
        let folder = directory.isEmpty ? "." : directory
        try AtomicFile.createDirectory(folder)
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw PasskeyError(
                .keyStoreUnavailable,
                "The key store '\(path)' cannot be created: its folder is not writable; choose another path or fix the folder's permissions."
            )
        }
    }

    /// Whether the file exists (an absent file is an empty key store).
    public nonisolated var exists: Bool { FileManager.default.fileExists(atPath: path) }

    private func read() throws(PasskeyError) -> [KeyStoreEntry] {
        guard let bytes = try AtomicFile.read(path, limit: KeyStoreFile.maximumSize) else { return [] }
        let file = try KeyStoreFile.parse(bytes, path: path)
        let keys: KeyStoreKeys
        if let cached = self.keys, cached.salt == file.salt.bytes, cached.kdf == file.kdf {
            keys = cached
        } else {
            keys = try KeyStoreKeys(protection: protection, kdf: file.kdf, salt: file.salt.bytes)
        }
        let entries = try file.open(keys: keys, path: path)
        self.keys = keys
        return entries
    }
}
