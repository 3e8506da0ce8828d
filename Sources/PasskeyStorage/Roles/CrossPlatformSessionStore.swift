public import Foundation

/// Cross-platform sessions: a sign-in flow handed off to a phone. Part of ``PasskeyStore``.
public protocol CrossPlatformSessionStore: Sendable {
    /// In one transaction: inserts the session and hands its authentication flow over to it — the flow's status
    /// becomes `.handedOff` and its payload `flowPayload` — provided the flow's status is `.created` and it has not
    /// expired at `time`. Returns false, changing nothing, when that did not hold (so of racing handoffs of one flow
    /// exactly one is created). Refused with `.duplicate` when the session's id or handoff token hash is known,
    /// `.notFound` when there is no flow `session.flowID`.
    func createCrossPlatformSession(
        _ session: CrossPlatformSessionRecord,
        flowPayload: [UInt8],
        at time: Date
    ) async throws(StoreError) -> Bool
    /// The session with this id, expired or not.
    func crossPlatformSession(id: String) async throws(StoreError) -> CrossPlatformSessionRecord?
    /// The session whose handoff token hashes to `handoffTokenHash`, expired or not.
    func crossPlatformSession(handoffTokenHash: [UInt8]) async throws(StoreError) -> CrossPlatformSessionRecord?
    /// The session that took over the flow, if one did.
    func crossPlatformSession(flowID: String) async throws(StoreError) -> CrossPlatformSessionRecord?
    /// The sessions with these ids, expired or not, each with its flow, read in one call: how one server process
    /// follows every handoff it streams the status of. An unknown id is left out; the order is not specified.
    func crossPlatformSessions(ids: [String]) async throws(StoreError) -> [CrossPlatformSessionFlow]
    /// Claims the handoff once, as a compare-and-set: while the session with this handoff token hash is `.pending`
    /// and its `handoffExpiresAt` is after `time`, it becomes `.claimed` with `clientTokenHash`, and in the same
    /// transaction its flow takes `clientTokenHash` as its client token hash (so only the claiming phone drives
    /// it). Returns the claimed session, or nil when that did not hold. Of racing claims, on one server or on
    /// several sharing a database, exactly one succeeds.
    func claimCrossPlatformSession(
        handoffTokenHash: [UInt8],
        clientTokenHash: [UInt8],
        at time: Date
    ) async throws(StoreError) -> CrossPlatformSessionRecord?
    /// Moves the session to `status` as a compare-and-set: only while its status is one of `from` and its
    /// `expiresAt` is after `time`; updatedAt becomes `time`. Returns the updated session, or nil.
    func updateCrossPlatformSession(
        id: String,
        from: Set<CrossPlatformSessionRecord.Status>,
        to status: CrossPlatformSessionRecord.Status,
        at time: Date
    ) async throws(StoreError) -> CrossPlatformSessionRecord?
    /// Counts one wrong verification code, atomically, while the session is `.claimed` and its `expiresAt` is after
    /// `time`: `codeFailures` grows by one, and the session becomes `.rejected` when it reaches `rejectAt`. Returns
    /// the updated session, or nil when the precondition did not hold. Racing calls are each counted once.
    func countCrossPlatformCodeFailure(
        id: String,
        rejectAt: Int,
        at time: Date
    ) async throws(StoreError)
        -> CrossPlatformSessionRecord?
}
