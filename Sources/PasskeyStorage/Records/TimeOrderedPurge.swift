/// A kind of row that the SQL adapters purge alike, by one time column, oldest first, in batches: where it is, and
/// where its count goes in the ``PurgeReport``. One list, so that both adapters delete the same kinds in the same
/// order (``PurgeReport/timeOrdered``).
public struct TimeOrderedPurge: Sendable {
    /// The table, its key column and the time column its rows end by: constants, never input.
    public let table: StaticString
    public let key: StaticString
    public let column: StaticString
    /// Kept as long as the audit log (purged before `auditBefore`, never when that is nil), not until `before`.
    public let keptWithAudit: Bool
    /// Adds the rows deleted to the report.
    public let record: @Sendable (inout PurgeReport, Int) -> Void
}

extension PurgeReport {
    /// The kinds purged after flows, reservations and abandoned users, in order (see
    /// ``StorePurging/purge(before:auditBefore:limit:)``, steps 4 to 7). Audit events are not among them: they are
    /// purged along their hash chain's checkpoints, after these.
    public static let timeOrdered: [TimeOrderedPurge] = [
        TimeOrderedPurge(table: "web_sessions", key: "id", column: "expires_at", keptWithAudit: false) {
            $0.webSessions += $1
        },
        TimeOrderedPurge(table: "limit_windows", key: "key_hash", column: "window_end", keptWithAudit: false) {
            $0.limitWindows += $1
        },
        TimeOrderedPurge(table: "purged_registrations", key: "id", column: "forget_at", keptWithAudit: false) {
            $0.purgedRegistrationIDs += $1
        },
        TimeOrderedPurge(table: "idempotency_keys", key: "key_hash", column: "expires_at", keptWithAudit: false) {
            $0.idempotentAnswers += $1
        },
        // A family's refresh tokens go with it (ON DELETE CASCADE).
        TimeOrderedPurge(table: "refresh_token_families", key: "id", column: "expires_at", keptWithAudit: false) {
            $0.refreshTokenFamilies += $1
        },
        // The current key's `published_until` is NULL: it is never purged.
        TimeOrderedPurge(table: "session_signing_keys", key: "id", column: "published_until", keptWithAudit: false) {
            $0.signingKeys += $1
        },
        TimeOrderedPurge(table: "workflow_runs", key: "id", column: "expires_at", keptWithAudit: true) {
            $0.workflowRuns += $1
        },
        TimeOrderedPurge(table: "recovery_attempts", key: "id", column: "expires_at", keptWithAudit: true) {
            $0.recoveryAttempts += $1
        },
    ]
}
