public import Foundation

/// Where the relying-party service keeps users, credentials, flows and the audit log.
///
/// Every method is atomic. The ones that consume or advance something — a challenge, a result token, a credential
/// slot, a credential's signature counter, an identity-verification run's decision — are compare-and-set
/// operations: when two callers race, on one server or on several sharing a database, exactly one succeeds. Secrets
/// (challenges, tokens, web session secrets) reach the store only as SHA-256 hashes, and so do the keys of limit
/// windows (client addresses, credential ids).
///
/// A user's reset — ``finalizeRecovery(attemptID:revoking:at:)``, ``revokeCredential(id:at:)``,
/// ``signOutEverywhere(userID:at:)`` and ``deleteUser(id:)`` — ends, in its own transaction, every flow of the user
/// still in flight: their flows that may still issue options or complete (``FlowStatus/inFlight``), their completed
/// sign-ins whose result is not redeemed and their registrations whose credential is reserved become `.aborted` with
/// their challenges cleared; their reserved credentials are deleted; their handoffs that may still go on
/// (``CrossPlatformSessionRecord/Status/inFlight``) become `.rejected`; and their other open recovery attempts become
/// `.cancelled` (deleting the user deletes all of these instead). A credential is never inserted for an `.aborted`
/// flow, so a registration opened before the reset either completed before it — and the reset treats its credential
/// as it treats the user's others — or is refused, even when it races the reset on another server. Each adapter
/// writes this once, in one helper every reset calls.
///
/// Adapters: ``MemoryPasskeyStore`` (tests), `SQLitePasskeyStore` (the embedded default) and
/// `PostgresPasskeyStore` (scale-out). `PasskeyTesting.StoreConformance` checks any adapter.
public protocol PasskeyStore: Sendable {
    // MARK: Users

    /// Inserts the user, or returns the existing record for `user.id` unchanged (its user handle stays). User names
    /// are unique per relying party: `.nameTaken` when another user has `user.name` (compared exactly), and of two
    /// racing creates of the same name under different ids exactly one succeeds.
    func createUserIfAbsent(_ user: UserRecord) async throws(StoreError) -> UserRecord
    func user(id: String) async throws(StoreError) -> UserRecord?
    func user(handle: [UInt8]) async throws(StoreError) -> UserRecord?
    /// Deletes the user with their credentials, flows, web sessions and identity-verification runs, in one
    /// transaction: a reset of the user (see ``PasskeyStore``) whose flows go with them. Returns false when there was
    /// no such user.
    func deleteUser(id: String) async throws(StoreError) -> Bool
    /// Users in ascending order of id, each with the number of their active credentials: only ids greater than
    /// `after` when it is given, at most `limit` (none when it is less than 1). Ids compare by their UTF-8 bytes,
    /// so every adapter pages in the same order whatever its locale.
    ///
    /// A non-empty `query` keeps the users whose id, name or display name contains it. The match is literal (SQL
    /// wildcards such as `%` and `_` are plain characters) and ignores case for ASCII letters only: `ADA` finds
    /// `ada`, but `É` does not find `é`.
    func users(matching query: String?, after: String?, limit: Int) async throws(StoreError) -> [UserSummary]

    // MARK: Credentials

    func credential(id: [UInt8]) async throws(StoreError) -> CredentialRecordRow?
    /// The user's credentials that are not revoked, oldest first: by `createdAt`, and those created at the same
    /// time in the byte order of their ids (shorter first when one is a prefix of the other).
    func credentials(userID: String) async throws(StoreError) -> [CredentialRecordRow]
    /// Renames a credential. Fails with `.nameTaken` when another of the user's live credentials has the same
    /// name key (names compare case-insensitively after normalisation, see ``CredentialRecordRow/nameKey``).
    func renameCredential(
        id: [UInt8],
        name: String,
        nameKey: String,
        at time: Date
    ) async throws(StoreError) -> CredentialRecordRow?
    /// Records a successful assertion as a compare-and-set: the new counter, backup state and time of use are written
    /// only while the credential is still active and its stored counter is still `expectedSignCount` (the one the
    /// verification read). Returns the updated record, or nil when that no longer held: the credential was revoked,
    /// deleted or is not active, or another assertion was recorded first.
    ///
    /// Of racing calls with the same `expectedSignCount`, on one server or on several sharing a database, at most
    /// one succeeds, and the counter stored is the one it wrote. A use racing a revocation either happens before it
    /// (and the revocation follows) or returns nil.
    func recordCredentialUse(
        id: [UInt8],
        expectedSignCount: UInt32,
        signCount: UInt32,
        backupState: Bool,
        at time: Date
    ) async throws(StoreError) -> CredentialRecordRow?
    /// Marks a credential revoked and, in the same transaction, ends the in-flight flows of its user: a revocation is
    /// a reset of the user (see ``PasskeyStore``). Returns the revoked record, or nil when it was not live (and
    /// nothing changed).
    func revokeCredential(id: [UInt8], at time: Date) async throws(StoreError) -> CredentialRecordRow?

