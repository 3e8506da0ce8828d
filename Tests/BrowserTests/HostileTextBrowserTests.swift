import BrowserTestSupport
import Foundation
import Testing

/// Text built to break out of HTML, typed into the demo as a person would, then shown by the console and the
/// account page in a real Chromium: the browser's own parser must find no element or attribute of it.
@Suite(.requiresChromium, .timeLimit(.minutes(10)))
struct HostileTextBrowserTests {
    /// A prepended character joined to `<` (one grapheme cluster), a refresh to another page, and a `"` joined
    /// to a combining mark.
    static let displayName = "\u{0D4E}<meta http-equiv=\"refresh\" content=\"0;url=/attacked\">\"\u{0301}x"
    static let passkeyName = "\"\u{0301} autofocus onfocus=\"location.assign('/attacked')"

    @Test(
        "a display name and a passkey name that try to plant markup show as text in the console and on the account page"
    )
    func hostileNames() async throws {
        try await PasskeysServeProcess.with { server in
            try await withBrowser { browser in
                let page = try await browser.newPage()
                _ = try await page.addVirtualAuthenticator(WebPagesBrowserTests.platform)
                try await page.goto(server.baseURL + "/")
                try await page.fill("#sign-up-name", "mallory")
                try await page.fill("#sign-up-display", Self.displayName)
                try await page.click("#sign-up button[type=submit]")
                try await page.waitFor(text: "Your account is ready", in: "#status")

                try await page.fill(".rename input[name=name]", Self.passkeyName)
                try await page.click(".rename button[type=submit]")
                try await page.waitFor(text: "Passkey renamed.", in: "#status")
                try await Self.expectInert(page, path: "/account")
                #expect(
                    try await page.evaluate("document.querySelector('.rename input[name=name]').value").string
                        == Self.passkeyName
                )

                try await page.goto(server.baseURL + "/console")
                try await page.fill("#api-key", PasskeysServeProcess.apiKey)
                try await page.click("form button[type=submit]")
                try await page.waitFor(text: "mallory", in: "table")
                try await Self.expectInert(page, path: "/console")
                #expect(try await page.text("table").contains(Self.displayName))

                try await page.goto(try await page.evaluate("document.querySelector('table a').href").string ?? "")
                try await page.waitFor(text: "Passkeys")
                try await Self.expectInert(page, path: try await page.evaluate("location.pathname").string ?? "")
                #expect(try await page.text("table").contains(Self.passkeyName))

                try await page.goto(
                    server.baseURL + "/console?q="
                        + (Self.displayName.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                )
                try await Self.expectInert(page, path: "/console")
                #expect(try await page.evaluate("document.getElementById('query').value").string == Self.displayName)
            }
        }
    }

    /// The page stays where it is (a planted refresh would have left by now) and holds no planted element or
    /// attribute.
    static func expectInert(_ page: Page, path: String) async throws {
        try await Task.sleep(for: .milliseconds(1500))
        #expect(try await page.evaluate("location.pathname").string == path)
        #expect(
            try await page.evaluate("document.querySelectorAll('meta[http-equiv], [onfocus], [autofocus]').length") == 0
        )
    }
}
