import Foundation
import PasskeyStorage

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
    }

    /// The order of a page of the audit log: `oldest` pages forward with `after`, `newest` backward with `before`.
    enum AuditOrder: String {
        case oldest
        case newest
    }

    /// A page of the audit log. `nextCursor` is the sequence number of the page's last event: pass it back as
    /// `after` (oldest first) or `before` (newest first) for the next page.
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
        let events: [AuditEvent]
        switch order {
        case .oldest:
            if before != nil {
                throw APIError.invalidRequest(
                    "before pages newest first: use it with order=newest, or pass nextCursor as after."
                )
            }
            let cursor = try after.map { value throws(APIError) in try Self.auditCursor(value, "after") } ?? 0
            events = try await storage { try await store.auditEvents(after: cursor, limit: size + 1, userID: userID) }
        case .newest:
            if after != nil {
                throw APIError.invalidRequest("after pages oldest first: with order=newest, pass nextCursor as before.")
            }
            let cursor = try before.map { value throws(APIError) in try Self.auditCursor(value, "before") }
            events = try await storage {
                try await store.auditEvents(before: cursor, limit: size + 1, userID: userID)
            }
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
                details: $0.details
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
