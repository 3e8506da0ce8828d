public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Sends one HTTP request. ``URLSessionTransport`` is the real one; tests and apps with their own networking
/// stack can put in another. A transport maps its failures to `NETWORK_ERROR`, `TIMEOUT` or `CANCELLED`.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPTransportRequest) async throws(PasskeyError) -> HTTPTransportResponse
}

public struct HTTPTransportRequest: Sendable, Hashable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: [UInt8]?
    /// The whole exchange must be done within this time.
    public var timeout: Duration

    public init(
        method: String,
        url: URL,
        headers: [String: String] = [:],
        body: [UInt8]? = nil,
        timeout: Duration = .seconds(30)
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

public struct HTTPTransportResponse: Sendable, Hashable {
    public var status: Int
    /// Header names in lower case.
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) },
            uniquingKeysWith: { first, _ in first }
        )
        self.body = body
    }
}

/// The transport on `URLSession` (FoundationNetworking on Linux). The timeout covers the whole exchange, and
/// cancelling the calling task cancels the request.
public struct URLSessionTransport: HTTPTransport {
    public let session: URLSession
    /// Larger answers are refused (our server's answers are a few kilobytes).
    public static let maximumResponseSize = 1024 * 1024

    public init(session: URLSession = .shared) { self.session = session }

    public func send(_ request: HTTPTransportRequest) async throws(PasskeyError) -> HTTPTransportResponse {
        let timeout = request.timeout
        let outcome: Result<HTTPTransportResponse, PasskeyError> = await withTaskGroup(
            of: Result<HTTPTransportResponse, PasskeyError>?.self
        ) { group in
            group.addTask { await self.exchange(request) }
            group.addTask {
                do {
                    try await Task.sleep(for: timeout)
                } catch {
                    return nil
                }
                return .failure(
                    PasskeyError(
                        .timeout,
                        "The server did not answer \(request.method) \(request.url.path) within \(timeout.formattedSeconds) seconds."
                    )
                )
            }
            var first: Result<HTTPTransportResponse, PasskeyError>?
            while first == nil, let next = await group.next() {
                first = next
            }
            group.cancelAll()
            return first ?? .failure(Self.cancelled(request))
        }
        if Task.isCancelled { throw Self.cancelled(request) }
        return try outcome.get()
    }

    private func exchange(_ request: HTTPTransportRequest) async -> Result<HTTPTransportResponse, PasskeyError> {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: request.timeout.seconds)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if let body = request.body { urlRequest.httpBody = Data(body) }
        let box = TaskBox()
        return await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<HTTPTransportResponse, PasskeyError>, Never>) in
                // No completion handler: the task's delegate receives the body as it arrives, and stops it as soon
                // as it is over the limit, instead of letting URLSession buffer all of it first.
                let delegate = BoundedResponseDelegate(request: request, limit: Self.maximumResponseSize) {
                    continuation.resume(returning: $0)
                }
                #if canImport(FoundationNetworking)
                // FoundationNetworking ignores a task's own delegate: the exchange gets a session of its own, with
                // `session`'s configuration, which the delegate invalidates when the exchange ends.
                let task = URLSession(configuration: session.configuration, delegate: delegate, delegateQueue: nil)
                    .dataTask(with: urlRequest)
                #else
                let task = session.dataTask(with: urlRequest)
                task.delegate = delegate
                #endif
                box.start(task)
            }
        } onCancel: {
            box.cancel()
        }
    }

    static func tooLarge(_ request: HTTPTransportRequest) -> PasskeyError {
        PasskeyError(
            .serverError,
            "The server's answer is larger than \(maximumResponseSize) bytes; it is not our API."
        )
    }

    static func result(
        _ request: HTTPTransportRequest,
        data: Data?,
        response: URLResponse?,
        error: (any Error)?
    ) -> Result<HTTPTransportResponse, PasskeyError> {
        if let error { return .failure(map(error, request)) }
        guard let http = response as? HTTPURLResponse else {
            return .failure(PasskeyError(.networkError, "\(request.url.host ?? "The server") gave no HTTP response."))
        }
        let body = data.map(Array.init) ?? []
        guard body.count <= maximumResponseSize else { return .failure(tooLarge(request)) }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return .success(HTTPTransportResponse(status: http.statusCode, headers: headers, body: body))
    }

    /// Transport failures by `URLError` code, never by localized text.
    static func map(_ error: any Error, _ request: HTTPTransportRequest) -> PasskeyError {
        let target =
            "\(request.url.scheme ?? "http")://\(request.url.host ?? "?")\(request.url.port.map { ":\($0)" } ?? "")"
        guard let urlError = error as? URLError else {
            return PasskeyError(
                .networkError,
                "The request to \(target) failed: \(error.localizedDescription)",
                cause: error
            )
        }
        switch urlError.code {
        case .timedOut:
            return PasskeyError(.timeout, "\(target) did not answer in time.", cause: urlError)
        case .cancelled:
            return PasskeyError(.cancelled, "The request to \(target) was cancelled.", cause: urlError)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid,
            .serverCertificateHasUnknownRoot, .clientCertificateRejected, .clientCertificateRequired:
            return PasskeyError(
                .networkError,
                "The TLS connection to \(target) failed (\(urlError.code.rawValue)); check the server's certificate.",
                isRetryable: false,
                cause: urlError
            )
        case .cannotFindHost, .dnsLookupFailed:
            return PasskeyError(
                .networkError,
                "The host of \(target) cannot be found; check serverBaseURL and the network.",
                cause: urlError
            )
        case .cannotConnectToHost:
            return PasskeyError(
                .networkError,
                "\(target) refused the connection; is the passkey server running?",
                cause: urlError
            )
        case .notConnectedToInternet:
            return PasskeyError(.networkError, "This device is offline; retry when it is connected.", cause: urlError)
        default:
            // An https request to a server that speaks plain http fails without a more telling code.
            if request.url.scheme == "https",
                [.unknown, .networkConnectionLost, .badServerResponse].contains(urlError.code)
            {
                return PasskeyError(
                    .networkError,
                    "\(target) did not answer https (URLError \(urlError.code.rawValue)). If the server runs without TLS, as passkeys serve does on localhost, use http:// instead.",
                    isRetryable: false,
                    cause: urlError
                )
            }
            return PasskeyError(
                .networkError,
                "The connection to \(target) failed (URLError \(urlError.code.rawValue)); retry.",
                cause: urlError
            )
        }
    }

    static func cancelled(_ request: HTTPTransportRequest) -> PasskeyError {
        PasskeyError(.cancelled, "The request \(request.method) \(request.url.path) was cancelled.")
    }
}

