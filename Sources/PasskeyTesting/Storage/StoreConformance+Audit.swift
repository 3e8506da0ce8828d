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
            // Other checks may append to a shared store meanwhile: the events after the cursor are ours and theirs.
            let page = try await store.auditEvents(after: appended[0].sequence, limit: 2, userID: nil)
            let rest = try await store.auditEvents(after: appended[0].sequence, limit: 1000, userID: nil)
                .filter { $0.sequence <= appended[4].sequence }
            try require(
                rest.allSatisfy { $0.sequence > appended[0].sequence }
                    && zip(rest, rest.dropFirst()).allSatisfy { $0.sequence < $1.sequence }
                    && Set(appended.dropFirst().map(\.sequence)).isSubset(of: rest.map(\.sequence)),
                "paging by cursor is wrong: \(rest.map(\.sequence)) after \(appended[0].sequence)"
            )
            try require(page.map(\.sequence) == rest.prefix(2).map(\.sequence), "paging by cursor is wrong")
            try require(
                rest.first { $0.sequence == appended[1].sequence } == appended[1],
                "a stored event differs from the appended one"
            )
            let mine = try await store.auditEvents(after: appended[0].sequence - 1, limit: 100, userID: userID)
            try require(mine.map(\.subject) == ["cred-0", "cred-2", "cred-4"], "filtering by user is wrong")
        },
        StoreConformanceCheck("newest first: the events before a cursor, highest sequence number first") { store in
            let userID = Fixture.id("user")
            let appended = try await appendEvents(store, count: 5, userID: { _ in userID })
            let mine = try await store.auditEvents(before: nil, limit: 100, userID: userID)
            try require(mine == appended.reversed(), "the events differ from the appended ones, newest first")
            let before = appended[4].sequence
            // Other checks may append to a shared store meanwhile, so only the sequence numbers are compared.
            let page = try await store.auditEvents(before: before, limit: 3, userID: nil)
            let expected = try await store.auditEvents(after: appended[0].sequence, limit: 100, userID: nil)
                .filter { $0.sequence < before }.reversed().prefix(3)
            try require(
                page.map(\.sequence) == expected.map(\.sequence),
                "before \(before), got \(page.map(\.sequence)) rather than \(expected.map(\.sequence))"
            )
            let latest = try await store.auditEvents(before: nil, limit: 1, userID: nil)
            try require(
                latest.count == 1 && latest[0].sequence >= appended[4].sequence,
                "without a cursor, the newest event must come first; got \(latest.map(\.sequence))"
            )
            try require(
                try await store.auditEvents(before: appended[0].sequence, limit: 100, userID: nil)
                    .allSatisfy { $0.sequence < appended[0].sequence },
                "an event at or after the cursor was returned"
            )
        },
        StoreConformanceCheck("newest first: paging with before visits every event once, newest first") { store in
            let appended = try await appendEvents(store, count: 7)
            let oldest = appended[0].sequence
            var visited: [Int64] = []
            var cursor: Int64? = appended[6].sequence + 1
            pages: while true {
                let page = try await store.auditEvents(before: cursor, limit: 2, userID: nil)
                try require(page.count <= 2, "a page of limit 2 held \(page.count) events")
                for event in page {
                    guard event.sequence >= oldest else { break pages }
                    visited.append(event.sequence)
                }
                guard let last = page.last else { break }
                cursor = last.sequence
            }
            let forward = try await store.auditEvents(after: oldest - 1, limit: 1000, userID: nil)
                .map(\.sequence).filter { $0 <= appended[6].sequence }
            try require(
                visited == forward.reversed(),
                "paging newest first visited \(visited), not \(Array(forward.reversed()))"
            )
            try require(
                Set(appended.map(\.sequence)).isSubset(of: visited),
                "paging newest first missed some of \(appended.map(\.sequence)): \(visited)"
            )
        },
        StoreConformanceCheck("newest first: filtered by user, and at most the limit") { store in
            let userID = Fixture.id("user")
            let appended = try await appendEvents(store, count: 7, userID: { $0 % 3 == 0 ? nil : userID })
            let mine = appended.filter { $0.userID == userID }.reversed().map(\.sequence)
            let all = try await store.auditEvents(before: nil, limit: 100, userID: userID)
            try require(all.map(\.sequence) == mine, "filtering by user gave \(all.map(\.sequence)), not \(mine)")
            let firstTwo = try await store.auditEvents(before: nil, limit: 2, userID: userID)
            try require(firstTwo.map(\.sequence) == Array(mine.prefix(2)), "a limit of 2 gave \(firstTwo.count)")
            let rest = try await store.auditEvents(before: mine[1], limit: 100, userID: userID)
            try require(
                rest.map(\.sequence) == Array(mine.dropFirst(2)),
                "filtered paging gave \(rest.map(\.sequence)) after \(firstTwo.map(\.sequence)), not \(mine)"
            )
            let one = try await store.auditEvents(before: appended[6].sequence + 1, limit: 1, userID: nil)
            try require(one.count == 1, "a limit of 1 gave \(one.count) events")
            try require(
                try await store.auditEvents(before: nil, limit: 0, userID: nil).isEmpty,
                "a limit of 0 must give no events"
            )
            try require(
                try await store.auditEvents(before: nil, limit: 100, userID: Fixture.id("nobody")).isEmpty,
                "a user without events must have none"
            )
        },
    ]

    /// Appends `count` events, a second apart, for the user `userID` gives each index (none by default).
    private static func appendEvents(
        _ store: any PasskeyStore,
        count: Int,
        userID: (Int) -> String? = { _ in nil }
    ) async throws -> [AuditEvent] {
        var appended: [AuditEvent] = []
        for index in 0..<count {
            appended.append(
                try await store.appendAuditEvent(
                    AuditEvent(
                        time: Fixture.now + Double(index),
                        actor: "api-key:test",
                        action: "credential.renamed",
                        userID: userID(index),
                        subject: "cred-\(index)",
                        requestID: "req-\(index)",
                        details: ["name": "Key \(index)"]
                    )
                )
            )
        }
        return appended
    }
}
