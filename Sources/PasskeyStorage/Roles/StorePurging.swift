public import Foundation

/// Deleting what is over, across every kind of record (the server's `StorePurge` task calls it). Part of
/// ``PasskeyStore``.
public protocol StorePurging: Sendable {
    /// Deletes what is over, at most `limit` rows of each kind (nothing when `limit` is less than 1), and reports how
    /// many of each it deleted. `time` is the caller's clock less a grace period, so that servers whose clocks
    /// differ by less agree that what is deleted is over. In order, each kind in a statement (or transaction) of its
    /// own:
    ///
    /// 1. reserved credentials whose `reservedUntil` is before `time` (never finalized; an expired reservation no
    ///    longer counts anyway);
    /// 2. flows that expired before `time` and, when they have one, whose result expired before `time`, and that
    ///    no reserved credential names (finalizing needs the flow), oldest expiry first; in the same transaction, the
    ///    ids of the registration flows among them are kept with the time of the purge until `time` plus the flow's
    ///    lifetime (``FlowStore/purgedRegistration(id:)``), so a client that still holds one is told it was cleaned up;
    /// 3. in the same transaction as 2, the users of those flows that were created before `time` and are left with
    ///    no credential of any status and no flow — sign-ups that never completed — with their identity-verification
    ///    runs (a user with a revoked credential is kept: the credential stays on record);
    /// 4. web sessions that expired before `time`;
    /// 5. limit windows that ended before `time`, the kept ids of purged registration flows whose time to be
    ///    forgotten is before `time`, idempotent answers that expired before `time` (``IdempotencyStore``),
    ///    refresh-token families whose absolute lifetime ended before `time` (with their tokens), oldest first, and
    ///    retired signing keys published until before `time` (``SessionTokenStore``);
    /// 6. when `auditBefore` is given: identity-verification runs that expired before it, then audit events, oldest
    ///    first, up to the event of the newest checkpoint signed before it (``AuditStore``; none while there is no
    ///    such checkpoint), and the checkpoints older than the newest one before the oldest event left, so the hash
    ///    chain stays verifiable from the oldest kept checkpoint. Nil keeps all of them forever;
    /// 7. when `auditBefore` is given: recovery attempts that expired before it, whatever their status, oldest
    ///    first. Nil keeps them forever.
    ///
    /// A user is only ever deleted in 3, with the last of their flows, so the users to look at are found along the
    /// flows' index rather than by reading every user.
    func purge(before time: Date, auditBefore: Date?, limit: Int) async throws(StoreError) -> PurgeReport
}
