import Foundation
import HTTPTypes
import PasskeyTesting
import Testing

@testable import PasskeyServer

/// Text built to break out of HTML — joined to combining marks, behind a ZWJ, with direction overrides, NUL,
/// lone surrogates — reaches every page that shows user text, stored (user and passkey names) or reflected (search
/// and filter fields). Each page must have exactly the element structure it has for plain text.
@Suite("Hostile text on the pages")
struct HostileTextTests {
    static let plain = "plain text"

    static let hostile: [String] = [
        "\u{0D4E}<meta http-equiv=\"refresh\" content=\"0;url=https://attacker.example/\">",
        "\"\u{0301} autofocus onfocus=\"alert(1)",
        "'\u{0301} onmouseover='alert(1)",
        "\u{0301}\"><img src=x onerror=alert(1)>",
        "\u{1F469}\u{200D}\u{1F4BB}<b>zwj</b>\u{200D}\"",
        "\u{202E}<i>rtl</i>",
        "a\u{0}<b>nul</b>",
        "&\u{0301}lt;script&gt;",
        "<\u{0301}script>alert(1)</script>",
        "\u{FEFF}<svg onload=alert(1)>",
        "x\u{0308}\u{0308}\u{0308}\"\u{0308}><a href=//attacker.example>",
    ]

