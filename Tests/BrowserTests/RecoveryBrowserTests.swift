import BrowserTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Account recovery in a real Chromium: the operator starts it in the console, the person opens the link on a new
/// device (a page with a virtual authenticator of its own), is verified, creates a passkey, and the lost one is
/// revoked.
@Suite(.requiresChromium, .timeLimit(.minutes(10)))
struct RecoveryBrowserTests {
    static let configuration = #"{"identityVerification": {"provider": "simulated"}}"#

    /// The simulated provider's decision for `run`, as the identity-verification vendor would give it.
    static func approve(run: String, on server: PasskeysServeProcess) async throws {
        var request = URLRequest(url: URL(string: server.baseURL + "/v1/identity-verification/runs/\(run)/decision")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(PasskeysServeProcess.apiKey)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"decision": "approved", "faceMatch": "pass"}"#.utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test("the console starts a recovery; the new device is verified, gets a passkey, and the lost one is revoked")
    func consoleStartedRecovery() async throws {
        try await PasskeysServeProcess.with(configuration: Self.configuration) { server in
            try await withBrowser { browser in
                let shots = try Screenshots.folder()
                // The person's first phone, later lost.
                let old = try await browser.newPage()
                _ = try await old.addVirtualAuthenticator(WebPagesBrowserTests.platform)
                try await old.goto(server.baseURL + "/")
                try await old.fill("#sign-up-name", "rosa")
                try await old.click("#sign-up button[type=submit]")
                try await old.waitFor(text: "Your account is ready", in: "#status")
                let users = try await server.backend("/v1/users?query=rosa")
                let rosa = try #require((users["users"] as? [[String: Any]])?.first?["userId"] as? String)
                let before = try await server.backend("/v1/users/\(rosa)/credentials")
                let lost = try #require((before["credentials"] as? [[String: Any]])?.first?["credentialId"] as? String)

                // The operator.
                let console = try await browser.newPage()
                try await console.goto(server.baseURL + "/console")
                try await console.fill("#api-key", PasskeysServeProcess.apiKey)
                try await console.click("form button[type=submit]")
                try await console.waitFor(text: "rosa", in: "table")
                try await console.goto(server.baseURL + "/console/users/\(rosa)")
                try await console.click("#start-recovery")
                try await console.waitFor(selector: "#recovery-qr")
                let link = try #require(
                    try await console.evaluate("document.getElementById('recovery-link').href").string
                )
                #expect(link.hasPrefix(server.baseURL + "/recover#rec_"))
                #expect(
                    try await console.evaluate("document.getElementById('recovery-qr').naturalWidth > 0") == true,
                    "the QR code renders"
                )
                try await console.screenshot(to: shots.appendingPathComponent("recovery-1-console.png"))
                // The one-time link breaks rather than widen the page on a phone.
                try await console.setViewport(width: 390, height: 844, mobile: true, deviceScaleFactor: 1)
                let overflow = try await console.evaluate(
                    "document.documentElement.scrollWidth - document.documentElement.clientWidth"
                )
                #expect(overflow == 0, "the recovery link page overflows by \(overflow) px at 390 px")

                // The new device: its own authenticator, without the lost passkey.
                let device = try await browser.newPage()
                let newKey = try await device.addVirtualAuthenticator(WebPagesBrowserTests.platform)
                try await device.goto(link)
                try await device.click("#recover-start")
                try await device.waitFor(text: "Verifying your identity", in: "#status")
                try await device.waitUntil("document.getElementById('identity-run').textContent.startsWith('idv_')")
                let run = try #require(
                    try await device.evaluate("document.getElementById('identity-run').textContent").string
                )
                try await Self.approve(run: run, on: server)
                try await device.waitFor(text: "Your account is recovered.", in: "#status", timeout: .seconds(30))
                // Before: "Revoked: 1 old passkey(s)." with the raw id, and not signed in.
                let revoked = try await device.text("#revoked-text")
                #expect(
                    revoked.hasPrefix("Your old passkey “")
                        && revoked.hasSuffix("was removed: it can no longer sign in."),
                    "\(revoked)"
                )
                #expect(!revoked.contains(lost) && !revoked.contains("(s)"), "\(revoked)")
                #expect(try await device.text("#status").contains("You are signed in with your new passkey"))
                #expect(try await device.evaluate("document.getElementById('recover-start') === null") == true)
                try await device.goto(server.baseURL + "/account")
                try await device.waitFor(text: "Signed in as rosa", in: "header nav")
                #expect(try await newKey.credentials().count == 1)
                try await device.screenshot(to: shots.appendingPathComponent("recovery-2-new-device.png"))

                let after = try await server.backend("/v1/users/\(rosa)/credentials")
                let ids = (after["credentials"] as? [[String: Any]])?.compactMap { $0["credentialId"] as? String }
                #expect(ids?.count == 1 && ids?.contains(lost) == false, "\(String(describing: ids))")
                #expect(
                    WebPagesBrowserTests.scriptErrors(device).isEmpty,
                    "\(WebPagesBrowserTests.scriptErrors(device))"
                )
            }
        }
    }
}
