import Foundation
import HTTPTypes
import HummingbirdCore
import Testing

@testable import PasskeyServer

/// What no input may do to the web pages: a form too large is the sender's fault (413), never a 500; a refusal
/// that says when to come back carries `Retry-After` on its page too.
@Suite("Web pages: oversized forms and Retry-After")
struct OversizedFormTests {
    /// Every form the pages post, signed in or not: the body is read before the session and CSRF checks.
    static let formPaths = [
        "/account/passkeys/AAAA/rename", "/account/passkeys/AAAA/delete", "/sign-out", "/console/sign-in",
        "/console/sign-out", "/console/credentials/AAAA/revoke", "/console/users/someone/sessions/end",
    ]

    @Test("a form body over 16 KiB answers 413 PAYLOAD_TOO_LARGE", arguments: formPaths)
    func oversizedForm(path: String) async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            try await web.get(path.hasPrefix("/console") ? "/console" : "/")
            let response = try await web.submit(path, ["name": String(repeating: "a", count: 16 * 1024 + 1)])
            #expect(response.status == .contentTooLarge)
            #expect(response.text.contains(#"data-error-code="PAYLOAD_TOO_LARGE""#))
            #expect(response.text.contains("16384 bytes"))
            // A form under the limit still reaches the CSRF check.
            let small = try await web.submit(path, ["name": "a"], csrf: false)
            #expect(small.status == .forbidden)
        }
    }

    @Test("the console's 429 page carries Retry-After")
    func consoleRateLimitSaysWhen() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let web = WebClient(api)
            try await web.get("/console")
            for _ in 0..<WebPages.consoleSignInAttempts {
                #expect(try await web.submit("/console/sign-in", ["apiKey": "not-a-key"]).status == .unauthorized)
            }
            let limited = try await web.submit("/console/sign-in", ["apiKey": "not-a-key"])
            #expect(limited.status == .tooManyRequests)
            #expect(limited.text.contains(#"data-error-code="RATE_LIMITED""#))
            let seconds = try #require(limited.headers[.retryAfter].flatMap { Int($0) })
            #expect((1...60).contains(seconds))
        }
    }
}
