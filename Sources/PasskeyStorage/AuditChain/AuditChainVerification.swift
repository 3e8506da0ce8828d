public import Foundation

/// A walk along an audit log's hash chain and its checkpoints, event by event, that stops at the first problem.
///
/// Give it the checkpoints (their signatures are checked first), then every event in order of sequence number
/// (``check(_:)``), then call ``finish()``. Events written before the chain existed (without a hash) may only come
/// first. The first chained event is taken as it is: it is the genesis (it follows ``AuditChain/genesis``), or the
/// oldest event purging kept, whose own hash the following events and the next checkpoint vouch for. From there each
/// event must be the next sequence number, follow the previous event's hash and match its own; a checkpoint must sign
/// the hash the chain has at its event; the newest checkpoint must not be past the chain's last event.
///
/// When an event fails, the walk looks one event further to tell an altered event from an inserted or moved one.
public struct AuditChainVerification: Sendable {
    /// How far from its place an event is looked for when it does not match there.
    static let searchDistance: Int64 = 16

    private let checkpoints: [AuditCheckpoint]
    private var nextCheckpoint = 0
    private var report = AuditChainReport()
    /// The last event that matched.
    private var previous: AuditEvent?
    /// The first event that did not match, waiting for the next to say why.
    private var suspect: AuditEvent?

    /// Checks the checkpoints' signatures (against their own public keys, and when `trustedKeys` is given, only
    /// those keys may have signed) and starts a walk.
    public init(checkpoints: [AuditCheckpoint], trustedKeys: [[UInt8]]?) throws(AuditChainProblem) {
        let checkpoints = checkpoints.sorted { $0.sequence < $1.sequence }
        for checkpoint in checkpoints {
            guard checkpoint.hasValidSignature else {
                throw AuditChainProblem(
                    .badSignature,
                    at: checkpoint.sequence,
                    "the checkpoint of event \(checkpoint.sequence) has a signature its key did not make"
                )
            }
            if let trustedKeys, !trustedKeys.contains(checkpoint.publicKey) {
                throw AuditChainProblem(
                    .untrustedKey,
                    at: checkpoint.sequence,
                    "the checkpoint of event \(checkpoint.sequence) was signed by a key that is not trusted"
                )
            }
        }
        self.checkpoints = checkpoints
        report.checkpoints = checkpoints.count
        report.lastCheckpoint = checkpoints.last
    }

    /// Checks the next event, in order of sequence number.
    public mutating func check(_ event: AuditEvent) throws(AuditChainProblem) {
        if let suspect { throw diagnose(suspect, next: event) }
        guard let previous else { return try start(event) }
        guard event.hash != nil else {
            throw AuditChainProblem(.inserted, at: event.sequence, "event \(event.sequence) has no hash in the chain")
        }
        guard event.sequence == previous.sequence + 1 else {
            throw Self.removed(from: previous.sequence + 1, to: event.sequence - 1)
        }
        guard matches(event), event.previousHash == previous.hash else {
            suspect = event
            return
        }
        try accept(event)
    }

    /// Ends the walk: the checks that need the whole chain, and what was verified.
    public mutating func finish() throws(AuditChainProblem) -> AuditChainReport {
        if let suspect { throw diagnose(suspect, next: nil) }
        if let last = checkpoints.last {
            let head = previous?.sequence ?? last.sequence
            if last.sequence > head {
                throw AuditChainProblem(
                    .truncated,
                    at: head + 1,
                    "the chain ends at event \(head), but a checkpoint signs event \(last.sequence)"
                )
            }
        } else if previous != nil {
            throw AuditChainProblem(
                .noCheckpoint,
                at: report.firstSequence ?? 0,
                "the chain has \(report.chainedEvents) events and no signed checkpoint"
            )
        }
        if let previous, let hash = previous.hash {
            report.head = AuditChainHead(sequence: previous.sequence, hash: hash)
            report.unsignedEvents = Int(previous.sequence - (checkpoints.last?.sequence ?? previous.sequence))
        }
        return report
    }

    // MARK: The walk

    private mutating func start(_ event: AuditEvent) throws(AuditChainProblem) {
        guard event.hash != nil else {
            report.legacyEvents += 1
            return
        }
        report.firstSequence = event.sequence
        report.firstTime = event.time
        report.startsAtGenesis = event.previousHash == AuditChain.genesis
        guard matches(event) else {
            throw AuditChainProblem(.altered, at: event.sequence, "event \(event.sequence) does not match its hash")
        }
        // Checkpoints of events before the first one: purged with them, unless the chain starts here.
        while nextCheckpoint < checkpoints.count, checkpoints[nextCheckpoint].sequence < event.sequence {
            let checkpoint = checkpoints[nextCheckpoint]
            if report.startsAtGenesis {
                throw AuditChainProblem(
                    .checkpointMismatch,
                    at: checkpoint.sequence,
                    "a checkpoint signs event \(checkpoint.sequence), before the chain's first event \(event.sequence)"
                )
            }
            if checkpoint.sequence == event.sequence - 1, checkpoint.hash != event.previousHash {
                throw AuditChainProblem(
                    .altered,
                    at: event.sequence,
                    "event \(event.sequence) does not follow the checkpoint of the event before it"
                )
            }
            nextCheckpoint += 1
        }
        try accept(event)
    }

