import Crypto
public import Foundation
public import PasskeyStorage

/// Tampering with a SQL store's audit log behind its back, for the tests that show `AuditChainVerification` finds
/// it: a log of eight events with a signed checkpoint of the last (``prepare(_:)``), and ways of changing its rows
/// with SQL that SQLite and PostgreSQL both run, each with the problem it must cause.
public struct AuditTampering: Sendable, CustomStringConvertible {
    /// What is done, in a few words.
    public let name: String
    /// The SQL statements that do it, in order.
    public let statements: [String]
    /// The problem verification must report, and at which event.
    public let code: AuditChainProblem.Code
    public let sequence: Int64

    public var description: String { name }

    /// Every way of tampering, each on a log from ``prepare(_:)`` (events 1 to 8, a checkpoint of 8).
    public static let all: [AuditTampering] = [
        AuditTampering(
            name: "alter a detail of event 4",
            statements: [#"UPDATE audit_events SET details = '{"name": "Mallory"}' WHERE sequence = 4"#],
            code: .altered,
            sequence: 4
        ),
        AuditTampering(
            name: "delete event 4",
            statements: ["DELETE FROM audit_events WHERE sequence = 4"],
            code: .removed,
            sequence: 4
        ),
        AuditTampering(
            name: "insert an event at 4, pushing 4 to 8 along",
            statements: [
                "UPDATE audit_events SET sequence = sequence + 1000 WHERE sequence >= 4",
                "UPDATE audit_events SET sequence = sequence - 999 WHERE sequence >= 1000",
                """
                INSERT INTO audit_events (sequence, time, actor, action, details, previous_hash, hash)
                SELECT 4, time, actor, 'user.deleted', details, previous_hash, hash FROM audit_events WHERE sequence = 3
                """,
            ],
            code: .inserted,
            sequence: 4
        ),
        AuditTampering(
            name: "insert an event at the end, without a hash",
            statements: [
                """
                INSERT INTO audit_events (sequence, time, actor, action, details)
                SELECT 9, time, actor, 'user.deleted', details FROM audit_events WHERE sequence = 8
                """
            ],
            code: .inserted,
            sequence: 9
        ),
        AuditTampering(
            name: "swap events 4 and 5",
            statements: [
                "UPDATE audit_events SET sequence = -4 WHERE sequence = 4",
                "UPDATE audit_events SET sequence = 4 WHERE sequence = 5",
                "UPDATE audit_events SET sequence = 5 WHERE sequence = -4",
            ],
            code: .reordered,
            sequence: 4
        ),
        AuditTampering(
            name: "delete the last two events, which the checkpoint signed",
            statements: ["DELETE FROM audit_events WHERE sequence >= 7"],
            code: .truncated,
            sequence: 7
        ),
    ]

    /// Appends eight events to `store` (an empty one: they must be events 1 to 8) and a checkpoint of the last,
    /// signed with a new key; returns the public key.
    public static func prepare(_ store: any PasskeyStore, at time: Date) async throws -> [UInt8] {
        var last: AuditEvent?
        for index in 0..<8 {
            last = try await store.appendAuditEvent(
                AuditEvent(
                    time: time + Double(index) + 0.123_4,
                    actor: "api-key:ops",
                    action: "credential.renamed",
                    userID: "user-\(index % 3)",
                    subject: "cred-\(index)",
                    requestID: "req-\(index)",
                    details: ["name": "Key \(index)", "note": "Ünïcødé ✓"]
                )
            )
        }
        guard last?.sequence == 8 else {
            throw StoreConformanceFailure(description: "the tampering needs an empty store: events 1 to 8")
        }
        return try await signHead(of: store, at: time + 10)
    }

    /// Signs the head of `store`'s chain with a new key and keeps the checkpoint; returns the public key.
    public static func signHead(of store: any PasskeyStore, at time: Date) async throws -> [UInt8] {
        guard let head = try await store.auditChainHead() else {
            throw StoreConformanceFailure(description: "the chain has no head to sign")
        }
        let key = Curve25519.Signing.PrivateKey()
        try await store.appendAuditCheckpoint(try AuditChain.checkpoint(of: head, at: time, signedWith: key))
        return Array(key.publicKey.rawRepresentation)
    }
}