    // MARK: Flows

    func createFlow(_ flow: FlowRecord) async throws(StoreError)
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

    /// In one transaction: inserts the credential — refused with `.notFound` when there is no user
    /// `credential.userID` or no flow `flowID`, `.flowEnded` when the flow is `.aborted` (a reset of its user ended
    /// it), `.credentialExists` when its id is known, `.limitReached` when the
    /// user already has `maximumActive` live credentials (active, or reserved and not yet expired), `.nameTaken`
    /// when the name key is in use — and applies `flowUpdate` to the flow. A refused insert changes nothing.
    ///
    /// A reserved credential whose reservation has expired at `time` does not count as known: the new credential
    /// replaces it, whichever user and flow it was reserved for (an authenticator may register again after its
    /// earlier registration was never finalized). Its flow can then no longer settle it:
    /// ``settleReservation(flowID:finalize:flowUpdate:at:)`` returns nil for that flow.
    func insertCredential(
        _ credential: CredentialRecordRow,
        maximumActive: Int,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError)
    /// A sign-up's passkey: in one transaction, as ``insertCredential(_:maximumActive:flowID:flowUpdate:at:)`` with a
    /// maximum of one, except that it is refused with `.limitReached` when the user has any credential on record —
    /// active, revoked, or reserved and not expired — so that an account that ever had a passkey is never claimed
    /// again by a sign-up; and the user's display name becomes `displayName`, so that the profile a sign-up asked for
    /// is written only by the sign-up that completes.
    func insertFirstCredential(
        _ credential: CredentialRecordRow,
        displayName: String,
        flowID: String,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError)
    /// In one transaction: a reserved credential of the flow becomes active (`finalize == true`) or is deleted,
    /// and the flow takes `flowUpdate`. Returns the credential, or nil when there was no live reservation.
    func settleReservation(
        flowID: String,
        finalize: Bool,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError) -> CredentialRecordRow?

    // MARK: Audit

    /// Appends an event and returns it with its sequence number.
    @discardableResult
    func appendAuditEvent(_ event: AuditEvent) async throws(StoreError) -> AuditEvent
    /// Events with a sequence number greater than `after`, oldest first, at most `limit`, optionally for one user.
    func auditEvents(after: Int64, limit: Int, userID: String?) async throws(StoreError) -> [AuditEvent]
    /// Events with a sequence number lower than `before` (every event when nil), newest first, at most `limit`,
    /// optionally for one user.
    func auditEvents(before: Int64?, limit: Int, userID: String?) async throws(StoreError) -> [AuditEvent]

    // MARK: Limits

    /// Counts one event for the key whose SHA-256 is `keyHash`, in fixed windows, and returns the key's window after
    /// counting. When the key has no window, or its window has ended at `time`, a new one starts: from `time` until
    /// `window` seconds later, with a count of 1. Otherwise the window keeps its start and end and counts one more.
    ///
    /// One atomic operation: of any number of concurrent calls for a key, on one server or on several sharing a
    /// database, every one is counted and each sees a different count.
    ///
    /// Windows do not pile up: whenever a call starts a new window, it also deletes up to
    /// ``LimitWindow/removedPerCall`` windows that ended more than ``LimitWindow/retention`` before `time`. Until
    /// then an ended window is kept, so that a server whose clock is behind by less than that still sees it.
    func countLimitEvent(keyHash: [UInt8], window: TimeInterval, at time: Date) async throws(StoreError) -> LimitWindow
    /// Takes back one event that ``countLimitEvent(keyHash:window:at:)`` counted for the key: lowers the count of the
    /// key's window by one when the window has not ended at `time` and its count is above zero; otherwise does nothing.
    /// Atomic like counting.
    ///
    /// The window keeps its start and end. So a caller can count an attempt before checking it, which racing
    /// attempts cannot all slip past, and release it when the attempt turns out not to count (it succeeded).
    func releaseLimitEvent(keyHash: [UInt8], at time: Date) async throws(StoreError)
    /// The windows of the given keys that have not ended at `time`, in no particular order, without counting. A key
    /// without such a window is left out. One read, however many keys.
    func limitWindows(keyHashes: [[UInt8]], at time: Date) async throws(StoreError) -> [LimitWindow]

