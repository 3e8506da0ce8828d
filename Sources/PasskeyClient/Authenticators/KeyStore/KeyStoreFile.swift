import Crypto
import Foundation
import WebAuthn

/// The on-disk format of ``EncryptedFileKeyStore`` (version 1): a small JSON envelope around AES-256-GCM
/// ciphertext of the entries.
///
/// ```json
/// {"format": "swift-passkeys.key-store", "version": 1,
///  "kdf": {"name": "scrypt", "logN": 15, "r": 8, "p": 1},      // or {"name": "none"} for a key file
///  "salt": "<16 bytes>", "keyCheck": "<32 bytes>", "nonce": "<12 bytes>", "ciphertext": "<ciphertext ‖ tag>"}
/// ```
///
/// Binary members are unpadded base64url. The master key (scrypt of the passphrase with `salt`, or the key) is
/// expanded with HKDF-SHA256 (salt `salt`) into the encryption key (info `swift-passkeys key store v1
/// encryption`) and a key check value (info `… key check`), stored in `keyCheck`: a wrong passphrase is told
/// apart from a damaged file before decryption. The header is the GCM additional data, so a changed header
/// fails like changed ciphertext. The plaintext is `{"entries": [KeyStoreEntry…]}` (dates in seconds since 1970).
struct KeyStoreFile: Codable, Sendable {
    static let formatName = "swift-passkeys.key-store"
    static let currentVersion = 1
    /// Larger files are refused before they are parsed.
    static let maximumSize = 16 * 1024 * 1024

    struct KDFDescription: Codable, Sendable, Hashable {
        var name: String
        var logN: Int?
        var r: Int?
        var p: Int?

        var scrypt: ScryptParameters? {
            guard name == "scrypt", let logN, let r, let p else { return nil }
            return ScryptParameters(logN: logN, r: r, p: p)
        }
    }

    var format: String
    var version: Int
    var kdf: KDFDescription
    var salt: Base64URLBytes
    var keyCheck: Base64URLBytes
    var nonce: Base64URLBytes
    var ciphertext: Base64URLBytes

    /// The bytes authenticated with the ciphertext: every header member, in a fixed order.
    var additionalData: [UInt8] {
        let kdfText = [
            kdf.name, kdf.logN.map(String.init) ?? "", kdf.r.map(String.init) ?? "", kdf.p.map(String.init) ?? "",
        ]
        .joined(separator: ",")
        return Array("\(format)|\(version)|\(kdfText)|\(salt.base64URL)|\(keyCheck.base64URL)".utf8)
    }

    struct Plaintext: Codable, Sendable {
        var entries: [KeyStoreEntry]
    }
}

/// The keys a key store file is encrypted with, derived once per file and salt.
struct KeyStoreKeys: Sendable {
    let kdf: KeyStoreFile.KDFDescription
    let salt: [UInt8]
    let encryptionKey: SymmetricKey
    let keyCheck: [UInt8]

    init(protection: KeyStoreProtection, kdf: KeyStoreFile.KDFDescription, salt: [UInt8]) throws(PasskeyError) {
        let master = try protection.masterKey(salt: salt, scrypt: kdf.scrypt)
        self.kdf = kdf
        self.salt = salt
        self.encryptionKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: master,
            salt: salt,
            info: Array("swift-passkeys key store v1 encryption".utf8),
            outputByteCount: 32
        )
        self.keyCheck = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: master,
            salt: salt,
            info: Array("swift-passkeys key store v1 key check".utf8),
            outputByteCount: 32
        ).withUnsafeBytes { Array($0) }
    }

    /// Keys for a new file: a fresh salt, and scrypt with the protection's parameters (or none for a key).
    static func new(protection: KeyStoreProtection) throws(PasskeyError) -> Self {
        let kdf: KeyStoreFile.KDFDescription
        if let scrypt = protection.newFileScrypt {
            guard scrypt.isWithinBounds else {
                throw PasskeyError(.invalidInput, "scrypt parameters must have logN 10–20, r 1–16 and p 1–4.")
            }
            kdf = .init(name: "scrypt", logN: scrypt.logN, r: scrypt.r, p: scrypt.p)
        } else {
            kdf = .init(name: "none")
        }
        return try Self(protection: protection, kdf: kdf, salt: randomBytes(16))
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}

