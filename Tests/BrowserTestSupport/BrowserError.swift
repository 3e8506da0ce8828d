/// Everything the browser driver can fail with. Each case reads as a sentence in a test failure.
public enum BrowserError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No browser to run: why, and how to get one.
    case chromiumNotFound(String)
    /// The browser did not start, or did not print where its DevTools endpoint is. Carries its output.
    case launchFailed(String)
    /// Something awaited did not happen in time: what it was.
    case timedOut(String)
    /// The browser answered a command with an error.
    case commandFailed(method: String, message: String)
    /// A script threw or returned a rejected promise: the exception's text.
    case javaScriptException(String)
    /// The page is not as the test expected (a failed navigation, a missing or covered element).
    case page(String)
    /// The DevTools connection is gone.
    case disconnected(String)
    /// The browser sent something the driver cannot read, or a file could not be written.
    case unexpected(String)
    /// The task running the test was cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .chromiumNotFound(let reason): "No Chromium to run: \(reason)"
        case .launchFailed(let reason): "Chromium did not start: \(reason)"
        case .timedOut(let what): "Timed out: \(what)"
        case .commandFailed(let method, let message): "\(method) failed: \(message)"
        case .javaScriptException(let text): "The script threw: \(text)"
        case .page(let problem): problem
        case .disconnected(let reason): "The DevTools connection is closed: \(reason)"
        case .unexpected(let what): what
        case .cancelled: "The test was cancelled."
        }
    }
}
