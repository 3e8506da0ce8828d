import Foundation
import PasskeyStorage
import WebAuthn

extension AccountFlow {
    struct AuditPage: Encodable, Sendable {
        let events: [AuditEventResponse]
        /// Pass as `after` (oldest first) or `before` (newest first) to get the next page; absent on the last page.
        let nextCursor: String?
    }

    struct AuditEventResponse: Encodable, Sendable {
        let sequence: Int64
        let time: Date
        let actor: String
        let action: String
        let userId: String?
        let subject: String?
        let requestId: String?
        let details: [String: String]
        /// The event's link in the hash chain (docs/server.md, "A tamper-evident audit log"), unpadded base64url;
        /// absent for events recorded before the chain.
        let hash: String?
        let previousHash: String?
    }

    /// The order of a page of the audit log: `oldest` pages forward (the next page's cursor is `after`), `newest`
    /// backward (its cursor is `before`); either may be bounded by the other parameter.
    enum AuditOrder: String {
        case oldest
        case newest
    }

    /// A page of the audit log, of the events after `after` and before `before` (each optional). `nextCursor` is
    /// the sequence number of the page's last event: pass it back as `after` (oldest first) or `before` (newest
    /// first), keeping the other bound, for the next page.
    func auditEvents(
        order: String?,
        after: String?,
        before: String?,
        limit: String?,
        userID: String?
    ) async throws(APIError) -> AuditPage {
        let order =
            try order.map { value throws(APIError) -> AuditOrder in
                guard let order = AuditOrder(rawValue: value) else {
                    throw APIError.invalidRequest("order must be oldest or newest.")
                }
                return order
            } ?? .oldest
        let size =
            try limit.map { value throws(APIError) -> Int in
                guard let size = Int(value), (1...500).contains(size) else {
                    throw APIError.invalidRequest("limit must be 1 to 500.")
                }
                return size
            } ?? 100
        if let userID { try Validation.userID(userID) }
        // A window: events after `after` and before `before`, both optional; the order chooses which end a
        // page starts from, and so which of the two the next page's cursor replaces.
        let lower = try after.map { value throws(APIError) in try Self.auditCursor(value, "after") }
        let upper = try before.map { value throws(APIError) in try Self.auditCursor(value, "before") }
        let fetched: [AuditEvent]
        switch order {
        case .oldest:
            fetched = try await storage {
                try await store.auditEvents(after: lower ?? 0, limit: size + 1, userID: userID)
            }
        case .newest:
            fetched = try await storage { try await store.auditEvents(before: upper, limit: size + 1, userID: userID) }
        }
        let events = fetched.filter { event in
            (lower.map { event.sequence > $0 } ?? true) && (upper.map { event.sequence < $0 } ?? true)
        }
        let page = events.prefix(size).map {
            AuditEventResponse(
                sequence: $0.sequence,
                time: $0.time,
                actor: $0.actor,
                action: $0.action,
                userId: $0.userID,
                subject: $0.subject,
                requestId: $0.requestID,
                details: $0.details,
                hash: $0.hash.map(Base64URL.encode),
                previousHash: $0.previousHash.map(Base64URL.encode)
            )
        }
        return AuditPage(events: page, nextCursor: events.count > size ? page.last.map { String($0.sequence) } : nil)
    }

    /// A sequence number given as `after` or `before`.
    private static func auditCursor(_ value: String, _ name: String) throws(APIError) -> Int64 {
        guard let cursor = Int64(value), cursor >= 0 else {
            throw APIError.invalidRequest("\(name) must be a cursor returned as nextCursor.")
        }
        return cursor
    }
}
