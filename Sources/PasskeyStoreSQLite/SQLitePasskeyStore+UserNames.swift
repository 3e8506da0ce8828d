import Foundation
public import PasskeyStorage
import SQLiteNIO

extension SQLitePasskeyStore {
    public func user(name: String) async throws(StoreError) -> UserRecord? {
        try await lease.withSession { session in try await Self.user(session, where: "name = ?", Bind.text(name)) }
    }
}
