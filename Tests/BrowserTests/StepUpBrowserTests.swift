import BrowserTestSupport
import Crypto
import Foundation
import Testing

/// The account page's payment confirmation in a real Chromium: a step-up whose challenge the page checks against
/// the text it shows before the virtual authenticator signs.
@Suite(.requiresChromium, .timeLimit(.minutes(10)))
struct StepUpBrowserTests {
    @Test("confirm a payment: the text is shown, signed, and redeemed with its digest and assurance")
    func confirmPayment() async throws {
        try await PasskeysServeProcess.with { server in
            try await withBrowser { browser in
                let page = try await browser.newPage()
                _ = try await page.addVirtualAuthenticator(WebPagesBrowserTests.platform)
                try await page.goto(server.baseURL + "/")
                try await page.fill("#sign-up-name", "paula")
                try await page.click("#sign-up button[type=submit]")
                try await page.waitFor(text: "Your account is ready", in: "#status")

                try await page.click("#confirm-payment")
                try await page.waitFor(text: "Payment confirmed.", in: "#status")
                let text = "Pay 42.00 EUR to Example Shop\nOrder 1234, card ending 4242"
                #expect(try await page.evaluate("document.getElementById('step-up-text').textContent").string == text)
                #expect(try await page.evaluate("document.getElementById('step-up-signed').textContent").string == text)
                let digest = Data(SHA256.hash(data: Array(text.utf8))).base64EncodedString()
                    .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                    .replacingOccurrences(of: "=", with: "")
                #expect(try await page.text("#step-up-digest") == digest)
                #expect(try await page.text("#step-up-assurance") == "passkey+uv")
                try await page.screenshot(to: try Screenshots.folder().appendingPathComponent("step-up.png"))
                #expect(WebPagesBrowserTests.scriptErrors(page).isEmpty, "\(WebPagesBrowserTests.scriptErrors(page))")
            }
        }
    }
}
