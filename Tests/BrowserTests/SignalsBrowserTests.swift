import BrowserTestSupport
import Foundation
import Testing

/// The WebAuthn signals in a real Chromium: the pages tell the browser's passkey provider (here the virtual
/// authenticator) which passkeys the site accepts and which it deleted, and the provider forgets the deleted one.
@Suite(.requiresChromium, .timeLimit(.minutes(10)))
struct SignalsBrowserTests {
    @Test("a passkey deleted on the account page disappears from the browser's provider")
    func deletedPasskeyIsForgotten() async throws {
        try await PasskeysServeProcess.with { server in
            try await withBrowser { browser in
                let page = try await browser.newPage()
                let authenticator = try await page.addVirtualAuthenticator(WebPagesBrowserTests.platform)
                try await page.goto(server.baseURL + "/")
                try await page.fill("#sign-up-name", "sigrid")
                try await page.click("#sign-up button[type=submit]")
                try await page.waitFor(text: "Your account is ready", in: "#status")
                #expect(try await authenticator.credentials().count == 1)
                #expect(
                    try await page.evaluate("typeof PublicKeyCredential.signalUnknownCredential") == "function",
                    "this Chromium has the signals"
                )
                // The account page signalled the passkeys it accepts: the one the provider holds stays.
                #expect(try await authenticator.credentials().count == 1)

                try await page.click("a.delete")
                try await page.waitFor(selector: "#confirm-delete")
                try await page.click("#confirm-delete")
                try await page.waitFor(text: "Passkey deleted.", in: "#status")
                // The signal is sent as the page loads: wait for the provider's list to change, five seconds at most.
                var remaining = try await authenticator.credentials().count
                for _ in 0..<50 where remaining > 0 {
                    try await Task.sleep(for: .milliseconds(100))
                    remaining = try await authenticator.credentials().count
                }
                #expect(remaining == 0, "the provider forgot the deleted passkey")
                #expect(WebPagesBrowserTests.scriptErrors(page).isEmpty, "\(WebPagesBrowserTests.scriptErrors(page))")
            }
        }
    }
}
