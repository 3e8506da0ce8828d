import BrowserTestSupport
import Foundation
import Testing
import WebAuthn

/// "Sign in with your phone" in a real Chromium: the desktop page shows the QR code and the number, the phone —
/// the `passkeys` command line, or the `/approve` page in a second tab with a passkey — approves or refuses, and the
/// desktop page follows by itself.
@Suite(.requiresChromium, .timeLimit(.minutes(10)))
struct PhoneSignInBrowserTests {
    /// What the desktop page shows after "Sign in with your phone".
    struct Shown {
        let link: String
        let code: String
    }

    /// Opens the demo in a new tab without touching the user name field's autofill, types `userName` (if any) and
    /// asks to sign in with the phone; the QR code is shown and loaded.
    static func desktop(
        _ browser: Browser,
        _ server: PasskeysServeProcess,
        userName: String?
    ) async throws -> (
        Page, Shown
    ) {
        let page = try await browser.newPage()
        try await page.goto(server.baseURL + "/")
        if let userName {
            try await page.evaluate("document.getElementById('sign-in-name').value = \(JSON.string(userName).text)")
        }
        try await page.click("#sign-in-phone")
        try await page.waitFor(selector: "#phone-qr")
        try await page.waitUntil(
            "document.getElementById('phone-qr').complete && document.getElementById('phone-qr').naturalWidth > 0",
            "the QR code to load"
        )
        try await page.waitFor(text: "Scan the QR code", in: "#phone-status")
        let link = try #require(try await page.evaluate("document.getElementById('phone-link').value").string)
        let code = try await page.text("#phone-code")
        #expect(code.count == 2 && code.allSatisfy(\.isNumber), "the number reads \(code)")
        #expect(link.hasPrefix(server.baseURL + "/approve#pkh_"))
        return (page, Shown(link: link, code: code))
    }

    /// A demo user `name` with a passkey in the virtual authenticator of `page`, signed out again.
    static func signedUpAndOut(_ page: Page, _ server: PasskeysServeProcess, _ name: String) async throws {
        try await page.goto(server.baseURL + "/")
        try await page.fill("#sign-up-name", name)
        try await page.click("#sign-up button[type=submit]")
        try await page.waitFor(text: "Your account is ready", in: "#status")
        try await WebPagesBrowserTests.signOut(page)
    }

    @Test(
        "the phone (passkeys approve) reads the QR code from a screenshot and approves: the desktop page signs in",
        .requiresQRCodeReader
    )
    func approvedByCommandLine() async throws {
        try await PasskeysServeProcess.with { server in
            try await withBrowser { browser in
                let phone = PhoneCommandLine(server: server)
                let signUp = try await browser.newPage()
                _ = try await signUp.addVirtualAuthenticator(WebPagesBrowserTests.platform)
                try await Self.signedUpAndOut(signUp, server, "pia")
                // The phone's own passkey for the same demo user.
                let registered = try await phone.run(["register", "--user", "pia"])
                #expect(registered.status == 0, "\(registered.standardOutput)\(registered.standardError)")

                let (page, shown) = try await Self.desktop(browser, server, userName: "pia")
                let shots = try Screenshots.folder()
                let screenshot = shots.appendingPathComponent("phone-sign-in-qr.png")
                try await page.screenshot(to: screenshot)
                let decoded = try await QRCodeReader.decode(screenshot)
                #expect(decoded == shown.link, "the QR code holds the link the page shows")

                let approved = try await phone.run(["approve", decoded, "--code", shown.code])
                #expect(approved.status == 0, "\(approved.standardOutput)\(approved.standardError)")
                #expect(approved.standardOutput.contains("the other device signs in"))

                try await page.waitUntil(
                    "location.pathname == '/account'",
                    "the account page, reached by the page itself"
                )
                try await page.waitFor(text: "Signed in as pia", in: "header nav")
                try await page.screenshot(to: shots.appendingPathComponent("phone-sign-in-signed-in.png"))
                #expect(WebPagesBrowserTests.scriptErrors(page).isEmpty, "\(WebPagesBrowserTests.scriptErrors(page))")
            }
        }
    }

