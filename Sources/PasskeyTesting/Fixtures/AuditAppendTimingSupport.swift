import Foundation
public import PasskeyStorage

/// What the on-demand audit append timings of each SQL adapter share (`PASSKEYS_AUDIT_TIMING=1 swift test --filter
/// AuditAppendTiming`, docs/benchmarks.md): the events they append and the line they print. Nothing about time is
/// asserted.
public enum AuditAppendTimingSupport {
    /// The appends of each timed run.
    public static let events = 2000

    /// An event as a sign-in's redeem writes it: a user, a subject, a request id and two details.
    public static func event(_ index: Int) -> AuditEvent {
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

    /// Prints the time `count` appends took since `start`, per append and per second.
    public static func report(_ label: String, count: Int, from start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(
            "AuditAppendTiming \(label): \(count) appends in \(String(format: "%.2f", seconds)) s, "
                + "\(String(format: "%.0f", seconds / Double(count) * 1e6)) µs per append, "
                + "\(String(format: "%.0f", Double(count) / seconds)) appends/s"
        )
    }
}
