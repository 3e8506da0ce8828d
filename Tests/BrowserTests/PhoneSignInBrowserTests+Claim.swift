import BrowserTestSupport
import Foundation
import Testing

/// `/approve` claims a handoff only when the person acts on it (a link preview or a prefetch that opens the page burns
/// nothing), and the first device can call a handoff off.
extension PhoneSignInBrowserTests {
    @Test("opening /approve claims nothing: after a prefetch opened the link, the person still approves with it")
    func openingClaimsNothing() async throws {
        try await PasskeysServeProcess.with { server in
            try await withBrowser { browser in
                let phone = try await browser.newPage()
                _ = try await phone.addVirtualAuthenticator(WebPagesBrowserTests.platform)
                try await Self.signedUpAndOut(phone, server, "sven")
                let (desktop, shown) = try await Self.desktop(browser, server, userName: nil)

                // A link preview, or a mail scanner's browser, opens the page and runs its script.
                let prefetch = try await browser.newPage()
                try await prefetch.goto(shown.link)
                try await prefetch.waitFor(selector: "#approve-form")
                try await Task.sleep(for: .seconds(2))
                #expect(
                    try await desktop.text("#phone-status").contains("Scan the QR code"),
                    "the first device still waits for a phone: nothing was claimed"
                )
                try await prefetch.close()

                try await phone.goto(shown.link)
                try await phone.waitFor(selector: "#approve-form")
                try await phone.fill("#approve-code", shown.code)
                try await phone.click("#approve-form button[type=submit]")
                try await phone.waitFor(text: "Approved — the other device signs in", in: "#approve-status")
                try await desktop.waitUntil("location.pathname == '/account'", "the account page on the first tab")
                try await desktop.waitFor(text: "Signed in as sven", in: "header nav")
                for page in [phone, desktop] {
                    #expect(
                        WebPagesBrowserTests.scriptErrors(page).isEmpty,
                        "\(WebPagesBrowserTests.scriptErrors(page))"
                    )
                }
            }
        }
    }

    @Test("the first device cancels: its page says so, and /approve, opened before, says the sign-in was cancelled")
    func cancelledOnFirstDevice() async throws {
        try await PasskeysServeProcess.with { server in
            try await withBrowser { browser in
                let phone = try await browser.newPage()
                _ = try await phone.addVirtualAuthenticator(WebPagesBrowserTests.platform)
                try await Self.signedUpAndOut(phone, server, "tove")
                let (desktop, shown) = try await Self.desktop(browser, server, userName: nil)
                try await phone.goto(shown.link)
                try await phone.waitFor(selector: "#approve-form")

                try await desktop.click("#phone-cancel")
                try await desktop.waitFor(text: "Cancelled", in: "#phone-status")
                try await desktop.waitFor(selector: "#phone-again")
                #expect(try await desktop.evaluate("document.getElementById('phone-handoff').hidden") == true)

                try await phone.fill("#approve-code", shown.code)
                try await phone.click("#approve-form button[type=submit]")
                try await phone.waitFor(text: "cancelled on the other screen", in: "#approve-status")
                #expect(try await phone.evaluate("document.getElementById('approve-ask').hidden") == true)
                try await phone.screenshot(
                    to: try Screenshots.folder().appendingPathComponent("approve-page-cancelled.png")
                )
                #expect(try await desktop.url() == server.baseURL + "/", "nothing signed the first device in")
                for page in [phone, desktop] {
                    #expect(
                        WebPagesBrowserTests.scriptErrors(page).isEmpty,
                        "\(WebPagesBrowserTests.scriptErrors(page))"
                    )
                }
            }
        }
    }
}
