import Foundation
import PasskeyStorage
import PasskeyStorePostgres
import PasskeyTesting
import PostgresTestSupport
import Testing

private typealias Timing = AuditAppendTimingSupport

/// The cost of an audit append with its hash chain, on demand: `PASSKEYS_AUDIT_TIMING=1 swift test --filter
/// AuditAppendTiming` (docs/benchmarks.md). It prints what it measured and asserts nothing about time.
@Suite(
    "AuditAppendTiming",
    .enabled(if: ProcessInfo.processInfo.environment["PASSKEYS_AUDIT_TIMING"] != nil),
    .enabled(if: TestDatabase.isConfigured, TestDatabase.skipped)
)
struct AuditAppendTiming {
    @Test("hashing alone, then appends one at a time and from 32 tasks on two stores")
    func timing() async throws {
        var head: AuditChainHead?
        let start = ContinuousClock.now
        for index in 0..<20_000 {
            let linked = AuditChain.link(Timing.event(index), after: head)
            head = AuditChainHead(sequence: linked.sequence, hash: linked.hash ?? [])
        }
        Timing.report("link (encode and SHA-256, no database)", count: 20_000, from: start)

        try await TestDatabase.withSchema("timing") { schema in
            let stores = [try await schema.connect(), try await schema.connect()]
            for index in 0..<50 { try await stores[0].appendAuditEvent(Timing.event(index)) }
            let sequential = ContinuousClock.now
            for index in 0..<Timing.events { try await stores[0].appendAuditEvent(Timing.event(index)) }
            Timing.report("PostgreSQL, one at a time", count: Timing.events, from: sequential)

            let concurrent = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<32 {
                    let store = stores[task % 2]
                    group.addTask {
                        for index in 0..<(2 * Timing.events / 32) {
                            try await store.appendAuditEvent(Timing.event(index))
                        }
                    }
                }
                try await group.waitForAll()
            }
            Timing.report("PostgreSQL, 32 tasks on two stores", count: 2 * Timing.events, from: concurrent)
            _ = try await AuditTampering.signHead(of: stores[0], at: Date())
            let verifying = ContinuousClock.now
            let verified = try await AuditChainVerification.verify(stores[1], trustedKeys: nil)
            Timing.report("PostgreSQL, verification (read and check)", count: verified.chainedEvents, from: verifying)
            for store in stores { await store.shutdown() }

            // The database's side alone, on one connection, one append at a time: the single statement an append
            // was before the chain (the lock and the insert together), and the transaction it is now (the lock, the
            // head, the insert with the hashes).
            let lock = "pg_advisory_xact_lock(\(0x7061_7373), 'audit_events'::regclass::oid::integer)"
            let before = (0..<Timing.events).map { index in
                """
                WITH lock AS MATERIALIZED (SELECT \(lock))
                INSERT INTO audit_events (time, actor, action, user_id, subject, request_id, details)
                SELECT now(), 'api-key:load', 'authentication.redeemed', 'user-\(index % 97)', 'ses_\(index)',
                       'req-\(index)', '{"mode": "standard"}' WHERE EXISTS (SELECT 1 FROM lock) RETURNING sequence
                """
            }
            let hash = "decode('\(String(repeating: "ab", count: 32))', 'hex')"
            let after = (0..<Timing.events).flatMap { index in
                [
                    "BEGIN", "SELECT \(lock)",
                    """
                    SELECT e.sequence, e.hash, c.sequence, c.hash FROM (SELECT 1) AS one
                    LEFT JOIN (SELECT sequence, hash FROM audit_events ORDER BY sequence DESC LIMIT 1) AS e ON true
                    LEFT JOIN (SELECT sequence, hash FROM audit_checkpoints ORDER BY sequence DESC LIMIT 1) AS c ON true
                    """,
                    """
                    INSERT INTO audit_events
                        (sequence, time, actor, action, user_id, subject, request_id, details, previous_hash, hash)
                    SELECT coalesce(max(sequence), 0) + 1, now(), 'api-key:load', 'authentication.redeemed',
                           'user-\(index % 97)', 'ses_\(index)', 'req-\(index)', '{"mode": "standard"}', \(hash),
                           \(hash)
                    FROM audit_events RETURNING sequence
                    """,
                    "COMMIT",
                ]
            }
            let search = #"SET search_path TO "\#(schema.name)""#
            let single = ContinuousClock.now
            // The chain assigns sequence numbers itself; the append before it drew them from the column's sequence.
            let serial =
                "SELECT setval(pg_get_serial_sequence('audit_events', 'sequence'), max(sequence)) FROM audit_events"
            try await TestDatabase.execute([search, serial] + before)
            Timing.report("PostgreSQL SQL only, the append before the chain", count: Timing.events, from: single)
            let chained = ContinuousClock.now
            try await TestDatabase.execute([search] + after)
            Timing.report("PostgreSQL SQL only, the append with the chain", count: Timing.events, from: chained)
        }
    }
}