    // MARK: Web sessions

    /// Inserts the session, and deletes up to ``WebSessionRecord/removedPerCall`` sessions that expired before
    /// `session.createdAt` (in order of expiry), so that they do not pile up.
    ///
    /// Refused, changing nothing, with `.duplicate` when a session with its id or its secret hash exists (expired or
    /// not), and with `.notFound` when `session.userID` names no user: so a sign-in racing the user's deletion leaves
    /// no session behind.
    ///
    /// Then, in the same transaction, when the session has a user, the user's oldest sessions (expired or not, by
    /// `createdAt`, then by the byte order of their ids) are deleted until `maximumPerUser` are left (at least the new
    /// one), so that a user's sessions stay bounded however often they sign in.
    func createWebSession(_ session: WebSessionRecord, maximumPerUser: Int) async throws(StoreError)
    /// The session whose secret hashes to `secretHash`, when it has not expired at `time` (its `expiresAt` is later).
    func webSession(secretHash: [UInt8], at time: Date) async throws(StoreError) -> WebSessionRecord?
    /// The user's sessions (of both kinds) that have not expired at `time`, newest first: by `createdAt`, and those
    /// created at the same time in descending byte order of their ids.
    func webSessions(userID: String, at time: Date) async throws(StoreError) -> [WebSessionRecord]
    /// One page of the sessions that have not expired at `time`, in the order of ``webSessions(userID:at:)``: the
    /// user's when `userID` is given, else the console's sessions signed in without a user (with an API key, a
    /// break-glass). Skips `offset` of them and returns at most `limit` (none when it is less than 1).
    func webSessions(
        userID: String?,
        at time: Date,
        offset: Int,
        limit: Int
    ) async throws(StoreError)
        -> [WebSessionRecord]
    /// Ends one session by its public id, expired or not; returns whether there was one.
    func deleteWebSession(id: String) async throws(StoreError) -> Bool
    /// Ends the user's sessions — all of them, or only those signed in with `credentialID` when it is given — in one
    /// atomic operation; returns how many were deleted (expired ones included).
    func deleteWebSessions(userID: String, credentialID: [UInt8]?) async throws(StoreError) -> Int
    /// "Sign out everywhere": a reset of the user (see ``PasskeyStore``). In one transaction, ends all the user's
    /// sessions, as ``deleteWebSessions(userID:credentialID:)`` does without a credential, and every flow of theirs in
    /// flight. Returns how many sessions were deleted; 0, changing nothing, when there is no such user.
    func signOutEverywhere(userID: String, at time: Date) async throws(StoreError) -> Int

    // MARK: Purging

    /// Deletes what is over, at most `limit` rows of each kind (nothing when `limit` is less than 1), and reports how
    /// many of each it deleted. `time` is the caller's clock less a grace period, so that servers whose clocks
    /// differ by less agree that what is deleted is over. In order, each kind in a statement (or transaction) of its
    /// own:
    ///
    /// 1. reserved credentials whose `reservedUntil` is before `time` (never finalized; an expired reservation no
    ///    longer counts anyway);
    /// 2. flows that expired before `time` and, when they have one, whose result expired before `time`, and that
    ///    no reserved credential names (finalizing needs the flow), oldest expiry first;
    /// 3. in the same transaction as 2, the users of those flows that were created before `time` and are left with
    ///    no credential of any status and no flow — sign-ups that never completed — with their identity-verification
    ///    runs (a user with a revoked credential is kept: the credential stays on record);
    /// 4. web sessions that expired before `time`;
    /// 5. limit windows that ended before `time`;
    /// 6. when `auditBefore` is given: identity-verification runs that expired before it, then audit events
    ///    recorded before it, oldest first. Nil keeps both forever;
    /// 7. when `auditBefore` is given: recovery attempts that expired before it, whatever their status, oldest
    ///    first. Nil keeps them forever.
    ///
    /// A user is only ever deleted in 3, with the last of their flows, so the users to look at are found along the
    /// flows' index rather than by reading every user.
    func purge(before time: Date, auditBefore: Date?, limit: Int) async throws(StoreError) -> PurgeReport

