import Foundation
import PasskeyStorage
import PasskeyStorePostgres
import PasskeyTesting
import PostgresTestSupport
import Testing

/// Two stores with a connection pool each, as two server processes would have, sharing one database.
@Suite("PostgreSQL store shared by two processes", .enabled(if: TestDatabase.isConfigured, TestDatabase.skipped))
struct PostgresMultiProcessTests {
    static let now = TestTime.fixed

    static func bytes(_ count: Int = 32) -> [UInt8] { TestTime.randomBytes(count) }

    /// A passkey of `userID` (a random id unless given); the rest is what every test here takes.
    static func credential(
        of userID: String,
        id: [UInt8] = bytes(),
        name: String = "Phone",
        status: CredentialRecordRow.Status = .active,
        reservedUntil: Date? = nil,
        flowID: String? = nil
    ) -> CredentialRecordRow {
        CredentialRecordRow(
            id: id,
            userID: userID,
            publicKey: bytes(77),
            algorithm: -7,
            signCount: 0,
            aaguid: "",
            attestationFormat: "none",
            attestationType: "none",
            attestationTrusted: false,
            transports: [],
            backupEligible: false,
            backupState: false,
            userVerified: true,
            name: name,
            nameKey: name.lowercased(),
            status: status,
            reservedUntil: reservedUntil,
            flowID: flowID,
            createdAt: now
        )
    }

    func withTwoStores(_ purpose: String, _ body: ([PostgresPasskeyStore]) async throws -> Void) async throws {
        try await TestDatabase.withSchema(purpose) { schema in
            let stores = [try await schema.connect(), try await schema.connect()]
            do {
                try await body(stores)
            } catch {
                for store in stores { await store.shutdown() }
                throw error
            }
            for store in stores { await store.shutdown() }
        }
    }

