import BrowserTestSupport
import Crypto
import Foundation
import Testing
import WebAuthn

/// Console passkeys in a real headless Chromium against `passkeys serve`: an operator's demo passkey does not open the
/// console; a break-glass session enrols the operator's console passkey on their user page, and that one does.
@Suite(.requiresChromium, .timeLimit(.minutes(10)))
struct ConsolePasskeyBrowserTests {
    /// The demo's user id for a name, as the server derives it.
    static func demoUserID(_ name: String) -> String {
        "demo-" + Base64URL.encode(Array(SHA256.hash(data: Array("swift-passkeys demo user:\(name)".utf8))).prefix(18))
    }

    @Test("a demo passkey is refused by the console; a console passkey enrolled in a break-glass session opens it")
    func enrolAndSignIn() async throws {
        let operatorID = Self.demoUserID("olga")
        let configuration = #"{"web": {"operators": ["\#(operatorID)"]}}"#
        try await PasskeysServeProcess.with(configuration: configuration) { server in
            try await withBrowser { browser in
                // The operator signs up on the demo page, on their everyday device.
                let everyday = try await browser.newPage()
                _ = try await everyday.addVirtualAuthenticator(WebPagesBrowserTests.platform)
                try await everyday.goto(server.baseURL + "/")
                try await everyday.fill("#sign-up-name", "olga")
                try await everyday.click("#sign-up button[type=submit]")
                try await everyday.waitFor(text: "Your account is ready", in: "#status")
                #expect(try await everyday.evaluate("!!document.getElementById('add-passkey')") == false)
                #expect(try await everyday.evaluate("!!document.getElementById('operator-account')") == true)
                try await everyday.goto(server.baseURL + "/console")
                try await everyday.click("#console-passkey")
                try await everyday.waitFor(text: "not added for the console", in: "#status")

                // A break-glass session enrols the console passkey, on the operator's console device.
                let console = try await browser.newPage()
                let key = try await console.addVirtualAuthenticator(WebPagesBrowserTests.platform)
                try await console.goto(server.baseURL + "/console")
                try await console.fill("#api-key", PasskeysServeProcess.apiKey)
                try await console.click("form.card button[type=submit]")
                try await console.waitFor(selector: "table")
                try await console.goto(server.baseURL + "/console/users/\(operatorID)")
                try await console.click("#enrol-console-passkey")
                try await console.waitFor(text: "Console passkey added.")
                try await console.waitFor(text: "(console)", in: "table")
                #expect(try await key.credentials().count == 1)

                // Signed out of the break-glass session, the operator signs in with the console passkey.
                try await console.click("#console-sign-out")
                try await console.waitFor(selector: "#console-passkey")
                try await console.click("#console-passkey")
                try await console.waitFor(text: "user:\(operatorID)", in: "nav")
                #expect(
                    WebPagesBrowserTests.scriptErrors(console).isEmpty,
                    "\(WebPagesBrowserTests.scriptErrors(console))"
                )
            }
        }
    }
}
