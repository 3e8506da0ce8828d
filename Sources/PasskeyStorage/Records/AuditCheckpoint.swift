public import Foundation

/// A signed statement that the audit log's hash chain had `hash` at event `sequence` at `time`: the server writes one
/// at intervals, with a key that is not in the database, so that rewriting the chain up to a checkpoint takes that key
/// (see ``AuditChain``). Kept in the store beside the events; purging keeps the newest one at or before the oldest
/// kept event, so that the chain stays verifiable from there.
public struct AuditCheckpoint: Sendable, Hashable, Codable {
    /// The sequence number of the chain's last event when it was signed.
    public var sequence: Int64
    /// That event's chain hash.
    public var hash: [UInt8]
    /// When it was signed, in whole milliseconds.
    public var time: Date
    /// The Ed25519 public key that signed it (32 bytes).
    public var publicKey: [UInt8]
    /// The Ed25519 signature of ``AuditChain/checkpointMessage(sequence:hash:time:)``.
    public var signature: [UInt8]

    public init(sequence: Int64, hash: [UInt8], time: Date, publicKey: [UInt8], signature: [UInt8]) {
        self.sequence = sequence
        self.hash = hash
        self.time = time
        self.publicKey = publicKey
        self.signature = signature
    }
}