    // MARK: Identity verification

    /// Inserts the run: `.duplicate` when its id is known or its flow already has a run (one run per flow),
    /// `.notFound` when there is no user `run.userID`. A refused insert changes nothing.
    func createWorkflowRun(_ run: WorkflowRunRecord) async throws(StoreError)
    /// The run with this id, expired or not.
    func workflowRun(id: String) async throws(StoreError) -> WorkflowRunRecord?
    /// The run of a flow, if it has one (expired or not).
    func workflowRun(flowID: String) async throws(StoreError) -> WorkflowRunRecord?
    /// Records a decision as a compare-and-set: applies only while the run's status is one of `from` and it has not
    /// expired at `time` (its `expiresAt` is later); sets status, faceMatch (nil leaves it unchanged) and
    /// updatedAt = time. Returns the updated run, or nil when the precondition did not hold.
    ///
    /// Of racing decisions from the same status, on one server or on several sharing a database, exactly one
    /// succeeds, and the status stored is the one it wrote.
    func decideWorkflowRun(
        id: String,
        from: Set<WorkflowRunRecord.Status>,
        to status: WorkflowRunRecord.Status,
        faceMatch: WorkflowRunRecord.FaceMatch?,
        at time: Date
    ) async throws(StoreError) -> WorkflowRunRecord?
    /// Records the vendor's own reference of a run, once the provider has created it; returns whether the run exists.
    func setWorkflowRunVendorReference(id: String, vendorReference: String) async throws(StoreError) -> Bool
    /// Gives back a run that was stored before its provider was asked to create it, when the provider did not: deletes
    /// it if its status is still `pending`, so that its flow may start a run again. Returns whether it was deleted; a
    /// run decided meanwhile stays.
    func releaseWorkflowRun(id: String) async throws(StoreError) -> Bool
    /// Records a vendor's decision and spends its event, in one atomic operation, so that a decision is never spent
    /// without being applied nor applied twice:
    ///
    /// 1. the event is counted in the limit window of `eventKeyHash` (as ``countLimitEvent(keyHash:window:at:)``
    ///    with `eventWindow`); when it had been counted before in a window that has not ended, the answer is
    ///    ``WorkflowRunEventOutcome/replayed`` and the run is left alone;
    /// 2. otherwise the decision is applied as ``decideWorkflowRun(id:from:to:faceMatch:at:)`` does; when that does
    ///    not apply, the count is taken back (the event stays unspent, so the vendor may send it again) and the answer
    ///    is ``WorkflowRunEventOutcome/refused``.
    ///
    /// Of racing deliveries of one event, on one server or on several sharing a database, at most one is decided.
    func decideWorkflowRun(
        id: String,
        from: Set<WorkflowRunRecord.Status>,
        to status: WorkflowRunRecord.Status,
        faceMatch: WorkflowRunRecord.FaceMatch?,
        at time: Date,
        eventKeyHash: [UInt8],
        eventWindow: TimeInterval
    ) async throws(StoreError) -> WorkflowRunEventOutcome

    // MARK: Cross-platform sessions

    /// In one transaction: inserts the session and hands its authentication flow over to it — the flow's status
    /// becomes `.handedOff` and its payload `flowPayload` — provided the flow's status is `.created` and it has not expired at `time`. Returns
    /// false, changing nothing, when that did not hold (so of racing handoffs of one flow exactly one is created).
    /// Refused with `.duplicate` when the session's id or handoff token hash is known, `.notFound` when there is no
    /// flow `session.flowID`.
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

    // MARK: User names

    /// The user whose name is exactly `name` (names are unique, see ``createUserIfAbsent(_:)``).
    func user(name: String) async throws(StoreError) -> UserRecord?

    // MARK: Recovery