    @Test(
        "the README's CLI user (passkeys register --user alice) cannot approve the demo: the phone is refused with DEMO_ACCOUNT_REQUIRED before it signs, nothing is approved"
    )
    func siteAccountRefusedAtThePhone() async throws {
        try await PasskeysServeProcess.with { server in
            try await withBrowser { browser in
                let phone = PhoneCommandLine(server: server)
                let registered = try await phone.run(["register", "--user", "alice"])
                #expect(registered.status == 0, "\(registered.standardOutput)\(registered.standardError)")

                let (page, shown) = try await Self.desktop(browser, server, userName: nil)
                let approved = try await phone.run(["approve", shown.link, "--code", shown.code])
                // Before: "Approved with passkey …: the other device signs in." and exit 0, then the page said
                // DEMO_ACCOUNT_REQUIRED.
                #expect(approved.status != 0, "\(approved.standardOutput)\(approved.standardError)")
                #expect(!approved.standardOutput.contains("the other device signs in"))
                #expect((approved.standardOutput + approved.standardError).contains("DEMO_ACCOUNT_REQUIRED"))
                #expect((approved.standardOutput + approved.standardError).contains("Sign up on the demo page"))
                // Refused before the phone was asked to sign: its passkey was never used.
                let keys = try await phone.run(["keys", "list"], server: false)
                #expect(keys.standardOutput.contains("never"), "\(keys.standardOutput)\(keys.standardError)")

                try await page.waitFor(text: "not to a demo account", in: "#phone-status")
                try await page.waitFor(selector: "#phone-again")
                #expect(try await page.url() == server.baseURL + "/")
                #expect(WebPagesBrowserTests.scriptErrors(page).isEmpty, "\(WebPagesBrowserTests.scriptErrors(page))")
            }
        }
    }

    @Test("the phone says not me (passkeys approve --reject): the desktop page says it was refused")
    func rejectedByCommandLine() async throws {
        try await PasskeysServeProcess.with { server in
            try await withBrowser { browser in
                let (page, shown) = try await Self.desktop(browser, server, userName: nil)
                let rejected = try await PhoneCommandLine(server: server).run(["approve", shown.link, "--reject"])
                #expect(rejected.status == 0, "\(rejected.standardOutput)\(rejected.standardError)")
                try await page.waitFor(text: "Refused on the phone", in: "#phone-status")
                try await page.waitFor(selector: "#phone-again")
                #expect(try await page.evaluate("document.getElementById('phone-handoff').hidden") == true)
                #expect(try await page.url() == server.baseURL + "/")
                try await page.screenshot(to: try Screenshots.folder().appendingPathComponent("phone-refused.png"))

                // A new code: a new handoff, pending again.
                try await page.click("#phone-again")
                try await page.waitUntil(
                    "document.getElementById('phone-link').value !== \(JSON.string(shown.link).text)",
                    "a new link"
                )
                try await page.waitFor(text: "Scan the QR code", in: "#phone-status")

                // A user name nobody has is answered as any other (the demo tells nobody which names exist): a
                // handoff, pending like the others.
                try await page.evaluate("document.getElementById('sign-in-name').value = 'nobody'")
                let previous = try await page.evaluate("document.getElementById('phone-link').value").string ?? ""
                try await page.click("#sign-in-phone")
                try await page.waitUntil(
                    "document.getElementById('phone-link').value !== \(JSON.string(previous).text)",
                    "a new link"
                )
                try await page.waitFor(text: "Scan the QR code", in: "#phone-status")
                #expect(try await page.evaluate("document.getElementById('phone-handoff').hidden") == false)
                #expect(WebPagesBrowserTests.scriptErrors(page).isEmpty, "\(WebPagesBrowserTests.scriptErrors(page))")
            }
        }
    }

