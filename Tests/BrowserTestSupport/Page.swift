public import Foundation
import Synchronization
public import WebAuthn

/// One browser tab, attached as a flattened DevTools session.
///
/// Waits poll the page until what they wait for is true, and fail after the connection's timeout (15 s unless
/// told otherwise) saying what the page showed instead. Dialogs (`alert`, `confirm`, `prompt`) are answered by
/// `dialogHandler` (accept, unless set otherwise) and recorded in `dialogs`; script errors, failed loads and
/// `console.error` messages are recorded in `errors`.
public final class Page: Sendable {
    public let connection: CDPConnection
    public let session: String
    public let targetID: String
    private let state = Mutex(State())

    private struct State {
        var dialogs: [Dialog] = []
        var errors: [String] = []
        var answer: @Sendable (Dialog) -> DialogAnswer = { _ in .accept }
        var webAuthnEnabled = false
    }

    init(connection: CDPConnection, session: String, targetID: String) {
        self.connection = connection
        self.session = session
        self.targetID = targetID
    }

    /// The dialogs the page opened so far, in order.
    public var dialogs: [Dialog] { state.withLock { $0.dialogs } }
    /// Uncaught exceptions, `console.error` messages and errors the browser logged (failed loads, blocked content).
    public var errors: [String] { state.withLock { $0.errors } }

    /// Decides how each dialog is answered from now on.
    public func answerDialogs(_ answer: @escaping @Sendable (Dialog) -> DialogAnswer) {
        state.withLock { $0.answer = answer }
    }

    func prepare() async throws(BrowserError) {
        connection.listen("Page.javascriptDialogOpening", session: session) { [weak self] params in
            self?.dialogOpened(params)
        }
        connection.listen("Runtime.exceptionThrown", session: session) { [weak self] params in
            let details = params["exceptionDetails"]
            self?.record(details?["exception"]?["description"]?.string ?? details?["text"]?.string ?? "\(params)")
        }
        connection.listen("Runtime.consoleAPICalled", session: session) { [weak self] params in
            guard params["type"]?.string == "error" || params["type"]?.string == "assert" else { return }
            let arguments = params["args"]?.array ?? []
            self?.record(
                "console.error: "
                    + arguments.map { $0["value"]?.string ?? $0["description"]?.string ?? "\($0)" }
                    .joined(separator: " ")
            )
        }
        connection.listen("Log.entryAdded", session: session) { [weak self] params in
            guard let entry = params["entry"], entry["level"]?.string == "error" else { return }
            self?.record("\(entry["text"]?.string ?? "")\(entry["url"]?.string.map { " (\($0))" } ?? "")")
        }
        for domain in ["Page", "Runtime", "Network", "Log"] {
            try await send("\(domain).enable")
        }
    }

    /// Sends a command to this page's session.
    @discardableResult
    public func send(
        _ method: String,
        _ params: JSON = [:],
        timeout: Duration? = nil
    ) async throws(BrowserError) -> JSON {
        try await connection.send(method, params, session: session, timeout: timeout)
    }

    // MARK: - Navigating and scripts

    /// Loads `url` and waits for its `load` event.
    public func goto(_ url: String, timeout: Duration? = nil) async throws(BrowserError) {
        let loaded = connection.expect("Page.loadEventFired", session: session)
        let reply: JSON
        do {
            reply = try await send("Page.navigate", ["url": .string(url)])
        } catch {
            loaded.cancel()
            throw error
        }
        if let failure = reply["errorText"]?.string, !failure.isEmpty {
            loaded.cancel()
            throw .page("Loading \(url) failed: \(failure)")
        }
        _ = try await loaded.value(timeout: timeout)
    }

    /// The value of a JavaScript expression, after awaiting it if it is a promise. Throws with the exception's
    /// text when it throws or rejects. For statements, wrap them: `(() => { …; return x })()`.
    @discardableResult
    public func evaluate(_ expression: String, timeout: Duration? = nil) async throws(BrowserError) -> JSON {
        let reply = try await send(
            "Runtime.evaluate",
            ["expression": .string(expression), "awaitPromise": true, "returnByValue": true, "userGesture": true],
            timeout: timeout
        )
        if let details = reply["exceptionDetails"] {
            throw .javaScriptException(
                details["exception"]?["description"]?.string ?? details["text"]?.string ?? "\(details)"
            )
        }
        return reply["result"]?["value"] ?? .null
    }

    /// The address of the page now shown.
    public func url() async throws(BrowserError) -> String {
        try await evaluate("location.href").string ?? ""
    }

    // MARK: - Waiting

    /// Waits until an element matches `selector` (and, when `visible`, has a box and is not hidden).
    public func waitFor(selector: String, visible: Bool = true, timeout: Duration? = nil) async throws(BrowserError) {
        let check = """
            (() => { const e = document.querySelector(\(js(selector)));
              if (!e) return 'nothing matches';
              if (\(visible) && (e.getClientRects().length === 0 || getComputedStyle(e).visibility === 'hidden'))
                return 'it is not visible';
              return true })()
            """
        try await poll("\(selector) to appear", timeout: timeout) { () async throws(BrowserError) -> Poll<Void> in
            let result = try await evaluate(check)
            return result == true ? .done(()) : .notYet(result.string ?? "\(result)")
        }
    }

