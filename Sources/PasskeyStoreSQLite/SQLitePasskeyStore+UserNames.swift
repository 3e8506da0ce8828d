import Foundation
public import PasskeyStorage

extension SQLitePasskeyStore {
    public func user(name: String) async throws(StoreError) -> UserRecord? {
        try await connection.session { db in try Self.user(db, where: "name = ?", Bind.text(name)) }
    }
}
