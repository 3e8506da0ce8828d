import BrowserTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The recovery link carries its token in the fragment: in a real Chromium, `/recover` takes it out of the address bar
/// and the history as soon as it has read it, as `/approve` does with its handoff token.
@Suite(.requiresChromium, .timeLimit(.minutes(10)))
struct RecoveryLinkBrowserTests {
    /// A backend call with the test API key; returns the JSON object answered.
    static func post(_ path: String, json: String, on server: PasskeysServeProcess) async throws -> [String: Any] {
        var request = URLRequest(url: URL(string: server.baseURL + path)!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(PasskeysServeProcess.apiKey)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(json.utf8)
        let (data, _) = try await URLSession.shared.data(for: request)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("/recover strips the recovery token from the address bar and the history")
    func tokenLeavesTheAddressBar() async throws {
        try await PasskeysServeProcess.with(configuration: RecoveryBrowserTests.configuration) { server in
            // A user (created with their first registration) and a recovery of theirs.
            _ = try await Self.post("/v1/registrations", json: #"{"userId": "lea", "userName": "lea"}"#, on: server)
            let started = try await Self.post("/v1/recoveries", json: #"{"userId": "lea"}"#, on: server)
            let attempt = try #require(started["recoveryAttemptId"] as? String, "\(started)")
            let token = try #require(started["recoveryToken"] as? String)
            try await withBrowser { browser in
                let device = try await browser.newPage()
                try await device.goto(server.baseURL + "/recover#\(attempt).\(token)")
                try await device.waitFor(selector: "#recover-start")
                try await device.waitUntil("location.hash === ''")
                let address = try #require(try await device.evaluate("location.href").string)
                #expect(address == server.baseURL + "/recover")
                #expect(!address.contains(token))
                // The page read the token before it left: the recovery can still start from here.
                #expect(try await device.evaluate("document.getElementById('recover-start').disabled") == false)
                #expect(
                    try await device.evaluate(
                        "document.getElementById('status').textContent.includes('whole recovery link')"
                    )
                        == false
                )
            }
        }
    }
}
