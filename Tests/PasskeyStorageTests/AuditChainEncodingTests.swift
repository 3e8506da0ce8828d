import Foundation
import PasskeyStorage
import Testing

@Suite("The audit chain's canonical encoding")
struct AuditChainEncodingTests {
    static let event = AuditEvent(
        sequence: 7,
        time: Date(timeIntervalSince1970: 1_764_000_000.123_456),
        actor: "api-key:ops",
        action: "credential.renamed",
        userID: "user-1",
        requestID: "req-9",
        details: ["name": "Work laptop", "aaguid": "00"]
    )

    /// Vectors computed apart from this code (Python's struct and hashlib, from the encoding's description).
    @Test("an event's encoding and hash, and the next event's hash after it, are the published vectors")
    func vectors() {
        #expect(
            hex(AuditChain.encoding(of: Self.event))
                == "0100000000000000070000019ab697e87b0000000b6170692d6b65793a6f70730000001263726564656e7469616c2e72"
                + "656e616d65640100000006757365722d310001000000057265712d390000000200000006616167756964000000023030"
                + "000000046e616d650000000b576f726b206c6170746f70"
        )
        let first = AuditChain.hash(of: Self.event, after: AuditChain.genesis)
        #expect(hex(first) == "4acecc9d9fab95240ddee14e52d7c7b6ca877eb079a2cdf637967ad0bc13bf74")
        let next = AuditEvent(
            sequence: 8,
            time: Date(timeIntervalSince1970: 1_764_000_001),
            actor: "system",
            action: "user.deleted"
        )
        #expect(
            hex(AuditChain.encoding(of: next))
                == "0100000000000000080000019ab697ebe80000000673797374656d0000000c757365722e64656c6574656400000000000000"
        )
        #expect(
            hex(AuditChain.hash(of: next, after: first))
                == "645897824b0f93168d4ef0b879dcd4b995d4df8e338e52bf2a53af5b864a6cc3"
        )
    }

    @Test(
        "moving bytes from one field to the next, or an absent field for an empty one, changes the encoding",
        arguments: [
            (AuditEvent(time: .now, actor: "ab", action: "c"), AuditEvent(time: .now, actor: "a", action: "bc")),
            (
                AuditEvent(time: .now, actor: "a", action: "b"),
                AuditEvent(time: .now, actor: "a", action: "b", userID: "")
            ),
            (
                AuditEvent(time: .now, actor: "a", action: "b", userID: "x"),
                AuditEvent(time: .now, actor: "a", action: "b", subject: "x")
            ),
            (
                AuditEvent(time: .now, actor: "a", action: "b", details: ["a": "bc"]),
                AuditEvent(time: .now, actor: "a", action: "b", details: ["ab": "c"])
            ),
            (
                AuditEvent(time: .now, actor: "a", action: "b", details: ["k": "v"]),
                AuditEvent(time: .now, actor: "a", action: "b", details: ["k": "v", "": ""])
            ),
        ]
    )
    func unambiguous(_ pair: (AuditEvent, AuditEvent)) {
        var (one, other) = pair
        other.time = one.time
        #expect(AuditChain.encoding(of: one) != AuditChain.encoding(of: other))
    }

    @Test("the hash covers the sequence number, the time and the previous hash; not the stored hashes")
    func coverage() {
        let hash = AuditChain.hash(of: Self.event, after: AuditChain.genesis)
        var moved = Self.event
        moved.sequence += 1
        #expect(AuditChain.hash(of: moved, after: AuditChain.genesis) != hash)
        var later = Self.event
        later.time += 0.001
        #expect(AuditChain.hash(of: later, after: AuditChain.genesis) != hash)
        #expect(AuditChain.hash(of: Self.event, after: [UInt8](repeating: 1, count: 32)) != hash)
        var stored = Self.event
        stored.hash = [1]
        stored.previousHash = [2]
        #expect(AuditChain.hash(of: stored, after: AuditChain.genesis) == hash)
    }

    @Test("details are encoded in the byte order of their keys, whatever order they come in")
    func detailOrder() {
        var reordered = Self.event
        reordered.details = [:]
        reordered.details["name"] = "Work laptop"
        reordered.details["aaguid"] = "00"
        #expect(AuditChain.encoding(of: reordered) == AuditChain.encoding(of: Self.event))
    }

    @Test("times are kept in whole milliseconds, and survive both stores' representations", arguments: 0..<200)
    func milliseconds(_ seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        // Any time from 1970 to 2200.
        let time = Date(timeIntervalSince1970: Double.random(in: 0...7_258_118_400, using: &generator))
        let stored = AuditChain.storedTime(time)
        #expect(AuditChain.storedTime(stored) == stored)
        #expect(abs(stored.timeIntervalSince(time)) <= 0.000_5 + 1e-6)
        // SQLite keeps seconds since 1970 as a double; PostgreSQL whole microseconds since 2000, which PostgresNIO
        // turns into a Date.
        let throughSQLite = Date(timeIntervalSince1970: stored.timeIntervalSince1970)
        #expect(AuditChain.milliseconds(throughSQLite) == AuditChain.milliseconds(stored))
        let micros2000 = AuditChain.milliseconds(stored) * 1000 - 946_684_800_000_000
        let throughPostgres = Date(timeIntervalSinceReferenceDate: Double(micros2000 - 31_622_400_000_000) / 1_000_000)
        #expect(AuditChain.milliseconds(throughPostgres) == AuditChain.milliseconds(stored))
    }

    @Test("linking sets the next sequence number, the stored time and both hashes")
    func link() {
        let head = AuditChainHead(sequence: 41, hash: [UInt8](repeating: 9, count: 32))
        let linked = AuditChain.link(
            AuditEvent(time: Date(timeIntervalSince1970: 1.000_4), actor: "a", action: "b"),
            after: head
        )
        #expect(linked.sequence == 42)
        #expect(linked.time == Date(timeIntervalSince1970: 1))
        #expect(linked.previousHash == head.hash)
        #expect(linked.hash == AuditChain.hash(of: linked, after: head.hash))
        let genesis = AuditChain.link(AuditEvent(time: .now, actor: "a", action: "b"), after: nil)
        #expect(genesis.sequence == 1 && genesis.previousHash == AuditChain.genesis)
    }
}