    @Test("the phone panel and /approve's question fit a phone's width and a desktop's; the link can be copied")
    func widths() async throws {
        try await PasskeysServeProcess.with { server in
            try await withBrowser { browser in
                let (page, shown) = try await Self.desktop(browser, server, userName: nil)
                let phone = try await browser.newPage()
                try await phone.goto(shown.link)
                try await phone.waitFor(selector: "#approve-form")
                let shots = try Screenshots.folder()
                for (width, height, mobile) in [(390, 844, true), (1280, 900, false)] {
                    for (tab, name) in [(page, "phone-panel"), (phone, "approve-question")] {
                        try await tab.setViewport(width: width, height: height, mobile: mobile, deviceScaleFactor: 1)
                        let overflow = try await tab.evaluate(
                            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
                        )
                        #expect(overflow == 0, "\(name) at \(width) px overflows by \(overflow) px")
                        try await tab.screenshot(to: shots.appendingPathComponent("\(width)-\(name).png"))
                    }
                }
                try await page.click("#phone-copy")
                try await page.waitUntil(
                    "document.getElementById('phone-copy').textContent !== 'Copy the link'",
                    "the copy button to answer"
                )
                #expect(
                    try await page.evaluate(
                        "(() => { const e = document.getElementById('phone-link'); return e.value.slice(e.selectionStart, e.selectionEnd) })()"
                    ) == .string(shown.link)
                )
            }
        }
    }

    @Test("three wrong numbers on /approve refuse the sign-in: both tabs say so")
    func wrongNumbers() async throws {
        try await PasskeysServeProcess.with { server in
            try await withBrowser { browser in
                let (desktop, shown) = try await Self.desktop(browser, server, userName: nil)
                let phone = try await browser.newPage()
                try await phone.goto(shown.link)
                try await phone.waitFor(selector: "#approve-form")
                let wrong = String(format: "%02d", (Int(shown.code)! + 1) % 100)
                for expected in ["2 more tries", "1 more try", "for the last time"] {
                    try await phone.fill("#approve-code", wrong)
                    try await phone.click("#approve-form button[type=submit]")
                    try await phone.waitFor(text: expected, in: "#approve-status")
                }
                try await desktop.waitFor(text: "Refused on the phone", in: "#phone-status")
                // Even the right number is refused now, and the question goes away.
                try await phone.fill("#approve-code", shown.code)
                try await phone.click("#approve-form button[type=submit]")
                try await phone.waitFor(text: "refused on the phone", in: "#approve-status")
                #expect(try await phone.evaluate("document.getElementById('approve-ask').hidden") == true)
                for page in [phone, desktop] {
                    #expect(
                        WebPagesBrowserTests.scriptErrors(page).isEmpty,
                        "\(WebPagesBrowserTests.scriptErrors(page))"
                    )
                }
            }
        }
    }

    @Test("an unclaimed code expires: the page says so and a new code can be had")
    func expired() async throws {
        try await PasskeysServeProcess.with(configuration: #"{"expiries": {"handoff": 5}}"#) { server in
            try await withBrowser { browser in
                // Not `desktop(…)`: on a loaded machine the five seconds may pass before the QR code is seen, and the
                // expired page hides it. The link is enough to follow the code.
                let page = try await browser.newPage()
                try await page.goto(server.baseURL + "/")
                try await page.click("#sign-in-phone")
                try await page.waitUntil(
                    "document.getElementById('phone-link').value.startsWith(\(JSON.string(server.baseURL + "/approve#pkh_").text))",
                    "the link of the code"
                )
                let link = try #require(try await page.evaluate("document.getElementById('phone-link').value").string)
                try await page.waitFor(text: "This code has expired", in: "#phone-status", timeout: .seconds(30))
                #expect(try await page.evaluate("document.getElementById('phone-handoff').hidden") == true)
                try await page.screenshot(to: try Screenshots.folder().appendingPathComponent("phone-expired.png"))
                try await page.click("#phone-again")
                try await page.waitUntil(
                    "document.getElementById('phone-link').value !== \(JSON.string(link).text)",
                    "a new link"
                )
                // The new link is the new code. Its status reads "Scan the QR code" — or, on a machine slow enough that
                // its five seconds passed before this look, that it expired again: either is the page's truthful answer.
                let status = try await page.text("#phone-status")
                #expect(status.contains("Scan the QR code") || status.contains("This code has expired"), "\(status)")
                // The expired link, opened on a phone, says so.
                let phone = try await browser.newPage()
                try await phone.goto(link)
                try await phone.waitFor(text: "This sign-in has expired", in: "#approve-status")
                #expect(WebPagesBrowserTests.scriptErrors(page).isEmpty, "\(WebPagesBrowserTests.scriptErrors(page))")
            }
        }
    }

    @Test("/approve in a second tab with the passkey: a wrong number, then the right one; the first tab signs in")
    func approvedOnApprovePage() async throws {
        try await PasskeysServeProcess.with { server in
            try await withBrowser { browser in
                let phone = try await browser.newPage()
                _ = try await phone.addVirtualAuthenticator(WebPagesBrowserTests.platform)
                try await Self.signedUpAndOut(phone, server, "quentin")
                let (desktop, shown) = try await Self.desktop(browser, server, userName: nil)

                try await phone.goto(shown.link)
                try await phone.waitFor(selector: "#approve-form")
                #expect(try await phone.url() == server.baseURL + "/approve", "the token left the address")

                // The first press claims the handoff: the first tab sees it.
                let wrong = String(format: "%02d", (Int(shown.code)! + 1) % 100)
                try await phone.fill("#approve-code", wrong)
                try await phone.click("#approve-form button[type=submit]")
                try await phone.waitFor(text: "2 more tries", in: "#approve-status")
                try await desktop.waitFor(text: "Check the number on your phone", in: "#phone-status")

                try await phone.fill("#approve-code", shown.code)
                try await phone.click("#approve-form button[type=submit]")
                try await phone.waitFor(text: "Approved — the other device signs in", in: "#approve-status")
                let shots = try Screenshots.folder()
                try await phone.screenshot(to: shots.appendingPathComponent("approve-page-approved.png"))

                try await desktop.waitUntil("location.pathname == '/account'", "the account page on the first tab")
                try await desktop.waitFor(text: "Signed in as quentin", in: "header nav")

                // The link again: claimed already.
                try await phone.goto(server.baseURL + "/")
                try await phone.goto(shown.link)
                try await phone.waitFor(text: "Another device opened this sign-in first", in: "#approve-status")
                try await phone.screenshot(to: shots.appendingPathComponent("approve-page-claimed.png"))
                for page in [phone, desktop] {
                    #expect(
                        WebPagesBrowserTests.scriptErrors(page).isEmpty,
                        "\(WebPagesBrowserTests.scriptErrors(page))"
                    )
                }
            }
        }
    }

    @Test(
        "/approve shows a step-up's text as text and approves it; a session that needs identity verification is sent to the app"
    )
    func approvePageStepUp() async throws {
        try await PasskeysServeProcess.with(configuration: #"{"identityVerification": {"provider": "simulated"}}"#) {
            server in
            try await withBrowser { browser in
                let phone = try await browser.newPage()
                _ = try await phone.addVirtualAuthenticator(WebPagesBrowserTests.platform)
                try await Self.signedUpAndOut(phone, server, "rosa")
                let users = try await server.backend("/v1/users?userName=rosa")
                let userID = try #require((users["users"] as? [[String: Any]])?.first?["userId"] as? String)
                let text = "<img src=x onerror=\"document.title='attacked'\"> Pay 5.00 EUR\nto Example Shop"
                let payment = try await server.handoff(
                    #"{"userId": \#(JSON.string(userID).text), "mode": "stepUp", "transaction": {"text": \#(JSON.string(text).text)}}"#
                )
                try await phone.goto(payment.link)
                try await phone.waitFor(selector: "#approve-transaction")
                #expect(
                    try await phone.evaluate("document.getElementById('approve-transaction').textContent")
                        == .string(text)
                )
                #expect(try await phone.evaluate("document.querySelectorAll('#approve-transaction *').length") == 0)
                try await phone.fill("#approve-code", payment.code)
                try await phone.click("#approve-form button[type=submit]")
                try await phone.waitFor(text: "Approved — the other device signs in", in: "#approve-status")
                #expect(try await phone.evaluate("document.title") != "attacked")

                let checked = try await server.handoff(
                    #"{"userId": \#(JSON.string(userID).text), "mode": "stepUp", "identityVerification": "required"}"#
                )
                try await phone.goto(server.baseURL + "/")
                try await phone.goto(checked.link)
                try await phone.waitFor(text: "needs an identity check", in: "#approve-status")
                #expect(try await phone.evaluate("document.getElementById('approve-ask').hidden") == true)
                try await phone.screenshot(
                    to: try Screenshots.folder().appendingPathComponent("approve-page-app-needed.png")
                )
                #expect(WebPagesBrowserTests.scriptErrors(phone).isEmpty, "\(WebPagesBrowserTests.scriptErrors(phone))")
            }
        }
    }

    @Test("without the event stream the page polls the status: a refusal still reaches it")
    func pollingFallback() async throws {
        try await PasskeysServeProcess.with { server in
            try await withBrowser { browser in
                let page = try await browser.newPage()
                try await page.goto(server.baseURL + "/")
                // The stream cannot be opened (as behind a proxy that refuses it); every other request goes through.
                try await page.evaluate(
                    """
                    (() => { const original = window.fetch; window.polled = 0;
                      window.fetch = (input, init) => {
                        const url = String(input);
                        if (url.endsWith('/events')) return Promise.reject(new TypeError('stream refused'));
                        if (url.endsWith('/status')) window.polled += 1;
                        return original(input, init); };
                      return true })()
                    """
                )
                try await page.click("#sign-in-phone")
                try await page.waitFor(text: "Scan the QR code", in: "#phone-status")
                try await page.waitUntil("window.polled >= 1", "a first poll of the status")
                let link = try #require(try await page.evaluate("document.getElementById('phone-link').value").string)
                let rejected = try await PhoneCommandLine(server: server).run(["approve", link, "--reject"])
                #expect(rejected.status == 0, "\(rejected.standardOutput)\(rejected.standardError)")
                try await page.waitFor(text: "Refused on the phone", in: "#phone-status")
                #expect(try await page.evaluate("window.polled").int ?? 0 >= 2)
            }
        }
    }
}
