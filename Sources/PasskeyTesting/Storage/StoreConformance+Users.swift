import Foundation
import PasskeyStorage

extension StoreConformance {
    static let users: [StoreConformanceCheck] = [
        StoreConformanceCheck("a user round-trips, and creating it again returns the first record") { store in
            let user = Fixture.user()
            try require(try await store.createUserIfAbsent(user) == user, "created user differs")
            var again = user
            again.handle = Fixture.bytes()
            again.name = "other"
            try require(
                try await store.createUserIfAbsent(again) == user,
                "second create must return the existing user unchanged"
            )
            try require(try await store.user(id: user.id) == user, "user(id:) differs")
            try require(try await store.user(id: Fixture.id("missing")) == nil, "unknown user must be nil")
        },
        StoreConformanceCheck("two users cannot share a user handle") { store in
            let user = Fixture.user()
            _ = try await store.createUserIfAbsent(user)
            var other = Fixture.user()
            other.handle = user.handle
            try await requireStoreError(.duplicate) { _ = try await store.createUserIfAbsent(other) }
        },
        StoreConformanceCheck("deleting a user deletes their credentials and flows") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            let flow = Fixture.flow(userID: user.id)
            try await store.createFlow(flow)
            let credential = Fixture.credential(userID: user.id)
            try await store.insertCredential(
                credential,
                maximumActive: 10,
                flowID: flow.id,
                flowUpdate: FlowUpdate(status: .completed),
                at: Fixture.now
            )
            try require(try await store.deleteUser(id: user.id), "delete must report the user existed")
            try require(try await store.user(id: user.id) == nil, "user still there")
            try require(try await store.credential(id: credential.id) == nil, "credential still there")
            try require(try await store.flow(id: flow.id) == nil, "flow still there")
            try require(try await store.deleteUser(id: user.id) == false, "second delete must report false")
        },
    ]
}
