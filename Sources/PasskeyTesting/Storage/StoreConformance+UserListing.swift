import Foundation
import PasskeyStorage

extension StoreConformance {
    /// ``UserStore/users(matching:after:limit:order:)``. Other checks add and delete users on the same store at the same
    /// time, so each check tags its users with a random token and searches for it, or looks only at its own users in
    /// a listing of everyone.
    static let userListing: [StoreConformanceCheck] = [
        StoreConformanceCheck("users are listed in byte order of id, after the cursor, at most limit") { store in
            let tag = ListingFixture.tag()
            // Byte order; a locale's order would put `a` and `B` together, and `_`, `~` and `é` elsewhere.
            let suffixes = ["0", "B", "Z", "_", "a", "~", "\u{E9}"]
            var created: [String: UserRecord] = [:]
            for suffix in suffixes.shuffled() {
                let user = try await store.createUserIfAbsent(ListingFixture.user(id: "\(tag)-\(suffix)"))
                created[user.id] = user
            }
            let ids = suffixes.map { "\(tag)-\($0)" }
            let all = try await store.users(matching: tag, after: nil, limit: 100)
            try require(all.map(\.user.id) == ids, "expected \(ids) in this order, got \(all.map(\.user.id))")
            let afterZ = try await store.users(matching: tag, after: "\(tag)-Z", limit: 100)
            try require(afterZ.map(\.user.id) == Array(ids[3...]), "after must exclude the cursor and what precedes it")
            let two = try await store.users(matching: tag, after: "\(tag)-0", limit: 2)
            try require(two.map(\.user.id) == Array(ids[1...2]), "limit 2 after the first gave \(two.map(\.user.id))")
            // A cursor need not be an existing id.
            let fromPrefix = try await store.users(matching: tag, after: tag, limit: 1)
            try require(fromPrefix.map(\.user.id) == [ids[0]], "after a prefix of the ids must start at the first")
            for limit in [0, -1] {
                let none = try await store.users(matching: tag, after: nil, limit: limit)
                try require(none.isEmpty, "limit \(limit) must list nobody, listed \(none.count)")
            }
            let unfiltered = try await store.users(matching: nil, after: nil, limit: 3)
            try require(unfiltered.count == 3, "without a query, limit 3 listed \(unfiltered.count) users")
            try require(ListingFixture.isAscending(unfiltered.map(\.user.id)), "without a query the order is wrong")
            let empty = try await store.users(matching: "", after: "\(tag)-~", limit: 1)
            try require(empty.map(\.user.id) == [ids[6]], "an empty query must match everyone")
            try require(all.map(\.user) == ids.map { created[$0] }, "a listed user differs from the created one")
        },
        StoreConformanceCheck("in name order, users come in byte order of name, after a name cursor") { store in
            let tag = ListingFixture.tag()
            // Names in one order, ids in the opposite one: the listing must follow the names.
            let suffixes = ["B", "Z", "a", "\u{E9}"]
            for (index, suffix) in suffixes.enumerated() {
                _ = try await store.createUserIfAbsent(
                    ListingFixture.user(id: "\(tag)-\(suffixes.count - index)", name: "\(tag) \(suffix)")
                )
            }
            let names = suffixes.map { "\(tag) \($0)" }
            let all = try await store.users(matching: tag, after: nil, limit: 100, order: .name)
            try require(all.map(\.user.name) == names, "expected \(names) in this order, got \(all.map(\.user.name))")
            let afterZ = try await store.users(matching: tag, after: "\(tag) Z", limit: 1, order: .name)
            try require(afterZ.map(\.user.name) == [names[2]], "after a name must start at the next name")
        },
        StoreConformanceCheck("paging with the last id as the cursor lists every user once") { store in
            let tag = ListingFixture.tag()
            var ids: [String] = []
            for _ in 0..<7 {
                let user = try await store.createUserIfAbsent(ListingFixture.user(id: "\(tag)-\(UUID().uuidString)"))
                ids.append(user.id)
            }
            ids.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var paged: [String] = []
            var cursor: String?
            var pages = 0
            while pages < 10 {
                let page = try await store.users(matching: tag, after: cursor, limit: 3)
                try require(page.count <= 3, "a page of limit 3 has \(page.count) users")
                pages += 1
                paged += page.map(\.user.id)
                guard page.count == 3, let last = page.last else { break }
                cursor = last.user.id
            }
            try require(paged == ids, "paging by 3 gave \(paged), expected \(ids)")
            try require(pages == 3, "7 users in pages of 3 took \(pages) pages")

            // Everyone, without a query: this check's users appear once each, in order, among the others'.
            var everyone: [String] = []
            cursor = nil
            while true {
                let page = try await store.users(matching: nil, after: cursor, limit: 50)
                everyone += page.map(\.user.id)
                guard page.count == 50, let last = page.last else { break }
                cursor = last.user.id
            }
            try require(ListingFixture.isAscending(everyone), "paging through everyone is not in ascending order")
            try require(
                everyone.filter { $0.hasPrefix(tag) } == ids,
                "paging through everyone missed or repeated users"
            )
        },
        StoreConformanceCheck("the query matches id, name or display name, ignoring the case of ASCII letters") {
            store in
            let tag = ListingFixture.tag()
            let byID = ListingFixture.user(id: "\(tag)-one")
            let byName = ListingFixture.user(name: "grace.\(tag.uppercased())@example.com")
            let byDisplayName = ListingFixture.user(displayName: "Alan \(tag) Turing")
            let accented = ListingFixture.user(displayName: "\u{C9}MILE \(tag)")
            let other = ListingFixture.user(name: "\(tag.dropLast())", displayName: "Nobody")
            for user in [byID, byName, byDisplayName, accented, other] { _ = try await store.createUserIfAbsent(user) }

            func ids(_ query: String) async throws -> Set<String> {
                Set(try await store.users(matching: query, after: nil, limit: 100).map(\.user.id))
            }
            let tagged: Set = [byID.id, byName.id, byDisplayName.id, accented.id]
            let lower = try await ids(tag)
            try require(lower == tagged, "the tag in lower case found \(lower.subtracting(tagged).count) others")
            try require(try await ids(tag.uppercased()) == tagged, "the tag in upper case found other users")
            try require(try await ids("\(tag)-ONE") == [byID.id], "the id did not match ignoring case")
            try require(try await ids("GRACE.\(tag)@") == [byName.id], "the name did not match ignoring case")
            try require(try await ids("aLaN \(tag) tUrInG") == [byDisplayName.id], "the display name did not match")
            try require(try await ids("\u{C9}mile \(tag)") == [accented.id], "ASCII letters must match ignoring case")
            try require(
                try await ids("\u{E9}mile \(tag)").isEmpty,
                "only ASCII letters may be folded: \u{E9} is not \u{C9}"
            )
            try require(try await ids("\(tag)-one-more").isEmpty, "a query longer than every field matched")
        },
        StoreConformanceCheck("a query's %, _ and \\ match only themselves") { store in
            let tag = ListingFixture.tag()
            let underscore = ListingFixture.user(name: "\(tag)_x")
            let letter = ListingFixture.user(name: "\(tag)ax")
            let percent = ListingFixture.user(displayName: "\(tag) 100%")
            let digits = ListingFixture.user(displayName: "\(tag) 1000")
            let backslash = ListingFixture.user(name: #"\#(tag)\z"#)
            let plain = ListingFixture.user(name: "\(tag)z")
            for user in [underscore, letter, percent, digits, backslash, plain] {
                _ = try await store.createUserIfAbsent(user)
            }
            func ids(_ query: String) async throws -> [String] {
                try await store.users(matching: query, after: nil, limit: 100).map(\.user.id)
            }
            try require(try await ids("\(tag)_x") == [underscore.id], "_ must match only an underscore")
            try require(try await ids("\(tag) 100%") == [percent.id], "% must match only a percent sign")
            try require(try await ids("\(tag)%") == [], "% must not match any text")
            try require(try await ids(#"\#(tag)\z"#) == [backslash.id], #"\ must match only a backslash"#)
            try require(try await ids(#"\#(tag)\_"#) == [], #"\_ must not match an underscore alone"#)
        },
        StoreConformanceCheck("deleted users are no longer listed") { store in
            let tag = ListingFixture.tag()
            let ids = ["a", "b", "c"].map { "\(tag)-\($0)" }
            for id in ids { _ = try await store.createUserIfAbsent(ListingFixture.user(id: id)) }
            try require(try await store.deleteUser(id: ids[1]), "the user to delete was not found")
            let listed = try await store.users(matching: tag, after: nil, limit: 100).map(\.user.id)
            try require(listed == [ids[0], ids[2]], "after deleting \(ids[1]), listed \(listed)")
            let afterDeleted = try await store.users(matching: tag, after: ids[1], limit: 100).map(\.user.id)
            try require(afterDeleted == [ids[2]], "the deleted user's id as the cursor listed \(afterDeleted)")
        },
        StoreConformanceCheck("each listed user has the number of their active credentials") { store in
            let tag = ListingFixture.tag()
            let busy = try await store.createUserIfAbsent(ListingFixture.user(id: "\(tag)-busy"))
            _ = try await store.createUserIfAbsent(ListingFixture.user(id: "\(tag)-idle"))
            let other = try await store.createUserIfAbsent(ListingFixture.user(id: "\(tag)-other"))
            var inserted: [CredentialRecordRow] = []
            for (user, name, status) in [
                (busy, "One", CredentialRecordRow.Status.active), (busy, "Two", .active), (busy, "Three", .active),
                (busy, "Pending", .reserved), (other, "Theirs", .active),
            ] {
                let flow = Fixture.flow(userID: user.id)
                try await store.createFlow(flow)
                let credential = Fixture.credential(
                    userID: user.id,
                    name: name,
                    status: status,
                    reservedUntil: status == .reserved ? Fixture.now + 300 : nil,
                    flowID: flow.id
                )
                try await store.insertCredential(
                    credential,
                    maximumActive: 10,
                    flowID: flow.id,
                    flowUpdate: FlowUpdate(status: .completed),
                    at: Fixture.now
                )
                inserted.append(credential)
            }
            try require(
                try await store.revokeCredential(id: inserted[2].id, at: Fixture.now) != nil,
                "the credential to revoke was not live"
            )
            let counts = try await store.users(matching: tag, after: nil, limit: 100).map {
                "\($0.user.id.dropFirst(tag.count + 1))=\($0.activeCredentials)"
            }
            try require(counts == ["busy=2", "idle=0", "other=1"], "active credentials per user: \(counts)")
        },
    ]
}

/// Users for the listing checks, tagged so that each check can find its own among the others'.
enum ListingFixture {
    /// A random token that no other check's user contains, in lower case.
    static func tag() -> String { "t\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))" }

    static func user(
        id: String = Fixture.id("user"),
        name: String = Fixture.id("ada") + "@example.com",
        displayName: String = "Ada Lovelace"
    ) -> UserRecord {
        UserRecord(id: id, handle: Fixture.bytes(), name: name, displayName: displayName, createdAt: Fixture.now)
    }

    /// Whether each id's UTF-8 bytes come after the previous one's.
    static func isAscending(_ ids: [String]) -> Bool {
        zip(ids, ids.dropFirst()).allSatisfy { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
