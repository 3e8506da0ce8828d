import Foundation
import ProcessTestSupport
import Synchronization
import WebAuthn

/// Runs `body` with a fresh headless Chromium and closes it afterwards, whether `body` returns or throws, so that
/// no browser outlives its test.
public func withBrowser<Value>(
    _ options: Browser.Options = .init(),
    _ body: (Browser) async throws -> Value
) async throws -> Value {
    let browser = try await Browser.launch(options)
    do {
        let value = try await body(browser)
        await browser.close()
        return value
    } catch {
        await browser.close()
        throw error
    }
}

/// A headless Chromium with its own throwaway profile, driven over one DevTools WebSocket.
///
/// Prefer `withBrowser { browser in … }`; whoever calls `launch` must call `close`. Should the test process die
/// without closing it, the browser dies with it (a ``ChildProcess``).
public final class Browser: Sendable {
    public struct Options: Sendable {
        /// The window's size in CSS pixels; `Page.setViewport` overrides it per page.
        public var windowSize: (width: Int, height: Int)
        /// How long the browser may take to start and print its DevTools address.
        public var launchTimeout: Duration
        /// How long a command or wait may take unless told otherwise. Generous: it only guards against a browser that
        /// hangs, and a page can take many seconds to answer on a 2-core machine busy with the rest of the suite.
        public var timeout: Duration
        public var extraArguments: [String]
        /// The browser to run; nil finds one as `Chromium.locate()` says.
        public var executable: String?

        public init(
            executable: String? = nil,
            windowSize: (width: Int, height: Int) = (1280, 900),
            launchTimeout: Duration = .seconds(120),
            timeout: Duration = .seconds(180),
            extraArguments: [String] = []
        ) {
            self.windowSize = windowSize
            self.launchTimeout = launchTimeout
            self.timeout = timeout
            self.extraArguments = extraArguments
            self.executable = executable
        }
    }

    public let connection: CDPConnection
    /// The browser's product and version, such as `Chrome/156.0.8078.79`.
    public let version: String
    private let process: ChildProcess
    private let directory: URL
    private let closed = Mutex(false)

    private init(process: ChildProcess, directory: URL, connection: CDPConnection, version: String) {
        self.process = process
        self.directory = directory
        self.connection = connection
        self.version = version
    }

    /// Starts the browser and connects to it.
    public static func launch(_ options: Options = .init()) async throws(BrowserError) -> Browser {
        let executable = try (options.executable.map { .success($0) } ?? Chromium.locate()).get()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passkeys-chromium-\(UUID())")
        let log = directory.appendingPathComponent("output.log")
        let arguments =
            [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                "--user-data-dir=\(directory.appendingPathComponent("profile").path)",
                "--remote-debugging-port=0",
                // The WebSocket client sends `Origin: ws://127.0.0.1`, which DevTools refuses unless allowed.
                "--remote-allow-origins=ws://127.0.0.1",
                "--window-size=\(options.windowSize.width),\(options.windowSize.height)",
            ] + options.extraArguments + ["about:blank"]
        // A ChildProcess dies with the test process, and so do the helpers of its process group.
        let process: ChildProcess
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            process = try ChildProcess.launch(executable, arguments, output: log, error: log)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw .launchFailed("\(executable) could not be run: \(error)")
        }

        do throws(BrowserError) {
            let url = try await devToolsAddress(in: log, of: process, timeout: options.launchTimeout)
            let connection = try await CDPConnection.connect(to: url, defaultTimeout: options.timeout)
            let version = try await connection.send("Browser.getVersion")["product"]?.string ?? "unknown"
            return Browser(process: process, directory: directory, connection: connection, version: version)
        } catch {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            await stop(process, removing: directory)
            if case .launchFailed = error { throw error }
            throw .launchFailed(
                "\(error). Its output ends:\n\(output.split(separator: "\n").suffix(30).joined(separator: "\n"))"
            )
        }
    }

    /// Opens a new tab and attaches to it as a flattened session.
    public func newPage() async throws(BrowserError) -> Page {
        let target = try await connection.send("Target.createTarget", ["url": "about:blank"])
        guard let targetID = target["targetId"]?.string else {
            throw .unexpected("Target.createTarget returned no targetId: \(target)")
        }
        let attached = try await connection.send(
            "Target.attachToTarget",
            ["targetId": .string(targetID), "flatten": true]
        )
        guard let session = attached["sessionId"]?.string else {
            throw .unexpected("Target.attachToTarget returned no sessionId: \(attached)")
        }
        let page = Page(connection: connection, session: session, targetID: targetID)
        try await page.prepare()
        return page
    }

    /// Ends the browser and its processes and removes its profile. Safe to call more than once.
    public func close() async {
        guard
            closed.withLock({ closed in
                defer { closed = true }
                return !closed
            })
        else { return }
        await connection.close(reason: "the browser was closed")
        await Self.stop(process, removing: directory)
    }

    /// The `ws://` address the browser prints on standard error once it listens.
    private static func devToolsAddress(
        in log: URL,
        of process: ChildProcess,
        timeout: Duration
    ) async throws(BrowserError) -> String {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("DevTools listening on ws://") }) {
                return String(line.dropFirst("DevTools listening on ".count)).trimmingCharacters(in: .whitespaces)
            }
            if let status = process.terminationStatus {
                throw .launchFailed("it exited with status \(status) before listening. Its output:\n\(output)")
            }
            if clock.now >= deadline {
                throw .launchFailed("it printed no DevTools address within \(timeout). Its output:\n\(output)")
            }
            do {
                try await Task.sleep(for: .milliseconds(50))
            } catch {
                throw .cancelled
            }
        }
    }

    /// Kills the browser and its helper processes (its process group) and removes the directory. SIGKILL, because
    /// the profile is thrown away anyway. Runs in a task of its own so that a cancelled test still waits for the
    /// browser to be gone.
    private static func stop(_ process: ChildProcess, removing directory: URL) async {
        await Task.detached {
            process.kill(SIGKILL)
            if await process.exit(within: .seconds(5)) == nil {
                print("Chromium (process \(process.pid)) is still running after SIGKILL.")
            }
            // The browser's helper processes may still be writing to the profile for a moment.
            for _ in 0..<20 {
                if (try? FileManager.default.removeItem(at: directory)) != nil
                    || !FileManager.default.fileExists(atPath: directory.path)
                {
                    break
                }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }.value
    }
}