/// Receives one exchange as it arrives: refuses a declared `Content-Length` over the limit before any of the body,
/// and stops the task as soon as the body received so far is over it, so at most `limit` bytes (plus one network
/// read) are ever held.
private final class BoundedResponseDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let request: HTTPTransportRequest
    private let limit: Int
    private let lock = NSLock()
    private var response: URLResponse?
    private var body = Data()
    private var tooLarge = false
    private var finish: ((Result<HTTPTransportResponse, PasskeyError>) -> Void)?

    init(
        request: HTTPTransportRequest,
        limit: Int,
        finish: @escaping (Result<HTTPTransportResponse, PasskeyError>) -> Void
    ) {
        self.request = request
        self.limit = limit
        self.finish = finish
    }

    #if canImport(FoundationNetworking)
    // FoundationNetworking declares the handler without @Sendable, and does not call a method that has it.
    typealias DispositionHandler = (URLSession.ResponseDisposition) -> Void
    #else
    typealias DispositionHandler = @Sendable (URLSession.ResponseDisposition) -> Void
    #endif

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping DispositionHandler
    ) {
        let declaredTooLarge = response.expectedContentLength > Int64(limit)
        lock.withLock {
            self.response = response
            if declaredTooLarge { tooLarge = true }
        }
        completionHandler(declaredTooLarge ? .cancel : .allow)
        // FoundationNetworking does not end the task on `.cancel`; cancelling it does, everywhere.
        if declaredTooLarge { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = lock.withLock {
            guard !tooLarge else { return false }
            if body.count + data.count > limit {
                tooLarge = true
                body = Data()
                return true
            }
            body.append(data)
            return false
        }
        if over { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (finish, result):
            (((Result<HTTPTransportResponse, PasskeyError>) -> Void)?, Result<HTTPTransportResponse, PasskeyError>) =
                lock.withLock {
                    defer { self.finish = nil }
                    let result =
                        tooLarge
                        ? .failure(URLSessionTransport.tooLarge(request))
                        : URLSessionTransport.result(request, data: body, response: response, error: error)
                    return (self.finish, result)
                }
        #if canImport(FoundationNetworking)
        session.finishTasksAndInvalidate()
        #endif
        finish?(result)
    }
}

/// Holds a data task so that cancellation, which may come first, reaches it.
private final class TaskBox: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false

    func start(_ task: URLSessionDataTask) {
        lock.lock()
        self.task = task
        let cancelled = self.cancelled
        lock.unlock()
        if cancelled { task.cancel() }
        task.resume()
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let task = self.task
        lock.unlock()
        task?.cancel()
    }
}

extension Duration {
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    var formattedSeconds: String {
        let value = seconds
        return value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
