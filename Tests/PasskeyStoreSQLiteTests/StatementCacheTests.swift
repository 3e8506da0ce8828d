import Foundation
import PasskeyStorage
import PasskeyTesting
import Testing

@testable import PasskeyStoreSQLite

/// The connection prepares each statement once and runs it again with new values: SQLite must not have to prepare it
/// again on every run.
@Suite("SQLite statement cache")
struct StatementCacheTests {
    @Test("reading users' passkeys (an ORDER BY along the index that `user_id = ?` starts) prepares nothing again")
    func noReprepareOnNewValues() async throws {
        try await withTemporaryDirectory { directory in
            try await withStore(at: directory.file()) { store in
                var users: [UserRecord] = []
                for _ in 0..<5 {
                    let user = try await store.createUserIfAbsent(.fixture())
                    let flow = FlowRecord.fixture(userID: user.id)
                    try await store.createFlow(flow)
                    try await store.insertCredential(
                        .fixture(userID: user.id),
                        maximumActive: 10,
                        flowID: flow.id,
                        flowUpdate: FlowUpdate(),
                        at: TestTime.fixed
                    )
                    users.append(user)
                }
                let before = try await store.connection.session { db in db.reprepares }
                for user in users + users {
                    let read = try await store.userWithCredentials(id: user.id)
                    #expect(read?.credentials.count == 1)
                }
                let after = try await store.connection.session { db in db.reprepares }
                #expect(after == before, "statements were prepared again \(after - before) times")
            }
        }
    }
}