    /// Waits until the text of the element matching `selector` contains `text`.
    public func waitFor(
        text: String,
        in selector: String = "body",
        timeout: Duration? = nil
    ) async throws(BrowserError) {
        let read = "document.querySelector(\(js(selector)))?.innerText ?? null"
        try await poll("\(js(text)) in \(selector)", timeout: timeout) { () async throws(BrowserError) -> Poll<Void> in
            guard let shown = try await evaluate(read).string else { return .notYet("nothing matches \(selector)") }
            return shown.contains(text) ? .done(()) : .notYet("it reads \(js(String(shown.prefix(500))))")
        }
    }

    /// Waits until a JavaScript expression is truthy; `description` names it in a failure.
    public func waitUntil(
        _ condition: String,
        _ description: String? = nil,
        timeout: Duration? = nil
    ) async throws(BrowserError) {
        try await poll(description ?? condition, timeout: timeout) { () async throws(BrowserError) -> Poll<Void> in
            guard try await evaluate("!!(\(condition))") != true else { return .done(()) }
            // Where the page is, so that a failure says what it shows instead.
            let shown = try await evaluate("location.href + ' — ' + document.body.innerText.slice(0, 300)")
            return .notYet("it is false; the page is \(shown.string ?? "unknown")")
        }
    }

    /// The visible text of the element matching `selector`.
    public func text(_ selector: String) async throws(BrowserError) -> String {
        guard let text = try await evaluate("document.querySelector(\(js(selector)))?.innerText ?? null").string else {
            throw .page("No element matches \(selector).")
        }
        return text
    }

    // MARK: - Input

    /// Clicks the middle of the element matching `selector` with the mouse, once it is visible, enabled and not
    /// covered by another element (it is scrolled into view first).
    public func click(_ selector: String, timeout: Duration? = nil) async throws(BrowserError) {
        let locate = """
            (() => { const e = document.querySelector(\(js(selector)));
              if (!e) return 'nothing matches';
              if (e.disabled) return 'it is disabled';
              e.scrollIntoView({block: 'center', inline: 'center'});
              const r = e.getBoundingClientRect();
              if (r.width === 0 || r.height === 0) return 'it is not visible';
              const x = r.left + r.width / 2, y = r.top + r.height / 2, hit = document.elementFromPoint(x, y);
              if (!hit || !(hit === e || e.contains(hit)))
                return 'it is covered by ' + (hit ? hit.outerHTML.slice(0, 120) : 'nothing');
              return {x, y} })()
            """
        let point = try await poll("\(selector) to be clickable", timeout: timeout) {
            () async throws(BrowserError) -> Poll<(Double, Double)> in
            let result = try await evaluate(locate)
            if let x = result["x"]?.double, let y = result["y"]?.double { return .done((x, y)) }
            return .notYet(result.string ?? "\(result)")
        }
        let at: JSON = ["x": .number(point.0), "y": .number(point.1)]
        try await send("Input.dispatchMouseEvent", merge(at, ["type": "mouseMoved"]))
        for type: JSON in ["mousePressed", "mouseReleased"] {
            try await send(
                "Input.dispatchMouseEvent",
                merge(at, ["type": type, "button": "left", "buttons": 1, "clickCount": 1])
            )
        }
    }

    /// Replaces the value of the field matching `selector` with `text`, typed as a person would (input events).
    public func fill(_ selector: String, _ text: String, timeout: Duration? = nil) async throws(BrowserError) {
        try await waitFor(selector: selector, timeout: timeout)
        let focused = try await evaluate(
            """
            (() => { const e = document.querySelector(\(js(selector)));
              e.focus(); if (e.select) e.select();
              return document.activeElement === e })()
            """
        )
        guard focused == true else { throw .page("\(selector) cannot take the focus.") }
        try await send("Input.insertText", ["text": .string(text)])
        let value = try await evaluate("document.querySelector(\(js(selector))).value")
        guard value.string == text else { throw .page("\(selector) holds \(value) after typing \(js(text)).") }
    }

    /// Presses and releases a key in the focused element: Enter, Tab, Escape, Backspace or an arrow key.
    public func press(_ key: String) async throws(BrowserError) {
        let codes = [
            "Enter": 13, "Tab": 9, "Escape": 27, "Backspace": 8,
            "ArrowLeft": 37, "ArrowUp": 38, "ArrowRight": 39, "ArrowDown": 40,
        ]
        guard let code = codes[key] else { throw .page("press does not know the key \(key).") }
        var down: JSON = ["type": "keyDown", "key": .string(key), "code": .string(key)]
        down = merge(down, ["windowsVirtualKeyCode": .number(Double(code))])
        if key == "Enter" { down = merge(down, ["text": "\r"]) }
        try await send("Input.dispatchKeyEvent", down)
        try await send("Input.dispatchKeyEvent", merge(down, ["type": "keyUp", "text": ""]))
    }

