import Foundation
import Logging
import Synchronization
import WSClient
public import WebAuthn

/// One WebSocket to a browser's DevTools endpoint, speaking the Chrome DevTools Protocol.
///
/// Commands are matched to their replies by `id`; events are handed to waiters (`expect`) and listeners
/// (`listen`). Pages are flattened sessions on this one socket: their messages carry a `sessionId`. Every wait
/// is bounded by a timeout, so a browser that never answers fails the test instead of hanging it.
public final class CDPConnection: Sendable {
    /// How long a command or an event wait may take unless told otherwise.
    public let defaultTimeout: Duration

    private let state = Mutex(State())
    private static let maximumMessageSize = 256 << 20  // full-page screenshots are large

    private struct State {
        var nextTicket = 1
        var writer: WebSocketOutboundWriter?
        var waiters: [Int: Waiter] = [:]
        var listeners: [Int: Listener] = [:]
        var closedReason: String?
        var task: Task<Void, Never>?
    }

    private enum Awaited {
        case open
        case reply(method: String)
        case event(method: String, session: String?, matches: @Sendable (JSON) -> Bool)
    }

    private struct Waiter {
        let awaited: Awaited
        let description: String
        var result: Result<JSON, BrowserError>?
        var continuation: CheckedContinuation<Result<JSON, BrowserError>, Never>?
        var timer: Task<Void, Never>?
    }

    private struct Listener {
        let method: String
        let session: String?
        let handler: @Sendable (JSON) -> Void
    }

    private static let openTicket = 0

    private init(defaultTimeout: Duration) {
        self.defaultTimeout = defaultTimeout
        state.withLock {
            $0.waiters[Self.openTicket] = Waiter(awaited: .open, description: "the DevTools WebSocket to open")
        }
    }

    /// Connects to a `ws://` DevTools endpoint and returns once the socket is open.
    public static func connect(
        to url: String,
        defaultTimeout: Duration = .seconds(180)
    ) async throws(BrowserError) -> CDPConnection {
        let connection = CDPConnection(defaultTimeout: defaultTimeout)
        let task = Task { await connection.run(url) }
        connection.state.withLock { $0.task = task }
        _ = try await connection.wait(for: openTicket, timeout: defaultTimeout).get()
        return connection
    }

    /// Sends a command and returns its `result`; `session` addresses a page (nil: the browser itself).
    @discardableResult
    public func send(
        _ method: String,
        _ params: JSON = [:],
        session: String? = nil,
        timeout: Duration? = nil
    ) async throws(BrowserError) -> JSON {
        let (ticket, writer) = try register(.reply(method: method), "the reply to \(method)")
        var message: [String: JSON] = ["id": .number(Double(ticket)), "method": .string(method), "params": params]
        if let session { message["sessionId"] = .string(session) }
        do {
            try await writer.write(.text(JSON.object(message).text))
        } catch {
            deliver(ticket, .failure(.disconnected("sending \(method) failed: \(error)")))
        }
        return try await wait(for: ticket, timeout: timeout ?? defaultTimeout).get()
    }

    /// Starts waiting for an event before doing what causes it, so that it cannot be missed.
    public func expect(
        _ method: String,
        session: String?,
        where matches: @escaping @Sendable (JSON) -> Bool = { _ in true }
    ) -> ExpectedEvent {
        let ticket = state.withLock { state in
            let ticket = state.nextTicket
            state.nextTicket += 1
            var waiter = Waiter(
                awaited: .event(method: method, session: session, matches: matches),
                description: "the event \(method)"
            )
            if let reason = state.closedReason { waiter.result = .failure(.disconnected(reason)) }
            state.waiters[ticket] = waiter
            return ticket
        }
        return ExpectedEvent(connection: self, ticket: ticket)
    }

    /// An event expected with `expect`: its parameters, once it comes.
    public struct ExpectedEvent: Sendable {
        let connection: CDPConnection
        let ticket: Int

        public func value(timeout: Duration? = nil) async throws(BrowserError) -> JSON {
            try await connection.wait(for: ticket, timeout: timeout ?? connection.defaultTimeout).get()
        }

        /// Stops waiting (when what should have caused the event failed).
        public func cancel() {
            connection.deliver(ticket, .failure(.cancelled))
            connection.state.withLock { _ = $0.waiters.removeValue(forKey: ticket) }
        }
    }

    /// Calls `handler` with the parameters of every `method` event for `session` until the connection closes.
    /// The handler runs on the connection's reading task: it must not wait for replies (start a `Task` for that).
    public func listen(_ method: String, session: String?, _ handler: @escaping @Sendable (JSON) -> Void) {
        state.withLock { state in
            state.listeners[state.nextTicket] = Listener(method: method, session: session, handler: handler)
            state.nextTicket += 1
        }
    }

