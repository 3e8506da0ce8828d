import Crypto
import Foundation
import PasskeyStorage
import Testing

@Suite("Verifying the audit chain")
struct AuditChainVerificationTests {
    let key = Curve25519.Signing.PrivateKey()

    /// Eight chained events, 1 to 8, and a checkpoint of the last.
    func chain(count: Int = 8, after head: AuditChainHead? = nil) -> [AuditEvent] {
        var events: [AuditEvent] = []
        var head = head
        for index in 0..<count {
            let event = AuditChain.link(
                AuditEvent(
                    time: Date(timeIntervalSince1970: 1_764_000_000 + Double(index)),
                    actor: "api-key:ops",
                    action: "credential.renamed",
                    userID: "user-\(index)",
                    details: ["name": "Key \(index)"]
                ),
                after: head
            )
            head = AuditChainHead(sequence: event.sequence, hash: event.hash!)
            events.append(event)
        }
        return events
    }

    func checkpoint(
        of event: AuditEvent,
        signedWith key: Curve25519.Signing.PrivateKey? = nil
    ) throws -> AuditCheckpoint {
        try AuditChain.checkpoint(
            of: AuditChainHead(sequence: event.sequence, hash: event.hash!),
            at: event.time + 1,
            signedWith: key ?? self.key
        )
    }

    func verify(
        _ events: [AuditEvent],
        _ checkpoints: [AuditCheckpoint],
        trusted: [[UInt8]]? = nil
    ) throws(AuditChainProblem) -> AuditChainReport {
        var verification = try AuditChainVerification(checkpoints: checkpoints, trustedKeys: trusted)
        for event in events { try verification.check(event) }
        return try verification.finish()
    }

    func problem(
        _ events: [AuditEvent],
        _ checkpoints: [AuditCheckpoint],
        trusted: [[UInt8]]? = nil
    ) -> AuditChainProblem? {
        do {
            _ = try verify(events, checkpoints, trusted: trusted)
            return nil
        } catch {
            return error
        }
    }

    @Test("an untouched chain verifies, with what it covers")
    func untouched() throws {
        let events = chain()
        let report = try verify(
            events,
            [try checkpoint(of: events[5])],
            trusted: [Array(key.publicKey.rawRepresentation)]
        )
        #expect(report.chainedEvents == 8)
        #expect(report.startsAtGenesis)
        #expect(report.head?.sequence == 8)
        #expect(report.verifiedCheckpoints == 1)
        #expect(report.unsignedEvents == 2)
    }

    @Test("an altered event is found at its sequence number")
    func altered() throws {
        var events = chain()
        events[3].details["name"] = "Mallory"
        let found = problem(events, [try checkpoint(of: events[7])])
        #expect(found?.code == .altered && found?.sequence == 4, "\(String(describing: found))")
    }

    @Test("a removed event is a gap at its sequence number")
    func removed() throws {
        var events = chain()
        let last = try checkpoint(of: events[7])
        events.remove(at: 3)
        let found = problem(events, [last])
        #expect(found?.code == .removed && found?.sequence == 4, "\(String(describing: found))")
    }

    @Test("a removed event whose followers were renumbered to close the gap is found")
    func removedAndRenumbered() throws {
        var events = chain()
        let last = try checkpoint(of: events[7])
        events.remove(at: 3)
        for index in 3..<events.count { events[index].sequence -= 1 }
        let found = problem(events, [last])
        #expect(found?.code == .removed && found?.sequence == 4, "\(String(describing: found))")
    }

    @Test("an event inserted before others, which were pushed along, is found where it went")
    func inserted() throws {
        var events = chain()
        let last = try checkpoint(of: events[7])
        for index in 3..<events.count { events[index].sequence += 1 }
        var forged = events[2]
        forged.sequence = 4
        forged.action = "user.deleted"
        events.insert(forged, at: 3)
        let found = problem(events, [last])
        #expect(found?.code == .inserted && found?.sequence == 4, "\(String(describing: found))")
    }

    @Test("an event without a hash after the chain started counts as inserted")
    func unchained() throws {
        var events = chain()
        let last = try checkpoint(of: events[7])
        events.append(AuditEvent(sequence: 9, time: .now, actor: "system", action: "forged"))
        let found = problem(events, [last])
        #expect(found?.code == .inserted && found?.sequence == 9, "\(String(describing: found))")
    }

