public import Foundation

/// The flows of the ceremonies (registration, sign-in), with their challenges and result tokens. Part of
/// ``PasskeyStore``; the writes that finish a flow together with its credential are ``CeremonyStore``'s.
public protocol FlowStore: Sendable {
    /// Inserts a new flow, refused with `.duplicate` when its id is in use, and appends `audit` with it (an audited
    /// write, ``PasskeyStore``).
    func createFlow(_ flow: FlowRecord, audit: AuditAppend?) async throws(StoreError)
    func flow(id: String) async throws(StoreError) -> FlowRecord?
    /// Applies `update` when the flow's status is one of `expectedStatuses` and it has not expired at `time`.
    /// Returns the updated flow, or nil when the precondition did not hold.
    func updateFlow(
        id: String,
        expectedStatuses: Set<FlowStatus>,
        at time: Date,
        update: FlowUpdate
    ) async throws(StoreError) -> FlowRecord?
    /// Consumes the flow's pending challenge when its hash matches and it has not expired: the challenge is
    /// cleared and the status becomes `.verifying`. Returns the flow as it was before, or nil when another
    /// caller consumed it first, it expired, or the hash does not match.
    func consumeChallenge(flowID: String, challengeHash: [UInt8], at time: Date) async throws(StoreError) -> FlowRecord?
    /// Redeems the flow's result token once: status `.completed` → `.redeemed`. Nil when the token does not
    /// match, expired, or was redeemed already.
    func redeemResult(flowID: String, resultTokenHash: [UInt8], at time: Date) async throws(StoreError) -> FlowRecord?
    /// When the purge deleted the registration flow `id` (``StorePurging/purge(before:auditBefore:limit:)`` keeps the
    /// ids of the registration flows it deletes, each for as long again as the flow lived); nil when it did not, or
    /// has forgotten it since.
    func purgedRegistration(id: String) async throws(StoreError) -> Date?
}

extension FlowStore {
    /// Inserts a new flow without an audit event.
    public func createFlow(_ flow: FlowRecord) async throws(StoreError) {
        try await createFlow(flow, audit: nil)
    }
}
