import Foundation
import PasskeyStorage

extension StoreConformance {
    static let audit: [StoreConformanceCheck] = [
        StoreConformanceCheck("audit events get increasing sequence numbers and page by cursor and user") { store in
            let userID = Fixture.id("user")
            var appended: [AuditEvent] = []
            for index in 0..<5 {
                appended.append(
                    try await store.appendAuditEvent(
                        AuditEvent(
                            time: Fixture.now + Double(index),
                            actor: "api-key:test",
                            action: "credential.renamed",
                            userID: index % 2 == 0 ? userID : nil,
                            subject: "cred-\(index)",
                            requestID: "req-\(index)",
                            details: ["name": "Key \(index)"]
                        )
                    )
                )
            }
            try require(
                zip(appended, appended.dropFirst()).allSatisfy { $0.sequence < $1.sequence },
                "sequence numbers must increase"
            )
            let page = try await store.auditEvents(after: appended[0].sequence, limit: 2, userID: nil)
            try require(
                page.map(\.sequence) == [appended[1].sequence, appended[2].sequence],
                "paging by cursor is wrong"
            )
            try require(page.first == appended[1], "a stored event differs from the appended one")
            let mine = try await store.auditEvents(after: appended[0].sequence - 1, limit: 100, userID: userID)
            try require(mine.map(\.subject) == ["cred-0", "cred-2", "cred-4"], "filtering by user is wrong")
        }
    ]
}
