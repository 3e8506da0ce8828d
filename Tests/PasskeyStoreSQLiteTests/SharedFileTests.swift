import Foundation
import PasskeyStorage
import PasskeyStoreSQLite
import Testing

/// Two stores on one file have two connections, as two server processes sharing the file would.
@Suite("Two stores on one file")
struct SharedFileTests {
    @Test("50 consumers of one challenge, split across two stores: exactly one wins")
    func consumeAcrossConnections() async throws {
        try await withTemporaryDirectory { directory in
            try await withStore(at: directory.file()) { first in
                try await withStore(at: directory.file()) { second in
                    let challenge = Sample.bytes()
                    var flow = Sample.flow(userID: nil, status: .optionsIssued)
                    flow.challengeHash = challenge
                    flow.challengeExpiresAt = Sample.now + 60
                    try await first.createFlow(flow)
                    let flowID = flow.id
                    let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                        for index in 0..<50 {
                            let store = index.isMultiple(of: 2) ? first : second
                            group.addTask {
                                try await store.consumeChallenge(
                                    flowID: flowID,
                                    challengeHash: challenge,
                                    at: Sample.now
                                ) != nil
                            }
                        }
                        return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                    }
                    #expect(winners == 1)
                    #expect(try await second.flow(id: flowID)?.status == .verifying)
                    #expect(try await first.flow(id: flowID)?.challengeHash == nil)
                }
            }
        }
    }

    @Test("20 registrations against a limit of 5, split across two stores: exactly 5 succeed")
    func limitAcrossConnections() async throws {
        try await withTemporaryDirectory { directory in
            try await withStore(at: directory.file()) { first in
                try await withStore(at: directory.file()) { second in
                    let user = try await first.createUserIfAbsent(Sample.user())
                    let flow = Sample.flow(userID: user.id)
                    try await second.createFlow(flow)
                    let inserted = try await withThrowingTaskGroup(of: Bool.self) { group in
                        for index in 0..<20 {
                            let store = index.isMultiple(of: 2) ? first : second
                            group.addTask {
                                do {
                                    try await store.insertCredential(
                                        Sample.credential(userID: user.id, name: "Key \(index)"),
                                        maximumActive: 5,
                                        flowID: flow.id,
                                        flowUpdate: FlowUpdate(),
                                        at: Sample.now
                                    )
                                    return true
                                } catch let error as StoreError where error.code == .limitReached {
                                    return false
                                }
                            }
                        }
                        return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                    }
                    #expect(inserted == 5)
                    #expect(try await first.credentials(userID: user.id).count == 5)
                }
            }
        }
    }

    @Test("100 events for one key, split across two stores: each is counted once")
    func countAcrossConnections() async throws {
        try await withTemporaryDirectory { directory in
            try await withStore(at: directory.file()) { first in
                try await withStore(at: directory.file()) { second in
                    let key = Sample.bytes()
                    let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                        for index in 0..<100 {
                            let store = index.isMultiple(of: 2) ? first : second
                            group.addTask {
                                try await store.countLimitEvent(keyHash: key, window: 60, at: Sample.now).count
                            }
                        }
                        return try await group.reduce(into: [Int]()) { $0.append($1) }
                    }
                    #expect(counts.sorted() == Array(1...100))
                    #expect(try await first.limitWindows(keyHashes: [key], at: Sample.now).map(\.count) == [100])
                }
            }
        }
    }

    @Test("a write through one store is read through the other")
    func visibility() async throws {
        try await withTemporaryDirectory { directory in
            try await withStore(at: directory.file()) { first in
                try await withStore(at: directory.file()) { second in
                    #expect(second.migrationsApplied.isEmpty)
                    let user = try await first.createUserIfAbsent(Sample.user())
                    #expect(try await second.user(id: user.id) == user)
                    #expect(try await second.deleteUser(id: user.id))
                    #expect(try await first.user(id: user.id) == nil)
                }
            }
        }
    }
}

@Suite("Cancellation")
struct CancellationTests {
    @Test("callers cancelled at any point never leave a transaction open or the write lock held")
    func cancelledCallers() async throws {
        try await withTemporaryDirectory { directory in
            try await withStore(at: directory.file()) { store in
                let user = try await store.createUserIfAbsent(Sample.user())
                let flow = Sample.flow(userID: user.id)
                try await store.createFlow(flow)
                for round in 0..<20 {
                    let tasks = (0..<10).map { index in
                        Task {
                            try await store.insertCredential(
                                Sample.credential(userID: user.id, name: "Key \(round)-\(index)"),
                                maximumActive: 1_000,
                                flowID: flow.id,
                                flowUpdate: FlowUpdate(payload: [UInt8(index)]),
                                at: Sample.now
                            )
                        }
                    }
                    for _ in 0..<round { await Task.yield() }
                    for task in tasks { task.cancel() }
                    for task in tasks { _ = await task.result }
                }
                // The store and the file still take writes, from this connection and from another. A lock left held
                // is held for good, so the other connection's wait may be long: a loaded machine's checkpoint is not
                // mistaken for it.
                let stored = try await store.credentials(userID: user.id)
                #expect(stored.count <= 200)
                try await withStore(at: directory.file(), busyTimeout: .seconds(10)) { other in
                    _ = try await other.createUserIfAbsent(Sample.user())
                }
                _ = try await store.createUserIfAbsent(Sample.user())
            }
        }
    }
}
