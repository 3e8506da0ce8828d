import Foundation
public import PasskeyStorage

/// The behaviour every ``PasskeyStore`` adapter must have: a suite of checks for each role of the store (``UserStore``,
/// ``CredentialStore``, …), and one for what holds across the roles, a user's reset. Run every suite against your
/// adapter (`@Test(arguments: StoreConformance.checks)` runs them all, one test case a check named after its role);
/// a check throws ``StoreConformanceFailure`` saying what differed. Checks use fresh random ids, so they can share
/// one store. A check of one role also uses others (a credential needs its user and its flow), so each runs
/// against a whole ``PasskeyStore``.
public enum StoreConformance {
    /// One suite a role, in the order of ``PasskeyStore``'s roles, then the invariants across them.
    public static let suites: [StoreConformanceSuite] = [
        StoreConformanceSuite("UserStore", checks: users + userListing + userNames),
        StoreConformanceSuite("CredentialStore", checks: credentials + combinedReads),
        StoreConformanceSuite("FlowStore", checks: flows + flowConcurrency),
        StoreConformanceSuite(
            "CeremonyStore",
            checks: credentialInsertion + reservations + registrationConcurrency + firstCredential
                + authenticationRecording + credentialUse
        ),
        StoreConformanceSuite("AuditStore", checks: audit + auditChain),
        StoreConformanceSuite("LimitStore", checks: limits + limitRelease),
        StoreConformanceSuite(
            "WebSessionStore",
            checks: webSessions + consoleWebSessions,
            isolatedChecks: consoleWebSessionsAlone
        ),
        StoreConformanceSuite("WorkflowRunStore", checks: workflowRuns + workflowRunEvents),
        StoreConformanceSuite("CrossPlatformSessionStore", checks: crossPlatformSessions),
        StoreConformanceSuite("RecoveryStore", checks: recovery),
        StoreConformanceSuite("IdempotencyStore", checks: idempotency),
        StoreConformanceSuite("WebhookOutboxStore", checks: [], isolatedChecks: webhookOutbox),
        StoreConformanceSuite("SessionTokenStore", checks: sessionTokens, isolatedChecks: sessionTokensAlone),
        StoreConformanceSuite(
            "StorePurging",
            checks: purgeLimit,
            isolatedChecks: purge + recoveryPurge + purgedRegistrations + auditChainPurge
        ),
        StoreConformanceSuite("StoreImport", checks: importing),
        StoreConformanceSuite("PasskeyStore (a user's reset)", checks: userReset),
        StoreConformanceSuite(
            "PasskeyStore (audited writes)",
            checks: auditedWrites,
            isolatedChecks: auditedWriteMessages
        ),
    ]

    /// Every suite's checks that can share a store.
    public static let checks: [StoreConformanceCheck] = suites.flatMap(\.checks)

    /// Checks that need a store of their own, empty or not, that no other check uses meanwhile: purging deletes
    /// what is over across the whole store, which would upset the other checks' counts of their own clean-ups (and
    /// theirs the purge's counts). Run each on a store of its own.
    public static let isolatedChecks: [StoreConformanceCheck] = suites.flatMap(\.isolatedChecks)
}

/// The checks of one role of ``PasskeyStore`` (or of the invariants across the roles).
public struct StoreConformanceSuite: Sendable, CustomStringConvertible {
    /// The role checked: the name of its protocol.
    public let role: String
    /// Checks that can share a store with any other check.
    public let checks: [StoreConformanceCheck]
    /// Checks that need a store of their own (see ``StoreConformance/isolatedChecks``).
    public let isolatedChecks: [StoreConformanceCheck]
    public var description: String { role }

    init(_ role: String, checks: [StoreConformanceCheck], isolatedChecks: [StoreConformanceCheck] = []) {
        self.role = role
        self.checks = checks.map { $0.named(in: role) }
        self.isolatedChecks = isolatedChecks.map { $0.named(in: role) }
    }
}

/// One named check of a ``StoreConformanceSuite``.
public struct StoreConformanceCheck: Sendable, CustomStringConvertible {
    /// What the check expects, after the role it checks: "CredentialStore: use, revocation and listing".
    public let name: String
    public let run: @Sendable (any PasskeyStore) async throws -> Void
    public var description: String { name }

    init(_ name: String, _ run: @escaping @Sendable (any PasskeyStore) async throws -> Void) {
        self.name = name
        self.run = run
    }

    func named(in role: String) -> StoreConformanceCheck { StoreConformanceCheck("\(role): \(name)", run) }
}

/// A difference between an adapter's behaviour and the contract.
public struct StoreConformanceFailure: Error, CustomStringConvertible {
    public let description: String
}

func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw StoreConformanceFailure(description: message()) }
}

func requireStoreError(_ code: StoreError.Code, _ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as StoreError {
        try require(error.code == code, "expected \(code.rawValue), got \(error)")
        return
    }
    throw StoreConformanceFailure(description: "expected \(code.rawValue), but the operation succeeded")
}

/// Fixture values for the checks, on the published fixtures (``TestTime``, `UserRecord.fixture`,
/// `FlowRecord.fixture`). Times are whole seconds, which every adapter stores exactly.
enum Fixture {
    static let now = TestTime.fixed

    static func id(_ prefix: String) -> String { "\(prefix)-\(UUID().uuidString.lowercased())" }
    static func bytes(_ count: Int = 32) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255) } }

    /// A new user with a name of their own (user names are unique).
    static func user() -> UserRecord { .fixture() }

    static func credential(
        userID: String,
        name: String = "Phone",
        status: CredentialRecordRow.Status = .active,
        reservedUntil: Date? = nil,
        flowID: String? = nil
    ) -> CredentialRecordRow {
        .fixture(userID: userID, name: name, status: status, reservedUntil: reservedUntil, flowID: flowID)
    }

    static func flow(
        userID: String?,
        kind: FlowKind = .registration,
        status: FlowStatus = .created,
        expiresAt: Date = now + 120
    ) -> FlowRecord {
        .fixture(
            kind: kind,
            status: status,
            userID: userID,
            expiresAt: expiresAt,
            payload: Array(#"{"name":"x"}"#.utf8)
        )
    }
}
