import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The Ed25519 key that signs the audit log's checkpoints (see ``AuditCheckpoints``), kept out of the database: in
/// the file `audit.checkpointKeyFile` names (base64 of the 32-byte private key, one line, readable by its owner
/// only), made there on first use; or, when no file is named, made for this run.
public struct AuditCheckpointKey: Sendable {
    let privateKey: Curve25519.Signing.PrivateKey
    /// The file it is kept in, when it is kept.
    public let file: String?

    /// The public key that verifies its checkpoints, 32 bytes.
    public var publicKey: [UInt8] { Array(privateKey.publicKey.rawRepresentation) }

    static let field = "audit.checkpointKeyFile"

    /// The key `configuration` names: read from its file, or made and saved there when the file does not exist;
    /// without a file, a new key for this run.
    public static func load(for configuration: ServerConfiguration) throws(ConfigurationError) -> AuditCheckpointKey {
        guard let file = configuration.audit.checkpointKeyFile else {
            return AuditCheckpointKey(privateKey: Curve25519.Signing.PrivateKey(), file: nil)
        }
        if let key = try read(file) { return key }
        try create(file)
        guard let key = try read(file) else {
            throw ConfigurationError(field: field, "names \(file), which could not be read after it was made")
        }
        return key
    }

    /// The key in `file`, or nil when there is no such file. A file that others may read, or that holds no key of
    /// ours, is refused.
    private static func read(_ file: String) throws(ConfigurationError) -> AuditCheckpointKey? {
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        let permissions: Int
        do {
            permissions = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int ?? 0o777
        } catch {
            throw ConfigurationError(field: field, "names \(file), which cannot be read: \(error.localizedDescription)")
        }
        guard permissions & 0o077 == 0 else {
            throw ConfigurationError(
                field: field,
                "names \(file), which other users may read or write: make it readable by its owner only (chmod 600)"
            )
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ConfigurationError(field: field, "names \(file), which cannot be read")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let raw = Data(base64Encoded: text), let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)
        else {
            throw ConfigurationError(
                field: field,
                "names \(file), which holds no checkpoint key (base64 of 32 bytes): restore the right file"
            )
        }
        return AuditCheckpointKey(privateKey: key, file: file)
    }

    /// Writes a new key to `file`, readable by its owner only, unless another process made the file first: the key
    /// goes to a temporary file, which is then linked to `file` (which fails when `file` exists).
    private static func create(_ file: String) throws(ConfigurationError) {
        let key = Curve25519.Signing.PrivateKey()
        let temporary = "\(file).\(UUID().uuidString).tmp"
        let contents = Data((key.rawRepresentation.base64EncodedString() + "\n").utf8)
        guard
            FileManager.default.createFile(
                atPath: temporary,
                contents: contents,
                attributes: [.posixPermissions: 0o600]
            )
        else {
            throw ConfigurationError(field: field, "names \(file), where no key could be saved")
        }
        defer { unlink(temporary) }
        guard link(temporary, file) == 0 || errno == EEXIST else {
            throw ConfigurationError(field: field, "names \(file), where no key could be saved (errno \(errno))")
        }
    }
}