    @Test("two events that swapped places are found as reordered")
    func reordered() throws {
        var events = chain()
        let last = try checkpoint(of: events[7])
        events.swapAt(3, 4)
        events[3].sequence = 4
        events[4].sequence = 5
        let found = problem(events, [last])
        #expect(found?.code == .reordered && found?.sequence == 4, "\(String(describing: found))")
    }

    @Test("an event replaced by one that matches its own hash is found by the event after it")
    func replaced() throws {
        var events = chain()
        let last = try checkpoint(of: events[7])
        var forged = events[3]
        forged.action = "user.deleted"
        events[3] = AuditChain.link(forged, after: AuditChainHead(sequence: 3, hash: events[2].hash!))
        let found = problem(events, [last])
        #expect(found?.code == .altered && found?.sequence == 4, "\(String(describing: found))")
    }

    @Test("events removed from the end, past the newest checkpoint, are a truncation")
    func truncated() throws {
        let events = chain()
        let found = problem(Array(events.prefix(6)), [try checkpoint(of: events[7])])
        #expect(found?.code == .truncated && found?.sequence == 7, "\(String(describing: found))")
    }

    @Test("a chain rewritten consistently up to a checkpoint no longer matches it")
    func rewritten() throws {
        let events = chain()
        let last = try checkpoint(of: events[7])
        var rewritten = Array(events.prefix(3))
        var head = AuditChainHead(sequence: 3, hash: events[2].hash!)
        for var event in events.dropFirst(3) {
            if event.sequence == 4 { event.details["name"] = "Mallory" }
            event = AuditChain.link(event, after: head)
            head = AuditChainHead(sequence: event.sequence, hash: event.hash!)
            rewritten.append(event)
        }
        let found = problem(rewritten, [last])
        #expect(found?.code == .checkpointMismatch && found?.sequence == 8, "\(String(describing: found))")
        // With a key of their own they can sign it again: only pinning the server's key tells.
        let resigned = try checkpoint(of: rewritten[7], signedWith: Curve25519.Signing.PrivateKey())
        #expect(problem(rewritten, [resigned]) == nil)
        let pinned = problem(rewritten, [resigned], trusted: [Array(key.publicKey.rawRepresentation)])
        #expect(pinned?.code == .untrustedKey, "\(String(describing: pinned))")
    }

    @Test("a checkpoint whose signature does not verify is refused")
    func badSignature() throws {
        let events = chain()
        var forged = try checkpoint(of: events[7])
        forged.time += 60
        let found = problem(events, [forged])
        #expect(found?.code == .badSignature && found?.sequence == 8, "\(String(describing: found))")
    }

    @Test("chained events without any checkpoint prove nothing; an empty log is fine")
    func noCheckpoint() throws {
        let found = problem(chain(), [])
        #expect(found?.code == .noCheckpoint, "\(String(describing: found))")
        #expect(try verify([], []).chainedEvents == 0)
    }

    @Test("events from before the chain may only come first")
    func legacy() throws {
        let legacy = (1...3).map { AuditEvent(sequence: Int64($0), time: .now, actor: "system", action: "old") }
        let events = chain(count: 4, after: AuditChainHead(sequence: 3, hash: AuditChain.genesis))
        let report = try verify(legacy + events, [try checkpoint(of: events[3])])
        #expect(report.legacyEvents == 3 && report.chainedEvents == 4 && report.firstSequence == 4)
        var late = events
        late[2].hash = nil
        late[2].previousHash = nil
        let found = problem(legacy + late, [try checkpoint(of: events[3])])
        #expect(found?.code == .inserted && found?.sequence == 6, "\(String(describing: found))")
    }

    @Test("after a purge the chain verifies from the oldest kept event, against the checkpoint before it")
    func purged() throws {
        let events = chain()
        let kept = Array(events.dropFirst(3))
        let report = try verify(kept, [try checkpoint(of: events[2]), try checkpoint(of: events[7])])
        #expect(!report.startsAtGenesis && report.firstSequence == 4 && report.verifiedCheckpoints == 1)
        var altered = kept
        altered[0].previousHash = [UInt8](repeating: 7, count: 32)
        altered[0] = AuditChain.link(altered[0], after: AuditChainHead(sequence: 3, hash: altered[0].previousHash!))
        let found = problem(altered, [try checkpoint(of: events[2]), try checkpoint(of: events[7])])
        #expect(found?.code == .altered && found?.sequence == 4, "\(String(describing: found))")
    }
}
