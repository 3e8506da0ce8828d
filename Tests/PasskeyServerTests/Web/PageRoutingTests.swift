import Foundation
import HTTPTypes
import PasskeyServer
import Testing

/// How the server answers what a person types in a browser: HEAD like GET without a body, and a mistyped page path
/// with an HTML page; the API's paths keep their JSON answers.
struct PageRoutingTests {
    @Test("HEAD is answered like GET, without a body, for the pages and /health")
    func headLikeGet() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            for path in ["/", "/health", "/assets/passkeys.css"] {
                let get = try await api.send(.get, path)
                let head = try await api.send(.head, path)
                // Before: HEAD / was 404 and HEAD /health 405.
                #expect(head.status == .ok, "HEAD \(path): \(head.status)")
                #expect(get.status == .ok, "GET \(path): \(get.status)")
                #expect(head.body.isEmpty, "HEAD \(path) has a body")
                #expect(head.headers[.contentType] == get.headers[.contentType], "HEAD \(path)")
            }
            // The API's GET routes keep their contract: HEAD is not one of their methods.
            let apiHead = try await api.send(.head, "/v1/users", bearer: TestServer.apiKey)
            #expect(apiHead.status == .methodNotAllowed)
        }
    }

    @Test("a mistyped page path is an HTML 404 page; an unknown API path stays JSON")
    func pageNotFound() async throws {
        let server = try TestServer()
        try await server.withAPI { api in
            let page = try await api.send(.get, "/acount")
            #expect(page.status == .notFound)
            // Before: application/json with NOT_FOUND.
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true, "\(page.headers)")
            #expect(page.text.contains("Page not found"))
            #expect(page.text.contains("href=\"/\""))
            for path in ["/v1/nothing", "/.well-known/nothing", "/biometric-passkey/nothing"] {
                let api404 = try await api.send(.get, path)
                #expect(api404.status == .notFound, "\(path)")
                #expect(api404.headers[.contentType] == "application/json", "\(path)")
            }
        }
    }
}
