public import Crypto
public import Foundation

extension AuditChain {
    /// What a checkpoint's key signs: a label that no other signature of ours starts with, the version byte, the
    /// sequence number (8 bytes), the time (8 bytes, milliseconds since 1970) and the hash (after its 4-byte length).
    public static func checkpointMessage(sequence: Int64, hash: [UInt8], time: Date) -> [UInt8] {
        var bytes = Array("swift-passkeys audit checkpoint".utf8)
        bytes.append(version)
        bytes.appendInteger(UInt64(bitPattern: sequence))
        bytes.appendInteger(UInt64(bitPattern: milliseconds(time)))
        bytes.appendBytes(hash)
        return bytes
    }

    /// A checkpoint of `head` at `time`, signed with `key`.
    public static func checkpoint(
        of head: AuditChainHead,
        at time: Date,
        signedWith key: Curve25519.Signing.PrivateKey
    ) throws -> AuditCheckpoint {
        let time = storedTime(time)
        let signature = try key.signature(for: checkpointMessage(sequence: head.sequence, hash: head.hash, time: time))
        return AuditCheckpoint(
            sequence: head.sequence,
            hash: head.hash,
            time: time,
            publicKey: Array(key.publicKey.rawRepresentation),
            signature: Array(signature)
        )
    }
}

extension AuditCheckpoint {
    /// The chain head it signs.
    public var head: AuditChainHead { AuditChainHead(sequence: sequence, hash: hash) }

    /// Whether ``signature`` is ``publicKey``'s signature of this checkpoint.
    public var hasValidSignature: Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
        return key.isValidSignature(
            signature,
            for: AuditChain.checkpointMessage(sequence: sequence, hash: hash, time: time)
        )
    }
}