    /// Closes the socket and fails whatever is still waiting.
    public func close(reason: String = "the connection was closed") async {
        let task = state.withLock { $0.task }
        finish(reason)
        task?.cancel()
        await task?.value
    }

    // MARK: - Waiting

    private func register(
        _ awaited: Awaited,
        _ description: String
    ) throws(BrowserError) -> (
        Int, WebSocketOutboundWriter
    ) {
        let registered: Result<(Int, WebSocketOutboundWriter), BrowserError> = state.withLock { state in
            if let reason = state.closedReason { return .failure(.disconnected(reason)) }
            guard let writer = state.writer else { return .failure(.disconnected("the socket is not open")) }
            let ticket = state.nextTicket
            state.nextTicket += 1
            state.waiters[ticket] = Waiter(awaited: awaited, description: description)
            return .success((ticket, writer))
        }
        return try registered.get()
    }

    private func wait(for ticket: Int, timeout: Duration) async -> Result<JSON, BrowserError> {
        await withCheckedContinuation { continuation in
            let early: Result<JSON, BrowserError>? = state.withLock { state in
                guard var waiter = state.waiters[ticket] else { return .failure(.cancelled) }
                if let result = waiter.result {
                    state.waiters[ticket] = nil
                    return result
                }
                let description = waiter.description
                waiter.continuation = continuation
                waiter.timer = Task { [weak self] in
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }
                    self?.deliver(ticket, .failure(.timedOut("\(description) did not come within \(timeout)")))
                }
                state.waiters[ticket] = waiter
                return nil
            }
            if let early { continuation.resume(returning: early) }
        }
    }

    /// Hands a result to a waiter: resumes it if it is waiting, else keeps the result for when it waits.
    private func deliver(_ ticket: Int, _ result: Result<JSON, BrowserError>) {
        let continuation: CheckedContinuation<Result<JSON, BrowserError>, Never>? = state.withLock { state in
            guard var waiter = state.waiters[ticket], waiter.result == nil else { return nil }
            guard let continuation = waiter.continuation else {
                waiter.result = result
                state.waiters[ticket] = waiter
                return nil
            }
            waiter.timer?.cancel()
            state.waiters[ticket] = nil
            return continuation
        }
        continuation?.resume(returning: result)
    }

    // MARK: - The socket

    private func run(_ url: String) async {
        var logger = Logger(label: "passkeys.browser.cdp")
        logger.logLevel = .warning
        do {
            try await WebSocketClient.connect(
                url: url,
                configuration: .init(maxFrameSize: Self.maximumMessageSize),
                logger: logger
            ) { inbound, outbound, _ in
                self.state.withLock { $0.writer = outbound }
                self.deliver(Self.openTicket, .success(.null))
                for try await message in inbound.messages(maxSize: Self.maximumMessageSize) {
                    if case .text(let text) = message { self.receive(text) }
                }
            }
            finish("the browser closed the DevTools connection")
        } catch {
            finish("the DevTools connection failed: \(error)")
        }
    }

    private func receive(_ text: String) {
        guard let message = try? JSON.parse(text) else { return }
        if let ticket = message["id"]?.int {
            let method = state.withLock { state -> String? in
                if case .reply(let method) = state.waiters[ticket]?.awaited { method } else { nil }
            }
            guard let method else { return }
            if let error = message["error"] {
                let text = [error["message"]?.string, error["data"]?.string].compactMap { $0 }.joined(separator: ": ")
                deliver(ticket, .failure(.commandFailed(method: method, message: text)))
            } else {
                deliver(ticket, .success(message["result"] ?? [:]))
            }
            return
        }
        guard let method = message["method"]?.string else { return }
        let session = message["sessionId"]?.string
        let params = message["params"] ?? [:]
        let (tickets, handlers) = state.withLock { state in
            let tickets = state.waiters.compactMap { ticket, waiter -> Int? in
                guard waiter.result == nil, case .event(method, session, let matches) = waiter.awaited else {
                    return nil
                }
                return matches(params) ? ticket : nil
            }
            let handlers = state.listeners.values.filter { $0.method == method && $0.session == session }
            return (tickets, handlers.map(\.handler))
        }
        for ticket in tickets { deliver(ticket, .success(params)) }
        for handler in handlers { handler(params) }
    }

    /// Marks the connection closed and fails every wait with the reason.
    private func finish(_ reason: String) {
        let tickets = state.withLock { state -> [Int] in
            if state.closedReason == nil { state.closedReason = reason }
            state.writer = nil
            state.listeners = [:]
            return Array(state.waiters.keys)
        }
        for ticket in tickets { deliver(ticket, .failure(.disconnected(reason))) }
    }
}