    /// Runs 50 attempts at once, alternating between the stores, and counts those that succeeded.
    static func winners(
        across stores: [PostgresPasskeyStore],
        _ attempt: @escaping @Sendable (PostgresPasskeyStore) async throws -> Bool
    ) async throws -> Int {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<50 {
                let store = stores[index % stores.count]
                group.addTask { try await attempt(store) }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
    }

    @Test("50 consumers of one challenge across two stores: exactly one succeeds")
    func consumeChallengeRace() async throws {
        try await withTwoStores("challenge") { stores in
            let challenge = Self.bytes()
            let flow = FlowRecord.fixture(
                id: "flow-race",
                kind: .authentication,
                status: .optionsIssued,
                challengeHash: challenge,
                challengeExpiresAt: Self.now + 60
            )
            try await stores[0].createFlow(flow)
            let flowID = flow.id
            let winners = try await Self.winners(across: stores) { store in
                try await store.consumeChallenge(flowID: flowID, challengeHash: challenge, at: Self.now) != nil
            }
            #expect(winners == 1)
            let after = try await stores[1].flow(id: flow.id)
            #expect(after?.status == .verifying && after?.challengeHash == nil)
        }
    }

    @Test("50 redemptions of one result across two stores: exactly one succeeds")
    func redeemResultRace() async throws {
        try await withTwoStores("redeem") { stores in
            let token = Self.bytes()
            let flow = FlowRecord.fixture(
                id: "flow-redeem",
                kind: .authentication,
                status: .completed,
                resultTokenHash: token,
                resultExpiresAt: Self.now + 60
            )
            try await stores[0].createFlow(flow)
            let flowID = flow.id
            let winners = try await Self.winners(across: stores) { store in
                try await store.redeemResult(flowID: flowID, resultTokenHash: token, at: Self.now) != nil
            }
            #expect(winners == 1)
        }
    }

    @Test("20 registrations for one user across two stores against a limit of 5: exactly five succeed")
    func insertCredentialRace() async throws {
        try await withTwoStores("limit") { stores in
            let user = try await stores[0].createUserIfAbsent(
                UserRecord(id: "user-race", handle: Self.bytes(), name: "ada", displayName: "Ada", createdAt: Self.now)
            )
            let flow = FlowRecord.fixture(id: "flow-limit", status: .verifying, userID: user.id)
            try await stores[1].createFlow(flow)
            let outcomes = try await withThrowingTaskGroup(of: StoreError.Code?.self) { group in
                for index in 0..<20 {
                    let store = stores[index % 2]
                    let credential = Self.credential(
                        of: user.id,
                        name: "Key \(index)"
                    )
                    group.addTask {
                        do throws(StoreError) {
                            try await store.insertCredential(
                                credential,
                                maximumActive: 5,
                                flowID: flow.id,
                                flowUpdate: FlowUpdate(status: .completed),
                                at: Self.now
                            )
                            return nil
                        } catch {
                            return error.code
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == nil }.count == 5)
            #expect(outcomes.filter { $0 == .limitReached }.count == 15)
            #expect(try await stores[0].credentials(userID: user.id).count == 5)
            #expect(try await stores[1].credentials(userID: user.id).count == 5)
        }
    }

    @Test("the same name registered from two stores at once: one succeeds, the other is told the name is taken")
    func nameRace() async throws {
        try await withTwoStores("names") { stores in
            let user = try await stores[0].createUserIfAbsent(
                UserRecord(id: "user-names", handle: Self.bytes(), name: "ada", displayName: "Ada", createdAt: Self.now)
            )
            let flow = FlowRecord.fixture(id: "flow-names", status: .verifying, userID: user.id)
            try await stores[0].createFlow(flow)
            let outcomes = try await withThrowingTaskGroup(of: StoreError.Code?.self) { group in
                for index in 0..<10 {
                    let store = stores[index % 2]
                    let credential = Self.credential(
                        of: user.id,
                        status: index.isMultiple(of: 3) ? .reserved : .active,
                        reservedUntil: Self.now + 60
                    )
                    group.addTask {
                        do throws(StoreError) {
                            try await store.insertCredential(
                                credential,
                                maximumActive: 10,
                                flowID: flow.id,
                                flowUpdate: FlowUpdate(),
                                at: Self.now
                            )
                            return nil
                        } catch {
                            return error.code
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == nil }.count == 1)
            #expect(outcomes.filter { $0 == .nameTaken }.count == 9)
        }
    }

    @Test("an expired reservation claimed from two stores by 20 users while its flow settles: exactly one wins")
    func replaceReservationRace() async throws {
        try await withTwoStores("replace") { stores in
            func user(_ id: String) async throws -> UserRecord {
                try await stores[0].createUserIfAbsent(
                    UserRecord(id: id, handle: Self.bytes(), name: id, displayName: id, createdAt: Self.now)
                )
            }
            func flow(_ id: String, of userID: String) async throws -> FlowRecord {
                let flow = FlowRecord.fixture(id: id, status: .verifying, userID: userID, expiresAt: Self.now + 300)
                try await stores[1].createFlow(flow)
                return flow
            }
            let id = Self.bytes()
            func credential(of userID: String, flowID: String, reservedUntil: Date?) -> CredentialRecordRow {
                Self.credential(
                    of: userID,
                    id: id,
                    status: reservedUntil == nil ? .active : .reserved,
                    reservedUntil: reservedUntil,
                    flowID: flowID
                )
            }
            let owner = try await user("user-owner")
            let oldFlow = try await flow("flow-old", of: owner.id)
            try await stores[0].insertCredential(
                credential(of: owner.id, flowID: oldFlow.id, reservedUntil: Self.now + 60),
                maximumActive: 5,
                flowID: oldFlow.id,
                flowUpdate: FlowUpdate(status: .completed),
                at: Self.now
            )
            var claims: [(FlowRecord, CredentialRecordRow)] = []
            for index in 0..<20 {
                let claimant = try await user("user-\(index)")
                let flow = try await flow("flow-\(index)", of: claimant.id)
                claims.append((flow, credential(of: claimant.id, flowID: flow.id, reservedUntil: nil)))
            }
            // The old flow's server has a clock that lags behind: to it, the reservation is still live.
            let winners = try await withThrowingTaskGroup(of: String?.self) { group in
                group.addTask {
                    try await stores[1].settleReservation(
                        flowID: oldFlow.id,
                        finalize: true,
                        flowUpdate: FlowUpdate(status: .finalized),
                        at: Self.now + 30
                    ).map { _ in owner.id }
                }
                for (index, (flow, credential)) in claims.enumerated() {
                    let store = stores[index % 2]
                    group.addTask {
                        do throws(StoreError) {
                            try await store.insertCredential(
                                credential,
                                maximumActive: 5,
                                flowID: flow.id,
                                flowUpdate: FlowUpdate(status: .completed),
                                at: Self.now + 120
                            )
                            return credential.userID
                        } catch  where error.code == .credentialExists {
                            return nil
                        }
                    }
                }
                return try await group.compactMap { $0 }.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(winners.count == 1)
            let stored = try await stores[0].credential(id: id)
            #expect(stored?.userID == winners.first)
            #expect(stored?.status == .active)
        }
    }

    @Test("100 audit events appended from two stores at once: distinct sequence numbers, all paged in order")
    func auditRace() async throws {
        try await withTwoStores("audit") { stores in
            let appended = try await withThrowingTaskGroup(of: Int64.self) { group in
                for index in 0..<100 {
                    let store = stores[index % 2]
                    group.addTask {
                        try await store.appendAuditEvent(
                            AuditEvent(
                                time: Self.now,
                                actor: "system",
                                action: "test.appended",
                                details: ["index": "\(index)"]
                            )
                        ).sequence
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(appended).count == 100)
            var paged: [Int64] = []
            var cursor: Int64 = 0
            while true {
                let page = try await stores[1].auditEvents(after: cursor, limit: 7, userID: nil)
                guard let last = page.last else { break }
                paged += page.map(\.sequence)
                cursor = last.sequence
            }
            #expect(paged == appended.sorted())
        }
    }

    @Test("100 events for one key counted from two stores at once: each is counted, each sees its own count")
    func limitCountRace() async throws {
        try await withTwoStores("limits") { stores in
            let key = Self.bytes()
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<100 {
                    let store = stores[index % 2]
                    group.addTask { try await store.countLimitEvent(keyHash: key, window: 60, at: Self.now).count }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(counts.sorted() == Array(1...100))
            #expect(try await stores[1].limitWindows(keyHashes: [key], at: Self.now).map(\.count) == [100])
            // Once the window has ended, the next event from either store starts a new one.
            let restarted = try await stores[0].countLimitEvent(keyHash: key, window: 60, at: Self.now + 60)
            #expect(restarted == LimitWindow(keyHash: key, start: Self.now + 60, end: Self.now + 120, count: 1))
            #expect(try await stores[1].limitWindows(keyHashes: [key], at: Self.now + 61) == [restarted])
        }
    }

    @Test("an insert for a missing user or flow changes nothing")
    func insertRollsBack() async throws {
        try await withTwoStores("rollback") { stores in
            let user = try await stores[0].createUserIfAbsent(
                UserRecord(
                    id: "user-rollback",
                    handle: Self.bytes(),
                    name: "ada",
                    displayName: "Ada",
                    createdAt: Self.now
                )
            )
            let credential = Self.credential(
                of: user.id
            )
            let noFlow = await #expect(throws: StoreError.self) {
                try await stores[0].insertCredential(
                    credential,
                    maximumActive: 5,
                    flowID: "flow-missing",
                    flowUpdate: FlowUpdate(),
                    at: Self.now
                )
            }
            #expect(noFlow?.code == .notFound)
            #expect(try await stores[1].credential(id: credential.id) == nil)
            var stranger = credential
            stranger.userID = "user-missing"
            let noUser = await #expect(throws: StoreError.self) {
                try await stores[0].insertCredential(
                    stranger,
                    maximumActive: 5,
                    flowID: "flow-missing",
                    flowUpdate: FlowUpdate(),
                    at: Self.now
                )
            }
            #expect(noUser?.code == .notFound)
            #expect(
                try await stores[1].settleReservation(
                    flowID: "flow-missing",
                    finalize: true,
                    flowUpdate: FlowUpdate(),
                    at: Self.now
                ) == nil
            )
        }
    }
}
