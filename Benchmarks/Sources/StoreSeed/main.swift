import Foundation
import PasskeyStorage
import PasskeyStorePostgres
import PasskeyStoreSQLite

// Fills a store with users and credentials through `PasskeyStore.importUsers`, for the scale runs of
// Benchmarks/http-load.sh (`--preload N`): N users with one active credential each, in transactions of 1,000.
//
//   StoreSeed sqlite:seeded.sqlite 1000000
//   StoreSeed 'postgres://user:password@127.0.0.1:5432/db?search_path=bench' 100000
//
// The credentials are never used to sign in (their public keys are random bytes): they make the tables, and
// their indexes, as large as a deployment's.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("StoreSeed: \(message)\n".utf8))
    exit(2)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let url = arguments.first, let total = Int(arguments.last ?? ""), total >= 0 else {
    fail("usage: StoreSeed sqlite:PATH|postgres://… COUNT")
}

let store: any PasskeyStore
let close: () async -> Void
do {
    if url.hasPrefix("sqlite:") {
        // The path, without the server's options (`?synchronous=…`).
        let path = url.dropFirst("sqlite:".count).prefix { $0 != "?" }
        let sqlite = try await SQLitePasskeyStore.open(path: String(path))
        (store, close) = (sqlite, { await sqlite.close() })
    } else {
        let postgres = try await PostgresPasskeyStore.connect(url: url)
        (store, close) = (postgres, { await postgres.shutdown() })
    }
} catch {
    fail("cannot open \(url): \(error)")
}

func random(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
}

let created = Date()
let started = ContinuousClock.now
let batch = 1_000
for first in stride(from: 0, to: total, by: batch) {
    let entries = (first..<min(first + batch, total)).map { index in
        let user = UserRecord(
            id: "seed-\(index)",
            handle: random(32),
            name: "seed-\(index)@example.com",
            displayName: "Seeded user \(index)",
            createdAt: created
        )
        let credential = CredentialRecordRow(
            id: random(32),
            userID: user.id,
            publicKey: random(77),
            algorithm: -7,
            signCount: 0,
            aaguid: "00000000-0000-0000-0000-000000000000",
            attestationFormat: "none",
            attestationType: "none",
            attestationTrusted: false,
            transports: ["internal", "hybrid"],
            backupEligible: true,
            backupState: true,
            userVerified: true,
            name: "Passkey",
            nameKey: "passkey",
            status: .active,
            reservedUntil: nil,
            flowID: nil,
            createdAt: created
        )
        return UserCredentials(user: user, credentials: [credential])
    }
    do {
        try await store.importUsers(entries)
    } catch {
        await close()
        fail("the import stopped after \(first) users: \(error)")
    }
}
await close()
let seconds = Double(started.duration(to: .now).components.seconds)
print("StoreSeed: \(total) users with one credential each in \(Int(seconds)) s")
