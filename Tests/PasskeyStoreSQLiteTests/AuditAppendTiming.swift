import Foundation
import PasskeyStorage
import PasskeyTesting
import Testing

@testable import PasskeyStoreSQLite

private typealias Timing = AuditAppendTimingSupport

/// The cost of an audit append with its hash chain, on demand: `PASSKEYS_AUDIT_TIMING=1 swift test --filter
/// AuditAppendTiming` (docs/benchmarks.md). It prints what it measured and asserts nothing about time.
@Suite("AuditAppendTiming (SQLite)", .enabled(if: ProcessInfo.processInfo.environment["PASSKEYS_AUDIT_TIMING"] != nil))
struct SQLiteAuditAppendTiming {
    @Test("appends one at a time and from 32 tasks, on a file")
    func timing() async throws {
        try await withTemporaryDirectory { directory in
            try await withStore(at: directory.file()) { store in
                for index in 0..<50 { try await store.appendAuditEvent(Timing.event(index)) }
                let sequential = ContinuousClock.now
                for index in 0..<Timing.events { try await store.appendAuditEvent(Timing.event(index)) }
                Timing.report("SQLite, one at a time", count: Timing.events, from: sequential)
                let concurrent = ContinuousClock.now
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<32 {
                        group.addTask {
                            for index in 0..<(2 * Timing.events / 32) {
                                try await store.appendAuditEvent(Timing.event(index))
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                Timing.report("SQLite, 32 tasks", count: 2 * Timing.events, from: concurrent)
            }
        }
    }
}
