import Crypto
public import Foundation

/// The hash chain that makes the audit log tamper-evident: every event carries the SHA-256 of its canonical encoding
/// followed by the hash of the event before it, so changing, removing, inserting or moving an event breaks the chain
/// from there on. Defined once, here; every adapter links events with ``link(_:after:)`` inside its serialised append.
///
/// The encoding, version 1 (integers big-endian, each text its UTF-8 bytes after a 4-byte length):
///
/// ```
/// 0x01                                   version
/// sequence                               8 bytes
/// time                                   8 bytes, whole milliseconds since 1970 (see `milliseconds(_:)`)
/// actor, action                          length-prefixed
/// userID, subject, requestID             0x00 when absent, or 0x01 then length-prefixed
/// number of details                      4 bytes
/// each detail, by key (in byte order)    key then value, both length-prefixed
/// ```
///
/// `hash = SHA-256(encoding || previousHash)`. The first event of a chain (its genesis) follows 32 zero bytes.
/// Events written before the chain existed (before schema version 14) have no hash: they stay as they were, and the chain
/// starts at the first event appended after the migration.
public enum AuditChain {
    /// The version byte that starts every encoding.
    public static let version: UInt8 = 1
    /// The hash the genesis event follows.
    public static let genesis = [UInt8](repeating: 0, count: 32)

    /// `event` as the next event of the chain whose last event is `head` (the genesis when nil): its sequence number,
    /// its time in whole milliseconds (what the store keeps), the previous hash and its own.
    public static func link(_ event: AuditEvent, after head: AuditChainHead?) -> AuditEvent {
        let previous = head?.hash ?? genesis
        var linked = event
        linked.sequence = (head?.sequence ?? 0) + 1
        linked.time = storedTime(event.time)
        linked.previousHash = previous
        linked.hash = hash(of: linked, after: previous)
        return linked
    }

    /// SHA-256 of the canonical encoding of `event` (as it is, sequence number included) followed by `previous`.
    public static func hash(of event: AuditEvent, after previous: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: encoding(of: event))
        hasher.update(data: previous)
        return Array(hasher.finalize())
    }

    /// The canonical encoding of `event`; its `hash` and `previousHash` are not part of it.
    public static func encoding(of event: AuditEvent) -> [UInt8] {
        var bytes: [UInt8] = [version]
        bytes.appendInteger(UInt64(bitPattern: event.sequence))
        bytes.appendInteger(UInt64(bitPattern: milliseconds(event.time)))
        bytes.appendText(event.actor)
        bytes.appendText(event.action)
        for optional in [event.userID, event.subject, event.requestID] {
            if let text = optional {
                bytes.append(1)
                bytes.appendText(text)
            } else {
                bytes.append(0)
            }
        }
        let details = event.details.map { (key: Array($0.key.utf8), value: Array($0.value.utf8)) }
            .sorted { $0.key.lexicographicallyPrecedes($1.key) }
        bytes.appendInteger(UInt32(truncatingIfNeeded: details.count))
        for detail in details {
            bytes.appendBytes(detail.key)
            bytes.appendBytes(detail.value)
        }
        return bytes
    }

    /// `time` in whole milliseconds since 1970, rounded to the nearest. Both SQL adapters keep times finer than that
    /// (SQLite as a double of seconds, PostgreSQL as a `timestamptz` of microseconds), and a time that went there and
    /// back, through a `Date`'s double, is off by far less than half a millisecond in any year: so the time read
    /// back always gives the milliseconds that were hashed.
    public static func milliseconds(_ time: Date) -> Int64 {
        Int64((time.timeIntervalSince1970 * 1000).rounded())
    }

    /// `time` cut to whole milliseconds: what an adapter stores and hashes.
    public static func storedTime(_ time: Date) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds(time)) / 1000)
    }
}

/// The last event of a hash chain: its sequence number and hash, which the next event follows.
public struct AuditChainHead: Sendable, Hashable {
    public var sequence: Int64
    public var hash: [UInt8]

    public init(sequence: Int64, hash: [UInt8]) {
        self.sequence = sequence
        self.hash = hash
    }
}

extension [UInt8] {
    mutating func appendInteger(_ value: some FixedWidthInteger) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    mutating func appendBytes(_ bytes: [UInt8]) {
        appendInteger(UInt32(truncatingIfNeeded: bytes.count))
        append(contentsOf: bytes)
    }

    mutating func appendText(_ text: String) {
        appendBytes(Array(text.utf8))
    }
}

/// What an adapter reads of its audit log, while no other append runs, to link the next event or sign a checkpoint.
public struct AuditChainTail: Sendable, Hashable {
    /// The last event's sequence number and hash (nil for an event written before the chain existed).
    public var lastSequence: Int64?
    public var lastHash: [UInt8]?
    /// The newest checkpoint.
    public var newestCheckpoint: AuditChainHead?
    /// The highest sequence number the table has ever given (SQLite's `AUTOINCREMENT` counter, PostgreSQL's
    /// sequence; 0 when none), which purges from before the chain may have left above every row.
    public var counter: Int64

    public init(
        lastSequence: Int64? = nil,
        lastHash: [UInt8]? = nil,
        newestCheckpoint: AuditChainHead? = nil,
        counter: Int64 = 0
    ) {
        self.lastSequence = lastSequence
        self.lastHash = lastHash
        self.newestCheckpoint = newestCheckpoint
        self.counter = counter
    }

    /// The head the next event follows: the last event, else the newest checkpoint (purging deleted every event up
    /// to it). After events written before the chain existed, or none, the next event starts the chain (it follows
    /// the genesis), with a sequence number after every one given before, so no cursor sees a number twice.
    public var appendHead: AuditChainHead? {
        if let lastSequence, lastSequence >= newestCheckpoint?.sequence ?? .min {
            guard let lastHash else {
                return AuditChainHead(sequence: max(lastSequence, counter), hash: AuditChain.genesis)
            }
            return AuditChainHead(sequence: lastSequence, hash: lastHash)
        }
        if let newestCheckpoint { return newestCheckpoint }
        return counter > 0 ? AuditChainHead(sequence: counter, hash: AuditChain.genesis) : nil
    }

    /// The head a checkpoint signs (``AuditStore/auditChainHead()``): the last event when it is chained, the newest
    /// checkpoint when no event is left, and nil while the chain has not started.
    public var signableHead: AuditChainHead? {
        guard let lastSequence, lastSequence >= newestCheckpoint?.sequence ?? .min else { return newestCheckpoint }
        return lastHash.map { AuditChainHead(sequence: lastSequence, hash: $0) }
    }
}
