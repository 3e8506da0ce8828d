/// The first thing wrong with an audit log's hash chain or its checkpoints, found by ``AuditChainVerification``: what
/// (a stable code), where (the event's sequence number, or the checkpoint's) and in words.
public struct AuditChainProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public let code: Code
    /// The sequence number of the first event concerned (for a checkpoint, the event it signs).
    public let sequence: Int64
    public let reason: String

    public init(_ code: Code, at sequence: Int64, _ reason: String) {
        self.code = code
        self.sequence = sequence
        self.reason = reason
    }

    public var description: String { "\(code.rawValue) at \(sequence): \(reason)" }

    public struct Code: RawRepresentable, Sendable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The event does not match its hash: its content, sequence number or hash was changed.
        public static let altered = Self(rawValue: "ALTERED")
        /// Events are missing: a gap in the sequence numbers, or events renumbered to close one.
        public static let removed = Self(rawValue: "REMOVED")
        /// An event the server did not chain there: one without a hash, or one that pushed the others along.
        public static let inserted = Self(rawValue: "INSERTED")
        /// Events were moved: one written later in the chain comes before one written earlier.
        public static let reordered = Self(rawValue: "REORDERED")
        /// The chain ends before the newest checkpoint: events it signed were removed from the end.
        public static let truncated = Self(rawValue: "TRUNCATED")
        /// A checkpoint signs another hash than the chain has at its event: the chain was rewritten up to there.
        public static let checkpointMismatch = Self(rawValue: "CHECKPOINT_MISMATCH")
        /// A checkpoint's signature does not verify with its public key.
        public static let badSignature = Self(rawValue: "CHECKPOINT_SIGNATURE_INVALID")
        /// A checkpoint was signed by a key that is not one of the keys the verifier was told to trust.
        public static let untrustedKey = Self(rawValue: "CHECKPOINT_KEY_UNTRUSTED")
        /// The log has chained events but no checkpoint: nothing in it is signed.
        public static let noCheckpoint = Self(rawValue: "NO_CHECKPOINT")
    }
}