extension KeyStoreFile {
    /// Encrypts `entries` into a new envelope with a fresh nonce.
    static func seal(_ entries: [KeyStoreEntry], keys: KeyStoreKeys) throws(PasskeyError) -> [UInt8] {
        var file = KeyStoreFile(
            format: formatName,
            version: currentVersion,
            kdf: keys.kdf,
            salt: Base64URLBytes(keys.salt),
            keyCheck: Base64URLBytes(keys.keyCheck),
            nonce: [],
            ciphertext: []
        )
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        do {
            let plaintext = try encoder.encode(Plaintext(entries: entries))
            let nonce = try AES.GCM.Nonce(data: KeyStoreKeys.randomBytes(12))
            let box = try AES.GCM.seal(
                plaintext,
                using: keys.encryptionKey,
                nonce: nonce,
                authenticating: file.additionalData
            )
            file.nonce = Base64URLBytes(Array(box.nonce))
            file.ciphertext = Base64URLBytes(Array(box.ciphertext) + Array(box.tag))
            return Array(try encoder.encode(file)) + [0x0A]
        } catch {
            throw PasskeyError(.keyStoreUnavailable, "The key store could not be encrypted.", cause: error)
        }
    }

    /// Parses an envelope, checking that it is ours, before any key is derived.
    static func parse(_ bytes: [UInt8], path: String) throws(PasskeyError) -> KeyStoreFile {
        guard bytes.count <= maximumSize else {
            throw PasskeyError(
                .keyStoreUnrecognized,
                "'\(path)' is larger than any key store (\(bytes.count) bytes); it is not one."
            )
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw PasskeyError(
                .keyStoreCorrupt,
                "'\(path)' is not valid JSON: the key store is damaged (restore it from a backup, or move it away to start empty)."
            )
        }
        guard object["format"] as? String == formatName else {
            throw PasskeyError(
                .keyStoreUnrecognized,
                "'\(path)' is not a swift-passkeys key store; point the key store path at another file."
            )
        }
        guard let version = object["version"] as? Int, version == currentVersion else {
            throw PasskeyError(
                .keyStoreUnrecognized,
                "'\(path)' is a key store of format version \(object["version"] ?? "?"); this SDK reads version \(currentVersion). Update the SDK."
            )
        }
        let file: KeyStoreFile
        do {
            file = try JSONDecoder().decode(KeyStoreFile.self, from: Data(bytes))
        } catch {
            throw PasskeyError(
                .keyStoreCorrupt,
                "'\(path)' is a damaged key store: its header is incomplete or invalid.",
                cause: error
            )
        }
        if file.kdf.name == "scrypt" {
            guard let scrypt = file.kdf.scrypt, scrypt.isWithinBounds else {
                throw PasskeyError(
                    .keyStoreCorrupt,
                    "'\(path)' names scrypt parameters outside the accepted bounds; it is damaged or crafted."
                )
            }
        } else if file.kdf.name != "none" {
            throw PasskeyError(
                .keyStoreUnrecognized,
                "'\(path)' uses the key derivation '\(file.kdf.name)', which this SDK does not know."
            )
        }
        guard file.salt.bytes.count >= 16, file.keyCheck.bytes.count == 32, file.nonce.bytes.count == 12,
            file.ciphertext.bytes.count >= 16
        else {
            throw PasskeyError(
                .keyStoreCorrupt,
                "'\(path)' is a damaged key store: a header member has the wrong length."
            )
        }
        return file
    }

    /// Decrypts the entries with `keys`, telling a wrong passphrase from tampering.
    func open(keys: KeyStoreKeys, path: String) throws(PasskeyError) -> [KeyStoreEntry] {
        guard Self.constantTimeEqual(keys.keyCheck, keyCheck.bytes) else {
            throw PasskeyError(
                .keyStoreWrongPassphrase,
                "The passphrase (or key) does not open '\(path)' (or the file's key derivation header was changed). Use the one it was created with; without it the passkeys in it cannot be recovered."
            )
        }
        let sealed = ciphertext.bytes
        let plaintext: Data
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: nonce.bytes),
                ciphertext: sealed.dropLast(16),
                tag: sealed.suffix(16)
            )
            plaintext = try AES.GCM.open(box, using: keys.encryptionKey, authenticating: additionalData)
        } catch {
            throw PasskeyError(
                .keyStoreCorrupt,
                "'\(path)' was modified or damaged: it fails authentication with the right key. Restore it from a backup.",
                cause: error
            )
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        do {
            return try decoder.decode(Plaintext.self, from: plaintext).entries
        } catch {
            throw PasskeyError(.keyStoreCorrupt, "'\(path)' decrypts, but its entries are invalid.", cause: error)
        }
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
