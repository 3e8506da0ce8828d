import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PasskeyServer
import Testing

/// `APIError` as a value: its codes and its rendering by Hummingbird itself, without the server's middleware.
struct APIErrorTests {
    @Test("every code of APIError.all is UPPER_SNAKE and listed once")
    func codesAreListedOnce() {
        let codes = APIError.all.map(\.rawValue)
        #expect(codes.count > 50)
        #expect(
            Set(codes).count == codes.count,
            "listed twice: \(codes.filter { c in codes.filter { $0 == c }.count > 1 })"
        )
        for code in codes {
            #expect(
                code.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
                    && code.count >= 3,
                "\(code)"
            )
        }
    }

    @Test("a plain Hummingbird router answers a thrown APIError with its status, headers and JSON body")
    func renderedByHummingbird() async throws {
        let router = Router()
        router.get("/refused") { _, _ -> Response in
            throw APIError(.rateLimited, .tooManyRequests, "Slow down.", retryable: true, headers: [.retryAfter: "7"])
        }
        try await Application(router: router).test(.router) { client in
            let response = try await client.execute(uri: "/refused", method: .get)
            #expect(response.status == .tooManyRequests)
            #expect(response.headers[.retryAfter] == "7")
            let body =
                try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8)) as? [String: Any]
            let error = try #require(body?["error"] as? [String: Any])
            #expect(error["code"] as? String == "RATE_LIMITED")
            #expect(error["message"] as? String == "Slow down.")
            #expect(error["retryable"] as? Bool == true)
        }
    }
}
