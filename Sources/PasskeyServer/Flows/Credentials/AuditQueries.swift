import Foundation
import PasskeyStorage

extension PasskeyService {
    struct AuditPage: Encodable, Sendable {
        let events: [AuditEventResponse]
        /// Pass as `after` to get the next page; absent on the last page.
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

    func auditEvents(after: String?, limit: String?, userID: String?) async throws(APIError) -> AuditPage {
        let cursor =
            try after.map { value throws(APIError) -> Int64 in
                guard let cursor = Int64(value), cursor >= 0 else {
                    throw APIError.invalidRequest("after must be a cursor returned as nextCursor.")
                }
                return cursor
            } ?? 0
        let size =
            try limit.map { value throws(APIError) -> Int in
                guard let size = Int(value), (1...500).contains(size) else {
                    throw APIError.invalidRequest("limit must be 1 to 500.")
                }
                return size
            } ?? 100
        if let userID { try Validation.userID(userID) }
        let events = try await storage { try await store.auditEvents(after: cursor, limit: size + 1, userID: userID) }
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
}