    /// Inserts the attempt: `.duplicate` when its id is known, `.notFound` when there is no user `attempt.userID`. A
    /// refused insert changes nothing.
    func createRecoveryAttempt(_ attempt: RecoveryAttemptRecord) async throws(StoreError)
    /// The attempt with this id, whatever its status and expiry.
    func recoveryAttempt(id: String) async throws(StoreError) -> RecoveryAttemptRecord?
    /// Exchanges the attempt's recovery token, once, for its replacement registration: in one transaction, while the
    /// attempt is `.pending`, its token hash is `tokenHash` and it has not expired at `time`, it becomes `.exchanged`
    /// naming `registrationFlow`, which is inserted. Returns the updated attempt, or nil when that did not hold (and
    /// nothing changed).
    ///
    /// Of racing exchanges, on one server or on several sharing a database, exactly one succeeds.
    func exchangeRecoveryToken(
        attemptID: String,
        tokenHash: [UInt8],
        registrationFlow: FlowRecord,
        at time: Date
    ) async throws(StoreError) -> RecoveryAttemptRecord?
    /// Finalizes the attempt, in one transaction, when it is `.exchanged`, has not expired at `time`, and its
    /// registration flow holds a live reserved credential: that credential becomes active; the user's other
    /// credentials that are not revoked and that `revoking` names are revoked at `time`; the attempt becomes
    /// `.finalized` and its registration flow `.finalized`; the user's web sessions are deleted; and every other flow
    /// of the user in flight ends, their other open recovery attempts included: a finalize is a reset of the user
    /// (see ``PasskeyStore``).
    /// Returns what it did, or nil when a precondition did not hold (and nothing changed).
    ///
    /// Of a finalize racing a cancel, exactly one succeeds. A credential use racing the revocation either happens
    /// before it, or is refused (see ``recordCredentialUse(id:expectedSignCount:signCount:backupState:at:)``).
    func finalizeRecovery(
        attemptID: String,
        revoking: RecoveryRevocation,
        at time: Date
    ) async throws(StoreError) -> RecoveryFinalization?
    /// Cancels the attempt while it is `.pending` or `.exchanged` (expired or not), in one transaction with deleting
    /// the reserved credential of its registration flow, whose status becomes `.aborted`. Returns the cancelled
    /// attempt, or nil when it was finalized or cancelled already, or is unknown.
    func cancelRecoveryAttempt(id: String, at time: Date) async throws(StoreError) -> RecoveryAttemptRecord?

    // MARK: Combined operations: one round trip where a request needs two

    /// The user with their credentials that are not revoked (as ``credentials(userID:)`` lists them), read in one
    /// operation; nil when there is no such user.
    func userWithCredentials(id: String) async throws(StoreError) -> UserCredentials?
    /// The credential with the user it belongs to, read in one operation; nil when there is no such credential.
    func credentialWithOwner(id: [UInt8]) async throws(StoreError) -> CredentialOwner?
    /// Records a verified sign-in in one transaction: the credential's use, a compare-and-set exactly as
    /// ``recordCredentialUse(id:expectedSignCount:signCount:backupState:at:)``, and the flow's update, exactly as
    /// ``updateFlow(id:expectedStatuses:at:update:)``. Both are written or neither; the use is tried first, so
    /// `.credentialNotRecorded` wins when neither holds. Of racing calls, the guarantees of both hold.
    func recordAuthentication(
        _ use: CredentialUse,
        flowID: String,
        expectedStatuses: Set<FlowStatus>,
        flowUpdate: FlowUpdate,
        at time: Date
    ) async throws(StoreError) -> AuthenticationRecording

    // MARK: Import

    /// Inserts users with their credentials exactly as given, all in one transaction — to move accounts from
    /// another system, or to fill a store for a benchmark. Nothing is inserted when any record is refused:
    /// `.duplicate`, `.nameTaken` or `.credentialExists` when an id, user handle, user name or credential name key
    /// is in use (stored, or earlier in `users`); `.notFound` for a credential whose `userID` is not its entry's
    /// user. The per-user credential limit does not apply.
    func importUsers(_ users: [UserCredentials]) async throws(StoreError)
}

extension PasskeyStore {
    /// Inserts the session with no bound on the user's sessions (see ``createWebSession(_:maximumPerUser:)``).
    public func createWebSession(_ session: WebSessionRecord) async throws(StoreError) {
        try await createWebSession(session, maximumPerUser: .max)
    }
}
