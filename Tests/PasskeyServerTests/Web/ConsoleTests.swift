import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyStorage
import PasskeyTesting
import Testing

/// The operator console: closed until an operator presents a backend API key; then users, passkeys, revoke
/// and the audit log.
@Suite("Operator console")
struct ConsoleTests {
    static func signedInConsole(_ api: API) async throws -> WebClient {
        let web = WebClient(api)
        try await web.get("/console")
        let signIn = try await web.submit("/console/sign-in", ["apiKey": TestServer.apiKey])
        #expect(signIn.status == .seeOther)
        #expect(signIn.headers[.location] == "/console")
        return web
    }

    @Test("closed by default: every console page asks for an API key; a wrong key is refused, and so are many")
    func closed() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            let start = try await web.get("/console")
            #expect(start.status == .ok)
            #expect(start.text.contains(#"name="apiKey""#))
            #expect(!start.text.contains("<table"))
            for path in ["/console/audit", "/console/users/someone"] {
                #expect(try await web.get(path).headers[.location] == "/console", "\(path)")
            }
            #expect(try await web.submit("/console/credentials/AAAA/revoke").headers[.location] == "/console")

            for _ in 0..<10 {
                let wrong = try await web.submit("/console/sign-in", ["apiKey": "not-a-key"])
                #expect(wrong.status == .unauthorized)
                #expect(wrong.text.contains("not one of this server"))
            }
            let limited = try await web.submit("/console/sign-in", ["apiKey": TestServer.apiKey])
            #expect(limited.status == .tooManyRequests)
        }
    }

    @Test("wrong API keys spread over two server instances sharing a store are limited together")
    func signInLimitAcrossInstances() async throws {
        let store = MemoryPasskeyStore()
        let first = try TestServer(store: store)
        let second = try TestServer(store: store)
        try await first.withAPI { a in
            try await second.withAPI { b in
                let webs = [WebClient(a), WebClient(b)]
                for web in webs { try await web.get("/console") }
                for attempt in 0..<10 {
                    let wrong = try await webs[attempt % 2].submit("/console/sign-in", ["apiKey": "not-a-key"])
                    #expect(wrong.status == .unauthorized)
                }
                for web in webs {
                    let limited = try await web.submit("/console/sign-in", ["apiKey": TestServer.apiKey])
                    #expect(limited.status == .tooManyRequests)
                }
            }
        }
    }

    @Test("users with search and paging, a user's passkeys, revoke, and the audit log")
    func operate() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            for index in 0..<30 {
                var authenticator = TestAuthenticator()
                try await api.enroll(
                    NewRegistration(userId: "user-\(String(format: "%02d", index))", userName: "name\(index)"),
                    authenticator: &authenticator
                )
            }
            var other = TestAuthenticator()
            try await api.enroll(
                NewRegistration(userId: "html-user", userName: "<b>bold</b>", displayName: "<script>x</script>"),
                authenticator: &other
            )
            let console = try await Self.signedInConsole(api)

            let first = try await console.get("/console")
            #expect(first.text.contains("Operator <strong>test</strong>"))
            #expect(first.text.contains("user-00"))
            // By user name, in byte order: `<b>bold</b>`, name0, name1, name10 … name19, name2, name20 … name29, name3
            // fill the first page of 25; name4 … name9 are on the second.
            #expect(!first.text.contains("user-09"), "25 to a page")
            let ten = try #require(first.text.range(of: "name10"))
            #expect(first.text.range(of: "name2<")?.lowerBound ?? first.text.startIndex > ten.lowerBound, "by name")
            #expect(first.text.contains("&lt;b&gt;bold&lt;/b&gt;"), "escaped")
            #expect(!first.text.contains("<script>x"))
            let next = try #require(Self.link(first.text, "Next page"))
            let second = try await console.get(next)
            #expect(second.text.contains("user-09"))
            #expect(!second.text.contains("user-00"))

            let search = try await console.get("/console?q=NAME1")
            #expect(search.text.contains("name1<") || search.text.contains("name1</a>"))
            #expect(search.text.contains("name12"))
            #expect(!search.text.contains("name2</a>"))
            #expect(try await console.get("/console?q=" + String(repeating: "x", count: 200)).status == .badRequest)

            let user = try await console.get("/console/users/user-03")
            #expect(user.text.contains("name3"))
            let credentialID = try #require(Self.between(user.text, "/console/credentials/", "/revoke"))
            #expect(
                try await console.submit("/console/credentials/\(credentialID)/revoke", csrf: false).status
                    == .forbidden
            )
            let revoked = try await console.submit("/console/credentials/\(credentialID)/revoke")
            #expect(revoked.headers[.location] == "/console/users/user-03?done=revoked")
            let after = try await console.get("/console/users/user-03?done=revoked")
            #expect(after.text.contains("Passkey revoked."))
            #expect(after.text.contains("No active passkeys."))
            #expect(try await console.get("/console/users/nobody").status == .notFound)

            let audit = try await console.get("/console/audit?user=user-03")
            #expect(audit.text.contains("credential.revoked"))
            #expect(audit.text.contains("operator:test"))
            #expect(!audit.text.contains("user-04"))
            let revokedAt = try #require(audit.text.range(of: "credential.revoked"))
            let createdAt = try #require(audit.text.range(of: "registration.created"))
            #expect(revokedAt.lowerBound < createdAt.lowerBound, "newest first")
            #expect(try await console.get("/console/audit?before=-1").status == .badRequest)

            #expect(try await console.submit("/console/sign-out").headers[.location] == "/console")
            #expect(try await console.get("/console").text.contains(#"name="apiKey""#))
        }
    }

    @Test("the audit log newest first, 50 a page: older events, back to the newest, and the user filter kept")
    func auditNewestFirst() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            for index in 0..<120 {
                _ = try await api.createRegistration(NewRegistration(userId: index % 2 == 0 ? "many" : "other"))
            }
            let console = try await Self.signedInConsole(api)  // event 121: console.signed-in

            let newest = try await console.get("/console/audit")
            let first = Self.sequences(newest.text)
            #expect(first.count == 50)
            #expect(first == first.sorted(by: >), "newest first")
            #expect(first.first == 121)
            #expect(!newest.text.contains(">Newest</a>"), "already the newest")
            let olderLink = try #require(Self.link(newest.text, "Older events"))
            #expect(olderLink == "/console/audit?before=72")
            let older = try await console.get(olderLink)
            #expect(Self.sequences(older.text) == Array((22...71).reversed()))
            #expect(older.text.contains(#"<a href="/console/audit?">Newest</a>"#))
            let oldest = try await console.get(try #require(Self.link(older.text, "Older events")))
            #expect(Self.sequences(oldest.text) == Array((1...21).reversed()))
            #expect(Self.link(oldest.text, "Older events") == nil, "the last page")

            let many = try await console.get("/console/audit?user=many")
            #expect(Self.sequences(many.text) == Array(stride(from: 119, through: 21, by: -2)))
            let manyOlder = try #require(Self.link(many.text, "Older events"))
            #expect(manyOlder == "/console/audit?user=many&before=21")
            let manyRest = try await console.get(manyOlder)
            #expect(Self.sequences(manyRest.text) == Array(stride(from: 19, through: 1, by: -2)))
            #expect(manyRest.text.contains(#"<a href="/console/audit?user=many&amp;">Newest</a>"#))
            #expect(!manyRest.text.contains(">other<"))
        }
    }

    /// The sequence numbers of the audit page's rows, in the order shown.
    static func sequences(_ html: String) -> [Int64] {
        html.components(separatedBy: "<tr><td>").dropFirst().compactMap { row in
            row.split(separator: "<", maxSplits: 1).first.flatMap { Int64($0) }
        }
    }

    static func link(_ html: String, _ label: String) -> String? {
        guard let end = html.range(of: "\" rel=\"next\">\(label)</a>") else { return nil }
        let before = html[..<end.lowerBound]
        guard let start = before.range(of: "href=\"", options: .backwards) else { return nil }
        return String(before[start.upperBound...]).replacingOccurrences(of: "&amp;", with: "&")
    }

    static func between(_ text: String, _ start: String, _ end: String) -> String? {
        guard let lower = text.range(of: start), let upper = text[lower.upperBound...].range(of: end) else {
            return nil
        }
        return String(text[lower.upperBound..<upper.lowerBound])
    }
}
