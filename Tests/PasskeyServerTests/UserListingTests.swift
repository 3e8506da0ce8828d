import Foundation
import HTTPTypes
import PasskeyStorage
import PasskeyTesting
import Testing
import WebAuthn

@testable import PasskeyServer

/// `GET /v1/users`: users in order of id, a page at a time, with a search and each user's count of active passkeys.
struct UserListingTests {
    @Test func listsUsersInOrderOfIDWithTheirActivePasskeys() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            var laptop = TestAuthenticator()
            try await api.enroll(
                NewRegistration(userId: "carol", userName: "carol@example.com", displayName: "Carol Shaw"),
                authenticator: &phone
            )
            try await api.enroll("carol", authenticator: &laptop)
            #expect(try await api.backend(.delete, Path.credential(laptop.credentialIDText)).status == .noContent)
            let start = server.clock.now
            server.clock.advance(by: 60)
            // A registration that never completes still creates its user, with no passkey.
            _ = try await api.createRegistration(NewRegistration(userId: "Bob", userName: "bob@example.com"))
            var key = TestAuthenticator()
            _ = try await api.enroll("alice", authenticator: &key)

            let page = try await api.users()
            #expect(page.users.map(\.userId) == ["Bob", "alice", "carol"], "ids in byte order: capitals first")
            #expect(page.nextCursor == nil)
            #expect(
                page.users[2]
                    == UserPageView.User(
                        userId: "carol",
                        userName: "carol@example.com",
                        displayName: "Carol Shaw",
                        createdAt: ISO8601DateFormatter().string(from: start),
                        activeCredentials: 1
                    )
            )
            #expect(page.users[0].displayName == "bob@example.com", "the display name defaults to the user name")
            #expect(page.users[0].createdAt == ISO8601DateFormatter().string(from: start + 60))
            #expect(page.users.map(\.activeCredentials) == [0, 1, 1])

            // The JSON has exactly these members; the last page has no nextCursor.
            let json = try await api.backend(.get, "/v1/users").json()
            #expect(json.object.map { Set($0.keys) } == ["users"])
            #expect(
                json["users"]?[0]?.object.map { Set($0.keys) }
                    == ["userId", "userName", "displayName", "createdAt", "activeCredentials"]
            )
        }
    }

    @Test func pagesWithTheLastIDAsTheCursor() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let ids = (1...7).map { "user-\($0)" }
            for id in ids.shuffled() { _ = try await api.createRegistration(NewRegistration(userId: id)) }
            var listed: [String] = []
            var query = "?limit=3"
            var pages = 0
            while pages < 10 {
                let page = try await api.users(query: query)
                pages += 1
                #expect(page.users.count <= 3)
                listed += page.users.map(\.userId)
                guard let cursor = page.nextCursor else { break }
                #expect(cursor == page.users.last?.userId)
                query = "?limit=3&after=\(cursor)"
            }
            #expect(pages == 3)
            #expect(listed == ids)
            #expect(try await api.users().users.count == 7, "20 users by default")
            // Exactly a page: no cursor to an empty page.
            #expect(try await api.users(query: "?limit=7").nextCursor == nil)
            #expect(try await api.users(query: "?limit=6").nextCursor == "user-6")
            #expect(try await api.users(query: "?after=user-7").users.isEmpty)
            #expect(try await api.users(query: "?after=user-3&limit=2").users.map(\.userId) == ["user-4", "user-5"])
        }
    }

    @Test func searchesIDNameAndDisplayNameIgnoringCase() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            for registration in [
                NewRegistration(userId: "ada", userName: "ada@example.com", displayName: "Ada Lovelace"),
                NewRegistration(userId: "u-2", userName: "GRACE@example.com", displayName: "Grace Hopper"),
                NewRegistration(userId: "u-3", userName: "alan@example.com", displayName: "Alan Turing"),
                NewRegistration(userId: "u-4", userName: "deal_100%@example.com", displayName: "Percent"),
                NewRegistration(userId: "u-5", userName: "dealx1000@example.com", displayName: "Digits"),
            ] {
                _ = try await api.createRegistration(registration)
            }
            func ids(_ query: String) async throws -> [String] {
                try await api.users(query: "?query=\(query)").users.map(\.userId)
            }
            #expect(try await ids("ADA") == ["ada"])
            #expect(try await ids("grace%40") == ["u-2"], "the user name, ignoring case")
            #expect(try await ids("turing") == ["u-3"], "the display name, ignoring case")
            #expect(try await ids("example.com").count == 5)
            #expect(try await ids("").count == 5, "an empty query lists everyone")
            #expect(try await ids("_100%25") == ["u-4"], "% and _ are plain characters")
            #expect(try await ids("%25") == ["u-4"])
            #expect(try await ids("nobody").isEmpty)
            let page = try await api.users(query: "?query=a&limit=1")
            #expect(page.users.map(\.userId) == ["ada"])
            let next = try await api.users(query: "?query=a&limit=1&after=\(try #require(page.nextCursor))")
            #expect(next.users.map(\.userId) == ["u-2"], "the cursor pages through the matches")
        }
    }

    @Test func deletedUsersAreNotListed() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            var phone = TestAuthenticator()
            try await api.enroll("alice", authenticator: &phone)
            _ = try await api.createRegistration(NewRegistration(userId: "bob"))
            #expect(try await api.backend(.delete, "/v1/users/alice").status == .noContent)
            #expect(try await api.users().users.map(\.userId) == ["bob"])
        }
    }

    @Test(arguments: [
        "?limit=0", "?limit=101", "?limit=ten", "?limit=-1", "?limit=1.5", "?limit=", "?after=a%07b", "?after=",
        "?after=\(String(repeating: "u", count: 257))", "?order=age", "?order=",
        "?query=\(String(repeating: "q", count: 129))",
        "?query=a%00b", "?query=line%0Abreak", "?query=%7F",
    ])
    func badQueriesAreInvalid(_ query: String) async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            expectError(
                try await api.backend(.get, "/v1/users\(query)"),
                "INVALID_REQUEST",
                .badRequest,
                retryable: false
            )
        }
    }

    @Test func theLimitsThemselvesAreAccepted() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            _ = try await api.createRegistration(NewRegistration(userId: "alice"))
            for query in [
                "?limit=1", "?limit=100", "?query=\(String(repeating: "%C3%A9", count: 128))",
                "?after=\(String(repeating: "u", count: 256))", "?after=a%20b", "?query=%zz", "?query=+", "?order=id",
                "?order=name&after=Ada%20Lovelace",
            ] {
                #expect(try await api.backend(.get, "/v1/users\(query)").status == .ok, "\(query)")
            }
        }
    }

    @Test(arguments: RealStore.available)
    func usersInOrderOfNameWithANameCursor(_ store: RealStore) async throws {
        try await store.withLiveServer { _, api in
            for (id, name) in [("u1", "carol"), ("u2", "Bob"), ("u3", "alice"), ("u4", "dave")] {
                _ = try await api.createRegistration(NewRegistration(userId: id, userName: name))
            }
            let first = try await api.users(query: "?order=name&limit=2")
            // By the names' bytes: capitals first.
            #expect(first.users.map(\.userName) == ["Bob", "alice"])
            #expect(first.nextCursor == "alice")
            let rest = try await api.users(query: "?order=name&limit=2&after=alice")
            #expect(rest.users.map(\.userName) == ["carol", "dave"])
            #expect(rest.nextCursor == nil)
            #expect(try await api.users(query: "?limit=2").users.map(\.userId) == ["u1", "u2"])
        }
    }

    /// In-process pages (an operator console) call the service directly, with the same checks.
    @Test func theServiceListsUsersWithoutHTTP() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            for id in ["b", "a", "c"] { _ = try await api.createRegistration(NewRegistration(userId: id)) }
        }
        let first = try await server.service.accounts.users(limit: 2)
        #expect(first.users.map(\.userID) == ["a", "b"])
        #expect(first.nextCursor == "b")
        let rest = try await server.service.accounts.users(matching: "C", after: first.nextCursor)
        #expect(rest.users.map(\.userID) == ["c"])
        #expect(rest.users.first?.userName == "c@example.com")
        #expect(rest.nextCursor == nil)
        await #expect(throws: APIError.self) { try await server.service.accounts.users(limit: 0) }
        await #expect(throws: APIError.self) { try await server.service.accounts.users(after: "a\u{7}b") }
    }
}
