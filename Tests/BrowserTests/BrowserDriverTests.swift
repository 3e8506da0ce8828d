import BrowserTestSupport
import Foundation
import Testing
import WebAuthn

/// The browser driver against a real headless Chromium and its virtual authenticator.
@Suite(.requiresChromium, .timeLimit(.minutes(10)))
struct BrowserDriverTests {
    @Test func registersAndSignsInWithAPlatformAuthenticator() async throws {
        try await SmokeSite.withServer { address in
            try await withBrowser { browser in
                let page = try await browser.newPage()
                let authenticator = try await page.addVirtualAuthenticator(
                    .init(protocol: .ctap2, transport: .internal, hasResidentKey: true, hasUserVerification: true)
                )
                try await page.goto(address)
                let screenshots = try Screenshots.folder()
                try await page.screenshot(to: screenshots.appendingPathComponent("1-ready.png"))

                try await page.fill("#name", "alice")
                try await page.click("#register")
                try await page.waitFor(text: "Signed in as alice", in: "#status")

                let credentials = try await authenticator.credentials()
                #expect(credentials.count == 1)
                let credential = try #require(credentials.first)
                #expect(credential.isResidentCredential)
                #expect(credential.rpId == "localhost")
                #expect(credential.userHandle == (try await page.evaluate("window.userID").string))
                #expect(try await page.evaluate("window.registration.id").string == credential.id)
                #expect(try await page.text("#status").hasSuffix(credential.id))

                // confirm() is accepted unless told otherwise, and every dialog is recorded.
                try await page.click("#delete")
                try await page.waitFor(text: "Deleted.", in: "#deleted")
                page.answerDialogs { _ in .dismiss }
                try await page.click("#delete")
                try await page.waitFor(text: "Kept.", in: "#deleted")
                #expect(page.dialogs.map(\.message) == ["Delete the passkey?", "Delete the passkey?"])
                #expect(page.dialogs.allSatisfy { $0.type == "confirm" })

                let cookie = try #require(try await page.cookies().first { $0.name == "smoke" })
                #expect(cookie.httpOnly)
                #expect(cookie.sameSite == "Strict")
                #expect(try await page.evaluate("document.cookie") == "")

                try await page.setViewport(width: 390, height: 844, mobile: true, deviceScaleFactor: 2)
                #expect(try await page.evaluate("innerWidth") == 390)
                try await page.screenshot(to: screenshots.appendingPathComponent("2-signed-in-phone.png"))
                #expect(page.errors.isEmpty, "\(page.errors)")
            }
        }
    }

    @Test func aU2FSecurityKeyAttestsWithFidoU2F() async throws {
        try await SmokeSite.withServer { address in
            try await withBrowser { browser in
                let page = try await browser.newPage()
                let authenticator = try await page.addVirtualAuthenticator(.securityKey)
                // U2F keys cannot keep discoverable credentials or verify the user.
                try await page.goto(
                    address + "?attestation=direct&residentKey=discouraged&userVerification=discouraged"
                )
                try await page.fill("#name", "bob")
                try await page.press("Enter")
                try await page.waitFor(text: "Signed in as bob", in: "#status")

                let json = try #require(try await page.evaluate("JSON.stringify(window.registration)").string)
                let registration = try RegistrationResponseJSON(jsonBytes: Array(json.utf8))
                let attestation = try AttestationObject(bytes: registration.response.attestationObject.bytes)
                #expect(attestation.format == .fidoU2F)
                #expect(!attestation.authenticatorData.userVerified)

                let credentials = try await authenticator.credentials()
                #expect(credentials.map(\.id) == [registration.id])
                #expect(credentials.first?.isResidentCredential == false)
                #expect(
                    attestation.authenticatorData.attestedCredentialData?.credentialID == registration.rawId.bytes
                )
            }
        }
    }

    @Test func failuresSayWhatHappened() async throws {
        try await withBrowser { browser in
            let page = try await browser.newPage()
            try await page.goto("data:text/html,<p id=greeting>Hello</p>")
            #expect(try await page.text("#greeting") == "Hello")

            let thrown = await #expect(throws: BrowserError.self) { try await page.evaluate("null.x") }
            guard case .javaScriptException(let text) = thrown else { throw thrown ?? BrowserError.cancelled }
            #expect(text.contains("TypeError"))
            #expect(try await page.evaluate("Promise.resolve(6 * 7)") == 42)

            await #expect(
                throws: BrowserError.commandFailed(
                    method: "Page.noSuchCommand",
                    message: "'Page.noSuchCommand' wasn't found"
                )
            ) {
                try await page.send("Page.noSuchCommand")
            }
            let timeout = await #expect(throws: BrowserError.self) {
                try await page.waitFor(text: "Goodbye", in: "#greeting", timeout: .milliseconds(300))
            }
            #expect("\(timeout.map { "\($0)" } ?? "")".contains(#"it reads "Hello""#))
            await #expect(throws: BrowserError.page("No element matches #missing.")) {
                try await page.text("#missing")
            }
        }
    }
}

/// Launching fails with the browser's own output rather than hanging, whatever the browser is.
struct BrowserLaunchTests {
    @Test func aBrowserThatNeverListensFailsWithItsOutput() async throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("silent-browser-\(UUID()).sh")
        // It never exits by itself (the launch kills it): on a machine so loaded that the launch's wait wakes late,
        // the answer is still the time limit, not an exit.
        try "#!/bin/sh\necho 'starting up' >&2\nexec sleep 3600\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        defer { try? FileManager.default.removeItem(at: script) }

        var outcome: BrowserError?
        // A process another test starts at the moment the script is written can hold it open for writing for a
        // moment, and Linux refuses to run it meanwhile ("Text file busy").
        for _ in 0..<20 {
            do {
                try await Browser.launch(.init(executable: script.path, launchTimeout: .milliseconds(500))).close()
                outcome = nil
            } catch {
                outcome = error
            }
            guard "\(outcome.map { "\($0)" } ?? "")".contains("Text file busy") else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        guard case .launchFailed(let reason) = try #require(outcome) else { throw outcome ?? BrowserError.cancelled }
        // Not "exited before listening": the launch gave up at its time limit.
        #expect(reason.contains("printed no DevTools address within 0.5 seconds"))
        #expect(reason.contains("starting up"))
    }

    @Test func aBrowserThatExitsFailsAtOnce() async throws {
        let error = await #expect(throws: BrowserError.self) {
            _ = try await Browser.launch(.init(executable: "/bin/false"))
        }
        guard case .launchFailed(let reason) = error else { throw error ?? BrowserError.cancelled }
        #expect(reason.contains("exited with status 1"))
    }
}
