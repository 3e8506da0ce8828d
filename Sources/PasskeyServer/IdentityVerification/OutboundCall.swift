import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP request from this server to a vendor, bounded every way a vendor (or whoever answers at its address)
/// could make it costly: the whole exchange has `timeout` to finish, an answer is read only up to `maximumSize`
/// bytes (a larger one stops the transfer, whatever it declared), and a redirect is never followed — a signed body
/// goes to the configured URL and nowhere else.
struct OutboundCall: Sendable {
    var request: URLRequest
    var timeout: Duration
    var maximumSize: Int
    /// What a larger answer comes to: `.tooLarge` (false), or its status with the body's first `maximumSize` bytes,
    /// for a caller that needs only the status (true). Either way the rest is never read.
    var truncatesAnswer = false

    /// The answer: its status and body (at most `maximumSize` bytes).
    struct Answer: Sendable {
        let status: Int
        let body: Data
        /// Whether the body was cut at `maximumSize` (only with `truncatesAnswer`).
        var truncated = false
    }

    /// Why there is no answer.
    enum Failure: Error, Sendable {
        case timedOut
        case tooLarge
        case redirected
        case transport
    }

    func send() async -> Result<Answer, Failure> {
        let timeout = self.timeout
        return await withTaskGroup(of: Result<Answer, Failure>?.self) { group in
            group.addTask { await self.exchange() }
            group.addTask {
                do {
                    try await Task.sleep(for: timeout)
                } catch {
                    return nil
                }
                return .failure(.timedOut)
            }
            var first: Result<Answer, Failure>?
            while first == nil, let next = await group.next() { first = next }
            group.cancelAll()
            return first ?? .failure(.transport)
        }
    }

    private func exchange() async -> Result<Answer, Failure> {
        let box = OutboundTaskBox()
        let request = self.request
        let maximumSize = self.maximumSize
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Answer, Failure>, Never>) in
                // No completion handler: the delegate receives the body as it arrives and stops the transfer as soon
                // as it is over the limit, instead of letting URLSession buffer all of it first.
                let delegate = OutboundCallDelegate(limit: maximumSize, truncates: truncatesAnswer) {
                    continuation.resume(returning: $0)
                }
                let configuration = URLSessionConfiguration.ephemeral
                configuration.httpCookieStorage = nil
                configuration.urlCache = nil
                let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
                box.start(session.dataTask(with: request))
            }
        } onCancel: {
            box.cancel()
        }
    }
}

/// Receives one exchange: refuses a redirect, a declared `Content-Length` over the limit, and a body that grows past
/// it, each by cancelling the task at once (a body over the limit is cut there instead, when it `truncates`).
private final class OutboundCallDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let limit: Int
    private let truncates: Bool
    private let lock = NSLock()
    private var status: Int?
    private var body = Data()
    private var truncated = false
    private var refusal: OutboundCall.Failure?
    private var finish: ((Result<OutboundCall.Answer, OutboundCall.Failure>) -> Void)?

    init(limit: Int, truncates: Bool, finish: @escaping (Result<OutboundCall.Answer, OutboundCall.Failure>) -> Void) {
        self.limit = limit
        self.truncates = truncates
        self.finish = finish
    }

    #if canImport(FoundationNetworking)
    // FoundationNetworking declares the handlers without @Sendable, and does not call methods that have it.
    typealias DispositionHandler = (URLSession.ResponseDisposition) -> Void
    typealias RedirectHandler = (URLRequest?) -> Void
    #else
    typealias DispositionHandler = @Sendable (URLSession.ResponseDisposition) -> Void
    typealias RedirectHandler = @Sendable (URLRequest?) -> Void
    #endif

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping RedirectHandler
    ) {
        lock.withLock { refusal = refusal ?? .redirected }
        completionHandler(nil)
        task.cancel()
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping DispositionHandler
    ) {
        let http = response as? HTTPURLResponse
        let refused: OutboundCall.Failure? =
            (300..<400).contains(http?.statusCode ?? 0)
            ? .redirected : response.expectedContentLength > Int64(limit) && !truncates ? .tooLarge : nil
        lock.withLock {
            status = http?.statusCode
            if let refused { refusal = refusal ?? refused }
        }
        completionHandler(refused == nil ? .allow : .cancel)
        // FoundationNetworking does not end the task on `.cancel`; cancelling it does, everywhere.
        if refused != nil { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = lock.withLock {
            guard refusal == nil, !truncated else { return false }
            guard body.count + data.count <= limit else {
                if truncates {
                    body.append(data.prefix(limit - body.count))
                    truncated = true
                    return true
                }
                refusal = .tooLarge
                body = Data()
                return true
            }
            body.append(data)
            return false
        }
        if over { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (finish, result) = lock.withLock {
            () -> (
                ((Result<OutboundCall.Answer, OutboundCall.Failure>) -> Void)?,
                Result<OutboundCall.Answer, OutboundCall.Failure>
            ) in
            defer { self.finish = nil }
            let result: Result<OutboundCall.Answer, OutboundCall.Failure>
            if let refusal {
                result = .failure(refusal)
            } else if truncated, let status {
                result = .success(OutboundCall.Answer(status: status, body: body, truncated: true))
            } else if error != nil {
                result = .failure((error as? URLError)?.code == .timedOut ? .timedOut : .transport)
            } else if let status {
                result = .success(OutboundCall.Answer(status: status, body: body))
            } else {
                result = .failure(.transport)
            }
            return (self.finish, result)
        }
        session.finishTasksAndInvalidate()
        finish?(result)
    }
}

/// Holds a data task so that cancellation, which may come first, reaches it.
private final class OutboundTaskBox: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false

    func start(_ task: URLSessionDataTask) {
        let cancelled = lock.withLock {
            self.task = task
            return self.cancelled
        }
        if cancelled { task.cancel() }
        task.resume()
    }

    func cancel() {
        let task = lock.withLock {
            cancelled = true
            return self.task
        }
        task?.cancel()
    }
}