    private mutating func accept(_ event: AuditEvent) throws(AuditChainProblem) {
        while nextCheckpoint < checkpoints.count, checkpoints[nextCheckpoint].sequence <= event.sequence {
            let checkpoint = checkpoints[nextCheckpoint]
            guard checkpoint.sequence == event.sequence, checkpoint.hash == event.hash else {
                throw AuditChainProblem(
                    .checkpointMismatch,
                    at: checkpoint.sequence,
                    "the checkpoint of event \(checkpoint.sequence) signs another hash than the chain has there"
                )
            }
            report.verifiedCheckpoints += 1
            nextCheckpoint += 1
        }
        report.chainedEvents += 1
        previous = event
    }

    /// Whether `event` matches its hash, as it is, after its own previous hash.
    private func matches(_ event: AuditEvent) -> Bool {
        guard let hash = event.hash, let previousHash = event.previousHash else { return false }
        return AuditChain.hash(of: event, after: previousHash) == hash
    }

    /// The sequence number `event` was written with, when it matches its hash at its own or a nearby one.
    private func writtenSequence(of event: AuditEvent) -> Int64? {
        if matches(event) { return event.sequence }
        for distance in 1...Self.searchDistance {
            for sequence in [event.sequence - distance, event.sequence + distance] where sequence > 0 {
                var moved = event
                moved.sequence = sequence
                if matches(moved) { return sequence }
            }
        }
        return nil
    }

    /// Why `event`, which follows the last event that matched, does not: looking at the event after it, `next`.
    private func diagnose(_ event: AuditEvent, next: AuditEvent?) -> AuditChainProblem {
        let sequence = event.sequence
        let previousSequence = previous?.sequence ?? (sequence - 1)
        if matches(event) {
            // Intact, but it follows another event than the one before it: that one was replaced.
            return AuditChainProblem(
                .altered,
                at: previousSequence,
                "event \(sequence) does not follow event \(previousSequence): that one was replaced"
            )
        }
        let nextWritten = next.flatMap { $0.sequence == sequence + 1 ? writtenSequence(of: $0) : nil }
        guard let written = writtenSequence(of: event) else {
            if nextWritten == sequence, next?.previousHash == previous?.hash {
                return AuditChainProblem(
                    .inserted,
                    at: sequence,
                    "event \(sequence) was not in the chain: the events from there on were pushed along"
                )
            }
            return AuditChainProblem(.altered, at: sequence, "event \(sequence) does not match its hash")
        }
        if written > sequence {
            if let nextWritten, nextWritten < written {
                return AuditChainProblem(
                    .reordered,
                    at: sequence,
                    "event \(sequence) was written as event \(written): events were moved"
                )
            }
            return Self.removed(from: sequence, to: written - 1, renumbered: true)
        }
        return AuditChainProblem(
            .inserted,
            at: written,
            "event \(sequence) was written as event \(written): events were inserted before it"
        )
    }

    private static func removed(from first: Int64, to last: Int64, renumbered: Bool = false) -> AuditChainProblem {
        let events = first == last ? "event \(first) is" : "events \(first) to \(last) are"
        return AuditChainProblem(
            .removed,
            at: first,
            renumbered ? "\(events) missing, and the events after renumbered" : "\(events) missing"
        )
    }
}

/// What an ``AuditChainVerification`` found in order.
public struct AuditChainReport: Sendable, Hashable {
    /// Events in the chain, each checked.
    public var chainedEvents = 0
    /// Events written before the chain existed: not covered by it.
    public var legacyEvents = 0
    /// The first chained event, and when it was recorded.
    public var firstSequence: Int64?
    public var firstTime: Date?
    /// Whether the first chained event is the chain's genesis (else purging removed those before it).
    public var startsAtGenesis = false
    /// The last chained event.
    public var head: AuditChainHead?
    /// Checkpoints kept, and those whose event is still in the log and matched it.
    public var checkpoints = 0
    public var verifiedCheckpoints = 0
    public var lastCheckpoint: AuditCheckpoint?
    /// Events after the newest checkpoint: consistent, but not yet signed.
    public var unsignedEvents = 0

    public init() {}
}
