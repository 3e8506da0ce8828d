import BrowserTestSupport
import Foundation
import Testing

/// Every page at a phone's width and a desktop's: nothing pans sideways (wide tables scroll inside their own box).
@Suite(.requiresChromium, .timeLimit(.minutes(10)))
struct PageWidthBrowserTests {
    @Test("no page overflows horizontally at 390 px or 1280 px")
    func noHorizontalOverflow() async throws {
        try await PasskeysServeProcess.with { server in
            try await withBrowser { browser in
                let page = try await browser.newPage()
                _ = try await page.addVirtualAuthenticator(WebPagesBrowserTests.platform)
                try await page.goto(server.baseURL + "/")
                try await page.fill("#sign-up-name", "wide.user.name.with.a.long.address@example-company.example")
                try await page.fill("#sign-up-display", "Someone With A Rather Long Display Name For Testing")
                try await page.click("#sign-up button[type=submit]")
                try await page.waitFor(text: "Your account is ready", in: "#status")
                let credential = try #require(
                    try await page.evaluate("document.querySelector('.passkey').dataset.credentialId").string
                )
                let users = try await server.backend("/v1/users?query=wide.user")
                let userID = try #require((users["users"] as? [[String: Any]])?.first?["userId"] as? String)

                try await page.goto(server.baseURL + "/console")
                try await page.fill("#api-key", PasskeysServeProcess.apiKey)
                try await page.click("form button[type=submit]")
                try await page.waitFor(selector: "table")

                let paths = [
                    "/", "/account", "/account/passkeys/\(credential)/delete", "/console", "/console/users/\(userID)",
                    "/console/audit", "/console/users/nobody", "/recover", "/approve",
                ]
                let shots = try Screenshots.folder()
                for (width, height, mobile) in [(390, 844, true), (1280, 900, false)] {
                    try await page.setViewport(width: width, height: height, mobile: mobile, deviceScaleFactor: 1)
                    for path in paths {
                        try await page.goto(server.baseURL + path)
                        try await page.waitFor(selector: "main")
                        let overflow = try await page.evaluate(
                            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
                        )
                        #expect(overflow == 0, "\(path) at \(width) px overflows by \(overflow) px")
                        let name = path.replacingOccurrences(of: "/", with: "_")
                        try await page.screenshot(to: shots.appendingPathComponent("\(width)\(name).png"))
                    }
                }
            }
        }
    }
}
