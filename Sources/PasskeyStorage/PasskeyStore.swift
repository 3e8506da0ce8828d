/// Where the relying-party service keeps users, credentials, flows and the audit log: every role of the store in
/// one.
///
/// Each role is a protocol of its own, in `Roles/`, with the operations of one kind of record — ``UserStore``,
/// ``CredentialStore``, ``FlowStore``, ``CeremonyStore`` (the writes that finish a flow with its credential),
/// ``AuditStore``, ``LimitStore``, ``WebSessionStore``, ``WorkflowRunStore``, ``CrossPlatformSessionStore``,
/// ``RecoveryStore``, ``IdempotencyStore``, ``WebhookOutboxStore``, ``SessionTokenStore`` — and two that span them all, ``StorePurging`` and ``StoreImport``. Each adapter implements a role
/// in one file (`SQLitePasskeyStore+Credentials.swift` is `extension SQLitePasskeyStore: CredentialStore`), and
/// `PasskeyTesting.StoreConformance` has a suite of checks per role.
///
/// What holds across the roles is written here, once:
///
/// Every method is atomic. The ones that consume or advance something — a challenge, a result token, a credential
/// slot, a credential's signature counter, an identity-verification run's decision — are compare-and-set
/// operations: when two callers race, on one server or on several sharing a database, exactly one succeeds. Secrets
/// (challenges, tokens, web session secrets) reach the store only as SHA-256 hashes, and so do the keys of limit
/// windows (client addresses, credential ids).
///
/// A user's reset — ``RecoveryStore/finalizeRecovery(attemptID:revoking:at:)``,
/// ``CredentialStore/revokeCredential(id:at:)``, ``WebSessionStore/signOutEverywhere(userID:at:)`` and
/// ``UserStore/deleteUser(id:)`` — ends, in its own transaction, every flow of the user still in flight: their flows
/// that may still issue options or complete (``FlowStatus/inFlight``), their completed sign-ins whose result is not
/// redeemed and their registrations whose credential is reserved become `.aborted` with their challenges cleared;
/// their reserved credentials are deleted; their handoffs that may still go on
/// (``CrossPlatformSessionRecord/Status/inFlight``) become `.rejected`; their other open recovery attempts become
/// `.cancelled`; and their refresh-token families are revoked (``RefreshTokenFamily/Revocation/reset``), so no token
/// session of theirs can be refreshed (deleting the user deletes all of these instead). A credential is never inserted for an `.aborted`
/// flow, so a registration opened before the reset either completed before it — and the reset treats its credential
/// as it treats the user's others — or is refused, even when it races the reset on another server. Each adapter
/// writes this once, in one helper every reset calls (its `+UserReset.swift`), and `StoreConformance` checks it once,
/// in its suite `PasskeyStore (a user's reset)`.
///
/// Audited writes: a write that takes an `audit` (``AuditAppend``) — ``FlowStore/createFlow(_:audit:)``,
/// ``CeremonyStore/insertCredential(_:maximumActive:flowID:flowUpdate:at:audit:)``,
/// ``CeremonyStore/insertFirstCredential(_:displayName:flowID:flowUpdate:at:audit:)`` and
/// ``CeremonyStore/recordAuthentication(_:flowID:expectedStatuses:flowUpdate:at:audit:)`` — appends its event and
/// webhook messages as ``AuditStore/appendAuditEvent(_:webhooks:)`` does when, and only when, the write takes effect:
/// a write refused, or a sign-in not recorded, appends nothing. ``MemoryPasskeyStore`` and `SQLitePasskeyStore` do
/// both in one transaction — both or neither, on a crash too, and an append refused refuses the write.
/// `PostgresPasskeyStore` appends right after the write commits, through its batched audit log (one lock of the
/// chain, one commit and one disk sync for many events), so a crash or an append refused between the two keeps the
/// write without its event, as a write followed by ``AuditStore/appendAuditEvent(_:webhooks:)`` does.
///
/// Adapters: ``MemoryPasskeyStore`` (tests), `SQLitePasskeyStore` (the embedded default) and
/// `PostgresPasskeyStore` (scale-out). `PasskeyTesting.StoreConformance` checks any adapter.
public protocol PasskeyStore:
    UserStore, CredentialStore, FlowStore, CeremonyStore, AuditStore, LimitStore, WebSessionStore, WorkflowRunStore,
    CrossPlatformSessionStore, RecoveryStore, IdempotencyStore, WebhookOutboxStore, SessionTokenStore, StorePurging,
    StoreImport
{}