    // MARK: - Screen

    /// Emulates a screen: `mobile` also gives the page a phone's meta-viewport handling and scrollbars.
    public func setViewport(
        width: Int,
        height: Int,
        mobile: Bool = false,
        deviceScaleFactor: Double = 1
    ) async throws(BrowserError) {
        try await send(
            "Emulation.setDeviceMetricsOverride",
            [
                "width": .number(Double(width)), "height": .number(Double(height)),
                "deviceScaleFactor": .number(deviceScaleFactor), "mobile": .bool(mobile),
            ]
        )
    }

    /// Writes a PNG of the page to `file` (the whole page, or only what the viewport shows). The page's tab is
    /// brought to the front first: a tab behind another draws no frame, and its capture would never come.
    public func screenshot(to file: URL, fullPage: Bool = true) async throws(BrowserError) {
        _ = try await send("Page.bringToFront")
        var params: JSON = ["format": "png"]
        if fullPage {
            let size = try await send("Page.getLayoutMetrics")["cssContentSize"]
            if let width = size?["width"]?.double, let height = size?["height"]?.double {
                let clip: JSON = ["x": 0, "y": 0, "width": .number(width), "height": .number(height), "scale": 1]
                params = merge(params, ["clip": clip, "captureBeyondViewport": true])
            }
        }
        guard let base64 = try await send("Page.captureScreenshot", params)["data"]?.string,
            let png = Data(base64Encoded: base64)
        else {
            throw .unexpected("Page.captureScreenshot returned no image.")
        }
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try png.write(to: file)
        } catch {
            throw .unexpected("Writing the screenshot \(file.path) failed: \(error)")
        }
    }

    // MARK: - Cookies and authenticators

    /// The cookies the browser would send to the page's address.
    public func cookies() async throws(BrowserError) -> [Cookie] {
        try await send("Network.getCookies")["cookies"]?.array?.map(Cookie.init) ?? []
    }

    /// Adds a virtual authenticator to this page's browser context (it answers every page's WebAuthn calls).
    public func addVirtualAuthenticator(
        _ options: VirtualAuthenticator.Options = .init()
    ) async throws(BrowserError) -> VirtualAuthenticator {
        if !state.withLock({ $0.webAuthnEnabled }) {
            try await send("WebAuthn.enable", ["enableUI": false])
            state.withLock { $0.webAuthnEnabled = true }
        }
        let reply = try await send("WebAuthn.addVirtualAuthenticator", ["options": options.json])
        guard let id = reply["authenticatorId"]?.string else {
            throw .unexpected("WebAuthn.addVirtualAuthenticator returned no authenticatorId: \(reply)")
        }
        return VirtualAuthenticator(page: self, id: id)
    }

    /// Closes the tab.
    public func close() async throws(BrowserError) {
        try await connection.send("Target.closeTarget", ["targetId": .string(targetID)])
    }

    // MARK: - Helpers

    private func dialogOpened(_ params: JSON) {
        let dialog = Dialog(
            type: params["type"]?.string ?? "",
            message: params["message"]?.string ?? "",
            defaultPrompt: params["defaultPrompt"]?.string
        )
        let decide = state.withLock { state in
            state.dialogs.append(dialog)
            return state.answer
        }
        var params: JSON = ["accept": true]
        switch decide(dialog) {
        case .accept: break
        case .dismiss: params = ["accept": false]
        case .reply(let text): params = ["accept": true, "promptText": .string(text)]
        }
        // The reply comes on the connection's reading task, which called this: answer from another task.
        Task { [connection, session] in
            _ = try? await connection.send("Page.handleJavaScriptDialog", params, session: session)
        }
    }

    private func record(_ error: String) {
        state.withLock { $0.errors.append(error) }
    }

    private enum Poll<Value> {
        case done(Value)
        case notYet(String)
    }

    /// Tries `attempt` every 50 ms until it is done; a script that throws meanwhile (the page is navigating, say)
    /// counts as not yet. Fails after `timeout` saying what the last attempt saw.
    private func poll<Value>(
        _ what: String,
        timeout: Duration?,
        _ attempt: () async throws(BrowserError) -> Poll<Value>
    ) async throws(BrowserError) -> Value {
        let timeout = timeout ?? connection.defaultTimeout
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let seen: String
            do {
                switch try await attempt() {
                case .done(let value): return value
                case .notYet(let state): seen = state
                }
            } catch {
                guard case .javaScriptException(let text) = error else { throw error }
                seen = "the check threw \(text)"
            }
            if clock.now >= deadline { throw .timedOut("waiting \(timeout) for \(what): \(seen)") }
            do {
                try await Task.sleep(for: .milliseconds(50))
            } catch {
                throw .cancelled
            }
        }
    }
}

/// A JavaScript string literal for `text`.
func js(_ text: String) -> String { JSON.string(text).text }

/// `base` with the members of `extra` added (both objects).
func merge(_ base: JSON, _ extra: JSON) -> JSON {
    .object((base.object ?? [:]).merging(extra.object ?? [:]) { _, new in new })
}