func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

/// A reproducible source of randomness for test arguments (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

@Suite("The head the next audit event follows")
struct AuditChainTailTests {
    let hash = [UInt8](repeating: 5, count: 32)

    @Test("an empty log starts the chain at 1; numbers given before, and since purged, are not given again")
    func empty() {
        #expect(AuditChainTail().appendHead == nil)
        #expect(AuditChainTail(counter: 57).appendHead == AuditChainHead(sequence: 57, hash: AuditChain.genesis))
        #expect(AuditChainTail(counter: 57).signableHead == nil)
    }

    @Test("after events from before the chain, the next one is its genesis; there is nothing to sign yet")
    func legacy() {
        let tail = AuditChainTail(lastSequence: 12, counter: 12)
        #expect(tail.appendHead == AuditChainHead(sequence: 12, hash: AuditChain.genesis))
        #expect(tail.signableHead == nil)
    }

    @Test("the last chained event is the head; when purging left none, the newest checkpoint is")
    func chained() {
        let checkpoint = AuditChainHead(sequence: 40, hash: [UInt8](repeating: 4, count: 32))
        let tail = AuditChainTail(lastSequence: 41, lastHash: hash, newestCheckpoint: checkpoint, counter: 41)
        #expect(tail.appendHead == AuditChainHead(sequence: 41, hash: hash))
        #expect(tail.signableHead == AuditChainHead(sequence: 41, hash: hash))
        let purged = AuditChainTail(newestCheckpoint: checkpoint, counter: 40)
        #expect(purged.appendHead == checkpoint && purged.signableHead == checkpoint)
    }
}
