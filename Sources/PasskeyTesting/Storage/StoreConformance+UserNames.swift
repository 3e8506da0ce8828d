import Foundation
import PasskeyStorage

extension StoreConformance {
    static let userNames: [StoreConformanceCheck] = [
        StoreConformanceCheck("a user is found by their exact name; another user cannot take it") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            try require(try await store.user(name: user.name) == user, "user(name:) differs")
            try require(try await store.user(name: user.name.uppercased()) == nil, "names compare exactly")
            try require(try await store.user(name: Fixture.id("nobody")) == nil, "an unknown name must be nil")
            var other = Fixture.user()
            other.name = user.name
            try await requireStoreError(.nameTaken) { _ = try await store.createUserIfAbsent(other) }
            try require(try await store.user(id: other.id) == nil, "a refused create must store nothing")
            // The same user again, under their own id, is no conflict.
            try require(try await store.createUserIfAbsent(user) == user, "creating the user again must return them")
        },
        StoreConformanceCheck("a deleted user's name is free again") { store in
            let user = try await store.createUserIfAbsent(Fixture.user())
            try require(try await store.deleteUser(id: user.id), "delete must report the user existed")
            var successor = Fixture.user()
            successor.name = user.name
            try require(try await store.createUserIfAbsent(successor) == successor, "the name must be free")
            try require(try await store.user(name: user.name)?.id == successor.id, "the name finds the new user")
        },
        StoreConformanceCheck("of two racing creates of one name under different ids, exactly one succeeds") { store in
            for _ in 0..<5 {
                let shared = Fixture.id("racer") + "@example.com"
                let candidates = (0..<2).map { _ in
                    var user = Fixture.user()
                    user.name = shared
                    return user
                }
                let outcomes = await withTaskGroup(of: Result<UserRecord, StoreError>.self) { group in
                    for candidate in candidates {
                        group.addTask {
                            do {
                                return .success(try await store.createUserIfAbsent(candidate))
                            } catch let error as StoreError {
                                return .failure(error)
                            } catch {
                                return .failure(StoreError(.unavailable, "\(error)"))
                            }
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                let created = outcomes.compactMap { try? $0.get() }
                let refused = outcomes.compactMap { outcome -> StoreError? in
                    if case .failure(let error) = outcome { return error }
                    return nil
                }
                try require(created.count == 1, "expected one create to succeed, got \(outcomes)")
                try require(refused.map(\.code) == [.nameTaken], "expected the other to be nameTaken, got \(refused)")
                try require(try await store.user(name: shared)?.id == created.first?.id, "the name finds the winner")
            }
        },
    ]
}
