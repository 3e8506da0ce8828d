/// What one call of ``StorePurging/purge(before:auditBefore:limit:)`` deleted: how many rows of each kind.
public struct PurgeReport: Sendable, Hashable, Codable {
    /// Registration attempts and authentication sessions that were over.
    public var flows = 0
    /// Credentials reserved under explicit finalize whose reservation ended without being settled.
    public var reservations = 0
    /// Users left with no credential (of any status) and no flow: sign-ups that never completed.
    public var users = 0
    public var webSessions = 0
    public var limitWindows = 0
    /// Identity-verification runs older than the audit retention (the runs of deleted users are not counted: they go
    /// with their users).
    public var workflowRuns = 0
    public var auditEvents = 0
    /// Recovery attempts that expired before the audit retention (those of deleted users go with their users).
    public var recoveryAttempts = 0
    /// Ids of purged registration attempts kept as long again as the attempt lived, now forgotten.
    public var purgedRegistrationIDs = 0
    /// Answers of idempotent requests (`Idempotency-Key`) past their retention.
    public var idempotentAnswers = 0
    /// Token sessions past their absolute lifetime, with their refresh tokens.
    public var refreshTokenFamilies = 0
    /// Retired signing keys of token sessions whose tokens have all expired.
    public var signingKeys = 0

    public init(
        flows: Int = 0,
        reservations: Int = 0,
        users: Int = 0,
        webSessions: Int = 0,
        limitWindows: Int = 0,
        workflowRuns: Int = 0,
        auditEvents: Int = 0,
        recoveryAttempts: Int = 0,
        purgedRegistrationIDs: Int = 0,
        idempotentAnswers: Int = 0,
        refreshTokenFamilies: Int = 0,
        signingKeys: Int = 0
    ) {
        self.flows = flows
        self.reservations = reservations
        self.users = users
        self.webSessions = webSessions
        self.limitWindows = limitWindows
        self.workflowRuns = workflowRuns
        self.auditEvents = auditEvents
        self.recoveryAttempts = recoveryAttempts
        self.purgedRegistrationIDs = purgedRegistrationIDs
        self.idempotentAnswers = idempotentAnswers
        self.refreshTokenFamilies = refreshTokenFamilies
        self.signingKeys = signingKeys
    }

    /// The counts by kind, in a fixed order, named as in the logs and the documentation.
    public var counts: [(kind: String, count: Int)] {
        [
            ("flows", flows), ("reservations", reservations), ("users", users), ("webSessions", webSessions),
            ("limitWindows", limitWindows), ("workflowRuns", workflowRuns), ("auditEvents", auditEvents),
            ("recoveryAttempts", recoveryAttempts), ("purgedRegistrationIDs", purgedRegistrationIDs),
            ("idempotentAnswers", idempotentAnswers), ("refreshTokenFamilies", refreshTokenFamilies),
            ("signingKeys", signingKeys),
        ]
    }

    /// Every row deleted.
    public var total: Int { counts.reduce(0) { $0 + $1.count } }

    /// Whether some kind reached `limit`: more of it may be left to delete.
    public func reached(limit: Int) -> Bool { counts.contains { $0.count >= limit } }

    /// The sum of two reports, kind by kind.
    public static func + (lhs: Self, rhs: Self) -> Self {
        Self(
            flows: lhs.flows + rhs.flows,
            reservations: lhs.reservations + rhs.reservations,
            users: lhs.users + rhs.users,
            webSessions: lhs.webSessions + rhs.webSessions,
            limitWindows: lhs.limitWindows + rhs.limitWindows,
            workflowRuns: lhs.workflowRuns + rhs.workflowRuns,
            auditEvents: lhs.auditEvents + rhs.auditEvents,
            recoveryAttempts: lhs.recoveryAttempts + rhs.recoveryAttempts,
            purgedRegistrationIDs: lhs.purgedRegistrationIDs + rhs.purgedRegistrationIDs,
            idempotentAnswers: lhs.idempotentAnswers + rhs.idempotentAnswers,
            refreshTokenFamilies: lhs.refreshTokenFamilies + rhs.refreshTokenFamilies,
            signingKeys: lhs.signingKeys + rhs.signingKeys
        )
    }
}
