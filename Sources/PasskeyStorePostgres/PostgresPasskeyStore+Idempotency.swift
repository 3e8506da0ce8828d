public import Foundation
public import PasskeyStorage
import PostgresNIO

extension PostgresPasskeyStore: IdempotencyStore {
    public func claimIdempotencyKey(
        _ claim: IdempotencyClaim,
        at time: Date
    ) async throws(StoreError) -> IdempotencyClaimResult {
        // The insert claims the key, or takes over one that expired or whose first request stopped without an
        // answer; the primary key lets one of racing claims through, on any number of servers. When it claimed
        // nothing, the key as it stands says why.
        for _ in 0..<3 {
            let claimed = try await rows(
                """
                INSERT INTO idempotency_keys (key_hash, request_hash, locked_until, expires_at)
                VALUES (\(claim.keyHash.bytea), \(claim.requestHash.bytea), \(claim.lockedUntil), \(claim.expiresAt))
                ON CONFLICT (key_hash) DO UPDATE SET request_hash = EXCLUDED.request_hash, status = NULL,
                    content_type = NULL, body = NULL, locked_until = EXCLUDED.locked_until,
                    expires_at = EXCLUDED.expires_at
                WHERE idempotency_keys.expires_at <= \(time)
                    OR (idempotency_keys.status IS NULL AND idempotency_keys.locked_until <= \(time)
                        AND idempotency_keys.request_hash = EXCLUDED.request_hash)
                RETURNING key_hash
                """,
                doing: "claim an idempotency key"
            )
            if !claimed.isEmpty { return .claimed }
            let stored = try await rows(
                """
                SELECT request_hash, status, content_type, body FROM idempotency_keys
                WHERE key_hash = \(claim.keyHash.bytea) AND expires_at > \(time)
                """,
                doing: "read an idempotency key"
            )
            // Gone in between (released, or purged): claim it again.
            guard let row = stored.first else { continue }
            let reader = RowReader(row, record: "idempotency key")
            guard try reader.bytes("request_hash") == claim.requestHash else { return .mismatch }
            guard let status = try reader("status", as: Int32?.self) else { return .running }
            return .answer(
                IdempotentAnswer(
                    status: Int(status),
                    contentType: try reader("content_type", as: String?.self) ?? "application/json",
                    body: try reader.optionalBytes("body") ?? []
                )
            )
        }
        return .running
    }

    public func finishIdempotencyKey(
        keyHash: [UInt8],
        requestHash: [UInt8],
        answer: IdempotentAnswer
    ) async throws(StoreError) {
        _ = try await rows(
            """
            UPDATE idempotency_keys SET status = \(Int32(clamping: answer.status)), content_type = \(answer.contentType),
                body = \(answer.body.bytea)
            WHERE key_hash = \(keyHash.bytea) AND request_hash = \(requestHash.bytea) AND status IS NULL
            """,
            doing: "store an idempotent answer"
        )
    }

    public func releaseIdempotencyKey(keyHash: [UInt8], requestHash: [UInt8]) async throws(StoreError) {
        _ = try await rows(
            """
            DELETE FROM idempotency_keys WHERE key_hash = \(keyHash.bytea) AND request_hash = \(requestHash.bytea) AND status IS NULL
            """,
            doing: "release an idempotency key"
        )
    }
}