    @Test("stored user names, display names and passkey names, in the console", arguments: hostile.indices)
    func consolePages(index: Int) async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let console = try await ConsoleTests.signedInConsole(api)
            // Plain text, and plain text that is refused (as some hostile texts are), give every page's structure.
            let baseline = try await Self.consolePages(for: Self.plain, prefix: "plain", api: api, console: console)
                .merging(
                    try await Self.consolePages(for: "plain\u{7}text", prefix: "refused", api: api, console: console)
                ) { plain, _ in plain }
            let text = Self.hostile[index]
            let pages = try await Self.consolePages(for: text, prefix: "hostile", api: api, console: console)
            // Reflected text always reaches its page; stored text only when it was accepted.
            #expect(
                pages.keys.contains { $0.hasPrefix("search ") } && pages.keys.contains { $0.hasPrefix("audit filter ") }
            )
            for (page, tokens) in pages {
                #expect(tokens == baseline[page], "\(page) for \(text.debugDescription)")
            }
        }
    }

    @Test("a passkey name on the account page and its delete confirmation", arguments: hostile.indices)
    func accountPages(index: Int) async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let baseline = try await Self.accountPages(renamingTo: Self.plain, api: api)
            let pages = try await Self.accountPages(renamingTo: Self.hostile[index], api: api)
            for (page, tokens) in pages {
                #expect(tokens == baseline[page], "\(page) for \(Self.hostile[index].debugDescription)")
            }
        }
    }

    @Test("a lone surrogate in a JSON escape is refused or replaced, never passed on")
    func loneSurrogate() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let response = try await api.backend(
                .post,
                "/v1/registrations",
                json: #"{"userId": "surrogate", "userName": "\ud800<b>x</b>", "displayName": "\udfff\""}"#
            )
            #expect(response.status == .created || response.status == .badRequest)
            let console = try await ConsoleTests.signedInConsole(api)
            let page = try await console.get("/console/users/surrogate")
            let baseline = try await console.get("/console/users/nobody")
            if response.status == .created {
                #expect(HTMLStructure.tokens(page.text) == HTMLStructure.tokens(try await Self.userPage(api, console)))
            } else {
                #expect(page.status == baseline.status)
            }
        }
    }

    /// The console pages that show `text`, each keyed by what it is and how it answered: for a user named `text`
    /// (when the name is accepted) and a user whose passkey is renamed to `text` (when the name is accepted), their
    /// pages, the user list searched for them and their audit log; and `text` itself as the list's search and the
    /// audit log's filter, which the pages reflect into their fields.
    static func consolePages(
        for text: String,
        prefix: String,
        api: API,
        console: WebClient
    ) async throws -> [String: [String]] {
        var pages: [String: [String]] = [:]
        func load(_ label: String, _ path: String) async throws {
            let response = try await console.get(path)
            pages["\(label) \(response.status.code)"] = HTMLStructure.tokens(response.text)
        }
        // Before the users exist, so that the search finds nothing for any text.
        try await load("search", "/console?q=" + WebClient.escape(text))
        try await load("audit filter", "/console/audit?userId=" + WebClient.escape(text))
        var phones = (TestAuthenticator(), TestAuthenticator())
        let named = try await api.backend(
            .post,
            "/v1/registrations",
            body: NewRegistration(userId: "\(prefix)-named", userName: text, displayName: text)
        )
        if named.status == .created {
            try await api.enroll(
                NewRegistration(userId: "\(prefix)-named", userName: text, displayName: text),
                authenticator: &phones.0
            )
            try await load("named user", "/console/users/\(prefix)-named")
            try await load("named in list", "/console?q=\(prefix)-named")
            try await load("named audit", "/console/audit?userId=\(prefix)-named")
        } else {
            #expect(named.status == .badRequest, "refused, or shown: nothing else")
        }
        let credential = try await api.enroll(
            NewRegistration(userId: "\(prefix)-renamed", userName: "\(prefix)-renamed"),
            authenticator: &phones.1
        )
        let rename = try await api.backend(.patch, Path.credential(credential.credentialId), body: ["name": text])
        if rename.status == .ok {
            try await load("renamed user", "/console/users/\(prefix)-renamed")
            try await load("renamed audit", "/console/audit?userId=\(prefix)-renamed")
        } else {
            #expect(rename.status == .badRequest, "refused, or shown: nothing else")
        }
        return pages
    }

    /// The account page after renaming the demo user's passkey to `text` through its form (or failing to), and the
    /// delete confirmation.
    static func accountPages(renamingTo text: String, api: API) async throws -> [String: [String]] {
        let web = WebClient(api)
        var authenticator = TestAuthenticator()
        let credentialID = try await DemoTests.signUp("user\(UUID().uuidString.prefix(8))", web, &authenticator)
        try await web.get("/account")
        let renamed = try await web.submit("/account/passkeys/\(credentialID)/rename", ["name": text])
        #expect(renamed.status == .seeOther || renamed.status == .badRequest, "renamed, or refused")
        return [
            "account": HTMLStructure.tokens(try await web.get("/account").text),
            "confirm delete": HTMLStructure.tokens(try await web.get("/account/passkeys/\(credentialID)/delete").text),
        ]
    }

    private static func userPage(_ api: API, _ console: WebClient) async throws -> String {
        var authenticator = TestAuthenticator()
        try await api.enroll(NewRegistration(userId: "baseline", userName: plain), authenticator: &authenticator)
        return try await console.get("/console/users/baseline").text
    }
}

/// The templates never use Mustache's own escaping, which compares `Character`s.
@Suite("Page templates")
struct PageTemplateSourceTests {
    @Test("every value is inserted with {{{…}}}, after the server escaped it on scalars")
    func noMustacheEscaping() throws {
        let variableTag = try Regex(#"(\{+)\s*[A-Za-z.]"#)
        for (name, source) in PageTemplates.sources {
            for match in source.matches(of: variableTag) {
                #expect(match.output[1].substring?.count == 3, "\(name) uses \(match.output[0].substring ?? "")")
            }
        }
    }

    @Test("escaping looks at scalars: a mark joined to < or \" does not hide it")
    func scalars() {
        #expect(HTMLText.escape("\u{0D4E}<a") == "\u{0D4E}&lt;a")
        #expect(HTMLText.escape("\"\u{0301}") == "&quot;\u{0301}")
        #expect(HTMLText.escape("'&>\u{0}") == "&#39;&amp;&gt;\u{FFFD}")
        #expect(HTMLText.escape("\u{1F469}\u{200D}\u{1F4BB}") == "\u{1F469}\u{200D}\u{1F4BB}")
    }
}
