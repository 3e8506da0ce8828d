import BrowserTestSupport
import Foundation
import Testing

/// The console as an operator sees it in a real Chromium: the audit log a dense table that fits a desktop's width,
/// and a user's Revoke and Sign out buttons on screen on a phone, without panning a table sideways.
@Suite(.requiresChromium, .timeLimit(.minutes(10)))
struct ConsoleLayoutBrowserTests {
    @Test("the audit log fits 1280 px, many events a screen, times on one line and details folded")
    func denseAuditLog() async throws {
        try await PasskeysServeProcess.with { server in
            try await withBrowser { browser in
                let page = try await Self.signedIn(browser, server, name: "audit.reader.with.a.long.name@example.com")
                try await page.setViewport(width: 1280, height: 900, mobile: false, deviceScaleFactor: 1)
                try await page.goto(server.baseURL + "/console/audit")
                try await page.waitFor(selector: "main table tbody tr")
                let overflow = try await page.evaluate(
                    "(b => b.scrollWidth - b.clientWidth)(document.querySelector('.table-scroll'))"
                )
                #expect(overflow == 0, "the audit table overflows its box by \(overflow) px at 1280 px")
                let perScreen = try await page.evaluate(
                    """
                    (rows => Math.floor(innerHeight / (Array.from(rows).reduce((s, r) => s + r.getBoundingClientRect().height, 0) / rows.length)))(document.querySelectorAll('main table tbody tr'))
                    """
                )
                // Long ids may wrap onto a second line; five a screen was the complaint.
                #expect((perScreen.int ?? 0) >= 15, "\(perScreen) events a screen at 1280 × 900")
                let wrapped = try await page.evaluate(
                    """
                    Array.from(document.querySelectorAll('main tbody tr td:nth-child(2)')).filter(td => { const r = document.createRange(); r.selectNodeContents(td); return r.getClientRects().length !== 1; }).length
                    """
                )
                #expect(wrapped == 0, "times wrapped onto two lines: \(wrapped)")
                #expect(try await page.evaluate("document.querySelectorAll('main table details').length").int ?? 0 > 0)
                #expect(try await page.evaluate("document.querySelectorAll('main table details[open]').length") == 0)
                try await page.screenshot(to: try Screenshots.folder().appendingPathComponent("1280_audit.png"))
            }
        }
    }

    @Test("at 390 px a user's Revoke, Sign out and Sign out everywhere are on screen without panning")
    func actionsOnAPhone() async throws {
        try await PasskeysServeProcess.with { server in
            try await withBrowser { browser in
                let page = try await Self.signedIn(browser, server, name: "phone.person.with.a.long.name@example.com")
                let users = try await server.backend("/v1/users?query=phone.person")
                let userID = try #require((users["users"] as? [[String: Any]])?.first?["userId"] as? String)
                try await page.setViewport(width: 390, height: 844, mobile: true, deviceScaleFactor: 1)
                try await page.goto(server.baseURL + "/console/users/\(userID)")
                try await page.waitFor(selector: "button.revoke")
                for selector in ["button.revoke", "button.end-session", "#end-all-sessions"] {
                    let box = try await page.evaluate(
                        """
                        (e => e ? [e.getBoundingClientRect().left, e.getBoundingClientRect().right, document.documentElement.clientWidth].join(' ') : 'missing')(document.querySelector('\(selector)'))
                        """
                    )
                    let numbers = (box.string ?? "").split(separator: " ").compactMap { Double($0) }
                    #expect(
                        numbers.count == 3 && numbers[0] >= 0 && numbers[1] <= numbers[2],
                        "\(selector) at 390 px: left, right, width = \(box)"
                    )
                }
                try await page.screenshot(to: try Screenshots.folder().appendingPathComponent("390_user.png"))
            }
        }
    }

    /// A page with a person signed up on the demo (so they have a passkey, a session and audit events) and then
    /// signed in to the console with the API key.
    static func signedIn(_ browser: Browser, _ server: PasskeysServeProcess, name: String) async throws -> Page {
        let page = try await browser.newPage()
        _ = try await page.addVirtualAuthenticator(WebPagesBrowserTests.platform)
        try await page.goto(server.baseURL + "/")
        try await page.fill("#sign-up-name", name)
        try await page.click("#sign-up button[type=submit]")
        try await page.waitFor(text: "Your account is ready", in: "#status")
        try await page.goto(server.baseURL + "/console")
        try await page.fill("#api-key", PasskeysServeProcess.apiKey)
        try await page.click("form.card button[type=submit]")
        try await page.waitFor(selector: "table")
        return page
    }
}
