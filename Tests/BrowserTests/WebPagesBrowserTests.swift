import BrowserTestSupport
import Foundation
import Testing

/// The demo, the account page and the console in a real headless Chromium with its WebAuthn virtual
/// authenticator, against a real `passkeys serve` process. Screenshots of every page go to the folder each test
/// prints.
@Suite(.requiresChromium, .timeLimit(.minutes(10)))
struct WebPagesBrowserTests {
    /// A platform authenticator: CTAP2, internal, discoverable credentials, user verification.
    static let platform = VirtualAuthenticator.Options(
        protocol: .ctap2,
        transport: .internal,
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true
    )

    @Test(
        "sign up, sign out, sign in with a user name, without one and by autofill; rename and delete"
    )
    func demoAndAccount() async throws {
        try await PasskeysServeProcess.with { server in
            try await withBrowser { browser in
                let page = try await browser.newPage()
                let authenticator = try await page.addVirtualAuthenticator(Self.platform)
                let shots = try Screenshots.folder()
                try await page.goto(server.baseURL + "/")
                try await page.waitFor(selector: "#sign-up")
                try await page.screenshot(to: shots.appendingPathComponent("1-demo.png"))

                // The keyboard reaches the skip link first, and focus is visible.
                try await page.press("Tab")
                #expect(try await page.evaluate("document.activeElement.className") == "skip")
                #expect(try await page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid")

                // A refused user name: the page shows the server's own message for the field.
                try await page.fill("#sign-up-name", "two words")
                try await page.click("#sign-up button[type=submit]")
                try await page.waitFor(text: "A user name is 1 to 64 letters, digits", in: "#status")

                // Sign up, submitting with the keyboard.
                try await page.fill("#sign-up-name", "alice")
                try await page.fill("#sign-up-display", "Alice Example")
                try await page.press("Enter")
                try await page.waitFor(text: "Your account is ready", in: "#status")
                #expect(try await page.url() == server.baseURL + "/account?done=welcome")
                #expect(try await page.text("header nav").contains("Signed in as alice"))
                let credentials = try await authenticator.credentials()
                #expect(credentials.count == 1)
                #expect(credentials.first?.isResidentCredential == true)
                let cookie = try #require(try await page.cookies().first { $0.name == "passkeys_session" })
                #expect(cookie.httpOnly)
                #expect(cookie.sameSite == "Lax")
                #expect(!cookie.secure, "served over http://localhost")
                #expect(try await page.evaluate("document.cookie") == "")
                try await page.screenshot(to: shots.appendingPathComponent("2-account.png"))

                // Sign out, then sign in with the user name (the modal button; no autofill: the field is not focused).
                try await Self.signOut(page)
                try await page.evaluate("document.getElementById('sign-in-name').value = 'alice'")
                try await page.click("#sign-in button[type=submit]")
                try await page.waitUntil("location.pathname == '/account'", "the account page after sign-in")
                try await page.waitFor(text: "Signed in as alice", in: "header nav")

                // Without a user name (a discoverable credential).
                try await Self.signOut(page)
                try await page.click("#sign-in-discoverable")
                try await page.waitUntil(
                    "location.pathname == '/account'",
                    "the account page after usernameless sign-in"
                )

                // Autofill: focusing the user name field starts a conditional request, which the virtual
                // authenticator answers as a user picking the suggested passkey would.
                try await Self.signOut(page)
                try await page.click("#sign-in-name")
                try await page.waitUntil("location.pathname == '/account'", "the account page after autofill sign-in")

                // Rename.
                try await page.fill(".rename input[name=name]", "Alice's laptop")
                try await page.click(".rename button[type=submit]")
                try await page.waitFor(text: "Passkey renamed.", in: "#status")
                #expect(try await page.text(".passkey h3").hasPrefix("Alice's laptop"))

                // Adding another passkey on the same device: the browser refuses (excludeCredentials).
                try await page.click("#add-passkey button[type=submit]")
                // Before: "This device already has a passkey for this account. Sign in with it instead." — to
                // someone signed in already.
                try await page.waitFor(text: "This device already has a passkey for your account", in: "#status")
                #expect(try await !page.text("#status").contains("Sign in with it instead"))

                // "Confirm a payment" is explained in a user's words (before: challenge, SHA-256).
                let stepUp = try await page.text("section[aria-labelledby=step-up-heading]")
                #expect(stepUp.contains("your passkey again"), "\(stepUp)")
                #expect(!stepUp.contains("challenge") && !stepUp.contains("SHA-256 of"), "\(stepUp)")

                try await page.setViewport(width: 390, height: 844, mobile: true, deviceScaleFactor: 2)
                try await page.screenshot(to: shots.appendingPathComponent("3-account-phone.png"))
                try await page.setViewport(width: 1280, height: 900)

                // Delete, after the confirmation page.
                try await page.click("a.delete")
                try await page.waitFor(selector: "#confirm-delete")
                try await page.screenshot(to: shots.appendingPathComponent("4-confirm-delete.png"))
                try await page.click("#confirm-delete")
                // It was the passkey this session signed in with: the session ended with it.
                try await page.waitFor(text: "Passkey deleted. You had signed in with it", in: "#status")
                #expect(try await page.url().hasPrefix(server.baseURL + "/?done=deleted-signed-out&credential="))
                #expect(
                    try await page.evaluate("fetch('/account', {redirect: 'manual'}).then(r => r.type)")
                        == "opaqueredirect"
                )
                try await page.screenshot(to: shots.appendingPathComponent("5-deleted.png"))

                // The page told the browser's provider to forget it (SignalsBrowserTests). A sign-in with the user name
                // asks for any passkey of this site (the demo never looks a name up): the device has none left to
                // offer, or offers the deleted one, which the server refuses. (The server's refusal of a deleted
                // passkey that a device still holds is tested in process: DemoTests.)
                try await page.evaluate("document.getElementById('sign-in-name').value = 'alice'")
                try await page.click("#sign-in button[type=submit]")
                try await page.waitUntil(
                    "/no passkey for this site|deleted from your account/.test(document.getElementById('status').textContent)",
                    "the sign-in refused"
                )

                // "Sign in" with an empty user name asks for the name (before: a usernameless sign-in, unasked).
                try await page.goto(server.baseURL + "/")
                try await page.evaluate("document.getElementById('sign-in-name').value = ''")
                try await page.click("#sign-in button[type=submit]")
                try await page.waitFor(text: "Type your user name", in: "#status")
                #expect(try await page.text("#status").contains("Sign in without a user name"))
                #expect(try await page.url() == server.baseURL + "/")
                #expect(Self.scriptErrors(page).isEmpty, "\(Self.scriptErrors(page))")
            }
        }
    }

    @Test("a U2F security key registers with fido-u2f attestation; the operator console shows and revokes it")
    func securityKeyAndConsole() async throws {
        // U2F keys keep no discoverable credentials and cannot verify the user, so this server asks for neither,
        // and for direct attestation.
        let configuration = #"""
            {"policy": {"residentKey": "discouraged", "userVerification": "discouraged", "attestation": "direct"}}
            """#
        // This server also syncs every SQLite commit (the durability option of the database setting).
        try await PasskeysServeProcess.with(configuration: configuration, sqliteOption: "?synchronous=full") { server in
            try await withBrowser { browser in
                let page = try await browser.newPage()
                let key = try await page.addVirtualAuthenticator(.securityKey)
                let shots = try Screenshots.folder()
                try await page.goto(server.baseURL + "/")
                try await page.fill("#sign-up-name", "bob")
                try await page.click("#sign-up button[type=submit]")
                try await page.waitFor(text: "Your account is ready", in: "#status")
                #expect(try await key.credentials().count == 1)

                let users = try await server.backend("/v1/users?query=bob")
                let bob = try #require((users["users"] as? [[String: Any]])?.first?["userId"] as? String)
                let listed = try await server.backend("/v1/users/\(bob)/credentials")
                let credential = try #require((listed["credentials"] as? [[String: Any]])?.first)
                #expect(credential["attestationFormat"] as? String == "fido-u2f")
                #expect(credential["kind"] as? String == "device-bound")
                #expect(
                    FileManager.default.fileExists(atPath: server.folder.appendingPathComponent("passkeys.sqlite").path)
                )

                // The console is closed until the operator presents an API key.
                try await page.goto(server.baseURL + "/console")
                try await page.fill("#api-key", "not the key")
                try await page.click("form button[type=submit]")
                try await page.waitFor(text: "not one of this server's API keys")
                try await page.fill("#api-key", PasskeysServeProcess.apiKey)
                try await page.click("form button[type=submit]")
                try await page.waitFor(text: "bob", in: "table")
                try await page.screenshot(to: shots.appendingPathComponent("1-console-users.png"))
                try await page.click("table a")
                try await page.waitFor(text: "fido-u2f", in: "table")
                try await page.screenshot(to: shots.appendingPathComponent("2-console-user.png"))
                try await page.click("button.revoke")
                try await page.waitFor(text: "Passkey revoked.")
                try await page.click("a[href^='/console/audit']")
                try await page.waitFor(text: "credential.revoked", in: "table")
                try await page.screenshot(to: shots.appendingPathComponent("3-console-audit.png"))
                #expect(Self.scriptErrors(page).isEmpty, "\(Self.scriptErrors(page))")
            }
        }
    }

    /// What the page logged besides the refusals these tests provoke (the browser logs every 4xx response).
    static func scriptErrors(_ page: Page) -> [String] {
        page.errors.filter { !$0.hasPrefix("Failed to load resource: the server responded with a status of 4") }
    }

    /// Signs out with the header's button. On a loaded machine a click that lands while the account page is still
    /// settling was seen to go nowhere (the page stayed, nothing was posted): the button is clicked again while the
    /// page stays on the account page, three times at most.
    static func signOut(_ page: Page) async throws {
        let demoPage = "location.pathname == '/' && !!document.getElementById('sign-in')"
        for attempt in 1...3 {
            try await page.click("#sign-out")
            do {
                try await page.waitUntil(demoPage, "the demo page", timeout: .seconds(attempt == 3 ? 60 : 10))
                return
            } catch {
                guard attempt < 3, try await page.url().contains("/account") else { throw error }
            }
        }
    }
}
