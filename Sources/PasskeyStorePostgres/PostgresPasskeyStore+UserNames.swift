import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore {
    public func user(name: String) async throws(StoreError) -> UserRecord? {
        try await rows(
            "SELECT \(unescaped: Columns.list(Columns.user)) FROM users WHERE name = \(name)",
            doing: "read the user"
        )
        .first.map { row throws(StoreError) in try UserRecord(row) }
    }
}
