import Foundation
import PasskeyStorage

extension StoreConformance {
    static let importing: [StoreConformanceCheck] = [
        StoreConformanceCheck("imported users and credentials read back as given") { store in
            let entries = (0..<3).map { _ in Fixture.importEntry() }
            try await store.importUsers(entries)
            for entry in entries {
                let live = entry.credentials.filter { $0.status != .revoked }
                    .sorted { $0.id.lexicographicallyPrecedes($1.id) }
                let read = try await store.userWithCredentials(id: entry.user.id)
                let expected = UserCredentials(user: entry.user, credentials: live)
                try require(read == expected, "expected \(expected), got \(String(describing: read))")
                for credential in entry.credentials {
                    try require(try await store.credential(id: credential.id) == credential, "credential round-trip")
                }
            }
        },
        StoreConformanceCheck("an import with one record in use inserts nothing") { store in
            let stored = Fixture.importEntry()
            try await store.importUsers([stored])
            var sameCredential = Fixture.importEntry()
            sameCredential.credentials[0].id = stored.credentials[0].id
            var sameHandle = Fixture.importEntry()
            sameHandle.user.handle = stored.user.handle
            for (clash, code) in [(sameCredential, StoreError.Code.credentialExists), (sameHandle, .duplicate)] {
                let fresh = Fixture.importEntry()
                try await requireStoreError(code) { try await store.importUsers([fresh, clash]) }
                try require(try await store.user(id: fresh.user.id) == nil, "the import must insert nothing")
                try require(try await store.user(id: clash.user.id) == nil, "the import must insert nothing")
            }
            let twice = Fixture.importEntry()
            try await requireStoreError(.duplicate) { try await store.importUsers([twice, twice]) }
            try require(try await store.user(id: twice.user.id) == nil, "a user twice in one import inserts nothing")
        },
        StoreConformanceCheck("an imported credential must belong to its entry's user") { store in
            var entry = Fixture.importEntry()
            entry.credentials[1].userID = Fixture.id("user")
            try await requireStoreError(.notFound) { try await store.importUsers([entry]) }
            try require(try await store.user(id: entry.user.id) == nil, "the import must insert nothing")
        },
    ]
}

extension Fixture {
    /// A user with two active credentials and a revoked one.
    static func importEntry() -> UserCredentials {
        let user = user()
        var revoked = credential(userID: user.id, name: "Old", status: .revoked)
        revoked.revokedAt = now + 5
        var used = credential(userID: user.id, name: "Laptop")
        used.signCount = 12
        used.lastUsedAt = now + 3
        return UserCredentials(user: user, credentials: [credential(userID: user.id), used, revoked])
    }
}
