public import Foundation
public import PasskeyStorage

extension SQLitePasskeyStore: IdempotencyStore {
    public func claimIdempotencyKey(
        _ claim: IdempotencyClaim,
        at time: Date
    ) async throws(StoreError) -> IdempotencyClaimResult {
        // One session: reading the key and claiming it are one transaction on the store's one connection.
        try await connection.session { db in
            if let row = try db.rows(
                """
                SELECT request_hash, status, content_type, body, locked_until FROM idempotency_keys
                WHERE key_hash = ? AND expires_at > ?
                """,
                [Bind.bytes(claim.keyHash), Bind.date(time)]
            ).first {
                let stored = RowReader(row: row, table: "idempotency_keys")
                guard try stored.bytes("request_hash") == claim.requestHash else { return .mismatch }
                if case .integer(let status) = row.column("status") {
                    return .answer(
                        IdempotentAnswer(
                            status: Int(status),
                            contentType: try stored.optionalText("content_type") ?? "application/json",
                            body: try stored.optionalBytes("body") ?? []
                        )
                    )
                }
                if case .real(let lockedUntil) = row.column("locked_until"), lockedUntil > time.timeIntervalSince1970 {
                    return .running
                }
            }
            try db.execute(
                """
                INSERT OR REPLACE INTO idempotency_keys (key_hash, request_hash, locked_until, expires_at)
                VALUES (?, ?, ?, ?)
                """,
                [
                    Bind.bytes(claim.keyHash), Bind.bytes(claim.requestHash), Bind.date(claim.lockedUntil),
                    Bind.date(claim.expiresAt),
                ]
            )
            return .claimed
        }
    }

    public func finishIdempotencyKey(
        keyHash: [UInt8],
        requestHash: [UInt8],
        answer: IdempotentAnswer
    ) async throws(StoreError) {
        try await connection.session { db in
            try db.execute(
                """
                UPDATE idempotency_keys SET status = ?3, content_type = ?4, body = ?5
                WHERE key_hash = ?1 AND request_hash = ?2 AND status IS NULL
                """,
                [
                    Bind.bytes(keyHash), Bind.bytes(requestHash), Bind.integer(answer.status),
                    Bind.text(answer.contentType), Bind.bytes(answer.body),
                ]
            )
        }
    }

    public func releaseIdempotencyKey(keyHash: [UInt8], requestHash: [UInt8]) async throws(StoreError) {
        try await connection.session { db in
            try db.execute(
                "DELETE FROM idempotency_keys WHERE key_hash = ? AND request_hash = ? AND status IS NULL",
                [Bind.bytes(keyHash), Bind.bytes(requestHash)]
            )
        }
    }
}
