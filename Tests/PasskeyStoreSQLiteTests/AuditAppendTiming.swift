import Foundation
import PasskeyStorage
import PasskeyTesting
import Testing

@testable import PasskeyStoreSQLite

/// The cost of an audit append with its hash chain, on demand: `PASSKEYS_AUDIT_TIMING=1 swift test --filter
/// AuditAppendTiming` (docs/benchmarks.md). It prints what it measured and asserts nothing about time.
@Suite("AuditAppendTiming (SQLite)", .enabled(if: ProcessInfo.processInfo.environment["PASSKEYS_AUDIT_TIMING"] != nil))
struct SQLiteAuditAppendTiming {
    static let events = 2000

    static func event(_ index: Int) -> AuditEvent {
        AuditEvent(
            time: Date(),
            actor: "api-key:load",
            action: "authentication.redeemed",
            userID: "user-\(index % 97)",
            subject: "ses_\(index)",
            requestID: "req-\(index)",
            details: ["mode": "standard", "credentialId": "AbCdEf\(index)"]
        )
    }

    static func report(_ label: String, count: Int, from start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(
            "AuditAppendTiming \(label): \(count) appends in \(String(format: "%.2f", seconds)) s, "
                + "\(String(format: "%.0f", seconds / Double(count) * 1e6)) µs per append, "
                + "\(String(format: "%.0f", Double(count) / seconds)) appends/s"
        )
    }

    @Test("appends one at a time and from 32 tasks, on a file")
    func timing() async throws {
        try await withTemporaryDirectory { directory in
            try await withStore(at: directory.file()) { store in
                for index in 0..<50 { try await store.appendAuditEvent(Self.event(index)) }
                let sequential = ContinuousClock.now
                for index in 0..<Self.events { try await store.appendAuditEvent(Self.event(index)) }
                Self.report("SQLite, one at a time", count: Self.events, from: sequential)
                let concurrent = ContinuousClock.now
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<32 {
                        group.addTask {
                            for index in 0..<(2 * Self.events / 32) {
                                try await store.appendAuditEvent(Self.event(index))
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                Self.report("SQLite, 32 tasks", count: 2 * Self.events, from: concurrent)
            }
        }
    }
}
