import Foundation
import PasskeyStorage
import PasskeyTesting
import SQLiteNIO
import Testing

@testable import PasskeyStoreSQLite

/// A fresh directory under the system's temporary directory, removed by ``withTemporaryDirectory(_:)``.
struct TemporaryDirectory {
    let path: String

    /// A file path inside the directory.
    func file(_ name: String = "passkeys.sqlite") -> String { path + "/" + name }
}

func withTemporaryDirectory<T>(_ body: (TemporaryDirectory) async throws -> T) async throws -> T {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("passkeys-sqlite-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        try? FileManager.default.removeItem(at: url)
    }
    return try await body(TemporaryDirectory(path: url.path))
}

/// Opens a store on `path`, runs `body`, and closes the store whatever happened.
func withStore<T>(
    at path: String,
    busyTimeout: Duration = .seconds(5),
    _ body: (SQLitePasskeyStore) async throws -> T
) async throws -> T {
    let store = try await SQLitePasskeyStore.open(path: path, busyTimeout: busyTimeout)
    do {
        let result = try await body(store)
        await store.close()
        return result
    } catch {
        await store.close()
        throw error
    }
}

/// Runs SQL on the file directly, as a person with the sqlite3 shell would.
func withRawConnection<T>(to path: String, _ body: (SQLiteConnection) async throws -> T) async throws -> T {
    let connection = try await SQLiteConnection.open(storage: .file(path: path))
    do {
        let result = try await body(connection)
        try await connection.close()
        return result
    } catch {
        try? await connection.close()
        throw error
    }
}

/// The error `body` threw, which must be a ``StoreError``; nil when it succeeded.
func storeError(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async -> StoreError?
{
    do {
        try await body()
        return nil
    } catch let error as StoreError {
        return error
    } catch {
        Issue.record("expected a StoreError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

enum Sample {
    static let now = TestTime.fixed

    static func bytes(_ count: Int = 32) -> [UInt8] { TestTime.randomBytes(count) }

    /// A new user with a name of their own (user names are unique).
    static func user() -> UserRecord { .fixture() }

    static func flow(userID: String?, status: FlowStatus = .created) -> FlowRecord {
        .fixture(status: status, userID: userID, payload: Array(#"{"a":1}"#.utf8))
    }

    static func credential(userID: String, name: String = "Phone") -> CredentialRecordRow {
        CredentialRecordRow(
            id: bytes(),
            userID: userID,
            publicKey: bytes(77),
            algorithm: -7,
            signCount: 3,
            aaguid: "00000000-0000-0000-0000-000000000000",
            attestationFormat: "none",
            attestationType: "none",
            attestationTrusted: false,
            transports: ["internal"],
            backupEligible: true,
            backupState: false,
            userVerified: true,
            name: name,
            nameKey: name.lowercased(),
            status: .active,
            createdAt: now
        )
    }
}

extension SQLValue {
    /// The value for a raw SQLiteNIO connection.
    var sqliteData: SQLiteData {
        switch self {
        case .null: .null
        case .integer(let integer): .integer(Int(integer))
        case .real(let real): .float(real)
        case .text(let text): .text(text)
        case .blob(let bytes): .blob(ByteBuffer(bytes: bytes))
        }
    }
}
