import Crypto
import Foundation
import PasskeyStorage

extension StoreConformance {
    static let auditChain: [StoreConformanceCheck] = [
        StoreConformanceCheck("appended events are chained, stored as returned, and the chain verifies") { store in
            var appended: [AuditEvent] = []
            for index in 0..<6 {
                appended.append(
                    try await store.appendAuditEvent(
                        AuditEvent(
                            // Below a millisecond: the store keeps, and hashes, whole milliseconds.
                            time: Fixture.now + Double(index) * 1.000_000_3 + 0.123_456_789,
                            actor: "api-key:chain",
                            action: "credential.renamed",
                            userID: index == 2 ? nil : Fixture.id("user"),
                            subject: index == 3 ? nil : "cred-\(index)",
                            requestID: index == 4 ? nil : "req-\(index)",
                            details: index == 5 ? [:] : ["name": "Ünïcødé \(index) \"✓\"", "aaguid": "\(index)"]
                        )
                    )
                )
            }
            for event in appended {
                try require(
                    event.hash == AuditChain.hash(of: event, after: event.previousHash ?? []),
                    "event \(event.sequence) was returned with a hash that does not match it"
                )
                try require(
                    AuditChain.storedTime(event.time) == event.time,
                    "event \(event.sequence) was returned with a time finer than milliseconds"
                )
            }
            let stored = try await store.auditEvents(after: appended[0].sequence - 1, limit: 1000, userID: nil)
            for event in appended {
                try require(
                    stored.first { $0.sequence == event.sequence } == event,
                    "event \(event.sequence) was stored otherwise than returned"
                )
            }
            for (previous, next) in zip(stored, stored.dropFirst()) {
                try require(
                    next.sequence == previous.sequence + 1 && next.previousHash == previous.hash,
                    "event \(next.sequence) does not follow event \(previous.sequence)"
                )
            }
            try await checkpoint(store)
            _ = try await AuditChainVerification.verify(store, trustedKeys: nil, pageSize: 7)
        },
        StoreConformanceCheck("a checkpoint per sequence number, listed in order; the head is the last event") {
            store in
            let event = try await store.appendAuditEvent(AuditEvent(time: Fixture.now, actor: "system", action: "x"))
            let head = try await store.auditChainHead()
            try require(
                (head?.sequence ?? 0) >= event.sequence,
                "the head \(String(describing: head)) is before the event just appended, \(event.sequence)"
            )
            let key = Curve25519.Signing.PrivateKey()
            let first = try AuditChain.checkpoint(of: event.head, at: Fixture.now, signedWith: key)
            try require(try await store.appendAuditCheckpoint(first), "a new checkpoint must be kept")
            let again = try AuditChain.checkpoint(of: event.head, at: Fixture.now + 1, signedWith: key)
            try require(!(try await store.appendAuditCheckpoint(again)), "a second checkpoint of one event was kept")
            let listed = try await store.auditCheckpoints(after: event.sequence - 1, limit: 100)
            try require(listed.first == first, "the checkpoint was stored otherwise than given: \(listed)")
            try require(
                zip(listed, listed.dropFirst()).allSatisfy { $0.sequence < $1.sequence },
                "checkpoints must be listed in order of sequence"
            )
            try require(first.hasValidSignature, "the stored checkpoint's signature must verify")
        },
    ]

    static let auditChainPurge: [StoreConformanceCheck] = [
        StoreConformanceCheck("purging audit events keeps the chain verifiable from the oldest kept checkpoint") {
            store in
            let key = Curve25519.Signing.PrivateKey()
            let old = Fixture.now - 86_400
            var events: [AuditEvent] = []
            for index in 0..<9 {
                events.append(
                    try await store.appendAuditEvent(
                        AuditEvent(time: old + Double(index), actor: "system", action: "a")
                    )
                )
                if index == 2 || index == 5 {
                    try await store.appendAuditCheckpoint(
                        try AuditChain.checkpoint(of: events[index].head, at: old + 10, signedWith: key)
                    )
                }
            }
            let young = try await store.appendAuditEvent(AuditEvent(time: Fixture.now, actor: "system", action: "b"))
            try await store.appendAuditCheckpoint(
                try AuditChain.checkpoint(of: young.head, at: Fixture.now, signedWith: key)
            )
            // Up to the newest checkpoint before the retention (event 5), two at a time, verifiable after each call.
            var purged = 0
            for _ in 0..<4 {
                purged += try await store.purge(before: old, auditBefore: Fixture.now - 60, limit: 2).auditEvents
                _ = try await AuditChainVerification.verify(
                    store,
                    trustedKeys: [Array(key.publicKey.rawRepresentation)]
                )
            }
            try require(purged == 6, "the events up to the checkpoint must go, and no more: \(purged)")
            let left = try await store.auditEvents(after: 0, limit: 100, userID: nil)
            try require(
                left.map(\.sequence) == events.dropFirst(6).map(\.sequence) + [young.sequence],
                "the events left are wrong: \(left.map(\.sequence))"
            )
            let checkpoints = try await store.auditCheckpoints(after: 0, limit: 100)
            try require(
                checkpoints.map(\.sequence) == [events[5].sequence, young.sequence],
                "the checkpoint before the oldest kept event must stay, the older go: \(checkpoints.map(\.sequence))"
            )
            // Everything up to the last checkpoint: the next event follows that checkpoint.
            _ = try await store.purge(before: old, auditBefore: Fixture.now + 60, limit: 100)
            try require(
                try await store.auditEvents(after: 0, limit: 100, userID: nil).isEmpty,
                "every event up to the last checkpoint must go"
            )
            let next = try await store.appendAuditEvent(AuditEvent(time: Fixture.now, actor: "system", action: "c"))
            try require(
                next.sequence == young.sequence + 1 && next.previousHash == young.hash,
                "after a purge the next event must follow the newest checkpoint"
            )
            try await store.appendAuditCheckpoint(
                try AuditChain.checkpoint(of: next.head, at: Fixture.now + 1, signedWith: key)
            )
            let report = try await AuditChainVerification.verify(store, trustedKeys: nil)
            try require(report.chainedEvents == 1 && report.verifiedCheckpoints == 1, "report: \(report)")
        }
    ]

    /// Signs the chain's head with a new key and keeps the checkpoint.
    private static func checkpoint(_ store: any PasskeyStore) async throws {
        guard let head = try await store.auditChainHead() else {
            throw StoreConformanceFailure(description: "a chain with events must have a head")
        }
        let checkpoint = try AuditChain.checkpoint(of: head, at: Fixture.now, signedWith: .init())
        try await store.appendAuditCheckpoint(checkpoint)
    }
}

extension AuditEvent {
    /// The head of a chain that ends with this event.
    var head: AuditChainHead { AuditChainHead(sequence: sequence, hash: hash ?? []) }
}
