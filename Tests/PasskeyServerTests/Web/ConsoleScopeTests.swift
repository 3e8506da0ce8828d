import Foundation
import HTTPTypes
import PasskeyServer
import PasskeyStorage
import Testing

/// The console's break-glass sign-in takes only an API key that grants the `console` scope (or every scope), and a
/// break-glass session lasts only while its key still grants it. Over a real socket, on SQLite and PostgreSQL.
@Suite("Operator console: the console scope")
struct ConsoleScopeTests {
    static let secret = "a session secret shared by the instances, 32+ chars"
    static let backendOnly = "backend-only-key-0123456789-abcdefgh"
    static let consoleKey = "console-key-0123456789-abcdefghijkl"

    static func keys(consoleScoped: Bool) -> @Sendable (inout ServerConfiguration) -> Void {
        { configuration in
            configuration.web.sessionSecret = Self.secret
            configuration.apiKeys = [
                .init(name: "backend", key: Self.backendOnly, scopes: [.registrations, .authentications]),
                .init(name: "ops", key: Self.consoleKey, scopes: consoleScoped ? [.console] : [.auditRead]),
            ]
        }
    }

    @Test("a key without the console scope is refused; one with it signs in", arguments: RealStore.available)
    func breakGlassNeedsTheConsoleScope(_ store: RealStore) async throws {
        try await store.withLiveServer(configure: Self.keys(consoleScoped: true)) { _, api in
            let refused = WebClient(api)
            try await refused.get("/console")
            let page = try await refused.submit("/console/sign-in", ["apiKey": Self.backendOnly])
            #expect(page.status == .forbidden)
            #expect(page.text.contains("does not grant the console scope"))
            #expect(try await refused.get("/console").text.contains(#"name="apiKey""#), "still the sign-in page")

            let admitted = WebClient(api)
            try await admitted.get("/console")
            #expect(try await admitted.submit("/console/sign-in", ["apiKey": Self.consoleKey]).status == .seeOther)
            #expect(try await admitted.get("/console").text.contains("Operator <strong>ops</strong>"))
        }
    }

    @Test("a break-glass session ends when its key no longer grants the console scope", arguments: RealStore.available)
    func sessionNeedsTheScopeStill(_ store: RealStore) async throws {
        try await store.with { store in
            let before = try TestServer(store: store, configure: Self.keys(consoleScoped: true))
            let cookie = try await before.withLiveAPI { api in
                let web = WebClient(api)
                try await web.get("/console")
                #expect(try await web.submit("/console/sign-in", ["apiKey": Self.consoleKey]).status == .seeOther)
                return try #require(web.cookie)
            }
            let after = try TestServer(store: store, configure: Self.keys(consoleScoped: false))
            try await after.withLiveAPI { api in
                let web = WebClient(api)
                web.setCookie(cookie)
                let console = try await web.get("/console")
                #expect(console.text.contains(#"name="apiKey""#), "the sign-in page, not the console")
                #expect(!console.text.contains("<table"))
            }
        }
    }
}
