import Foundation
import PasskeyClient
import WebAuthn

/// A passkey server scripted behind ``HTTPTransport``: each `METHOD /path` answers with its queued responses in
/// order (the last one repeats), anything else is a 404; every request is recorded.
actor ScriptedServer: HTTPTransport {
    static let baseURL = URL(string: "https://passkeys.example.com")!

    private var routes: [String: [HTTPTransportResponse]] = [:]
    private(set) var requests: [HTTPTransportRequest] = []

    /// Queues `responses` for `method path`.
    func on(_ method: String, _ path: String, _ responses: HTTPTransportResponse...) {
        routes["\(method) \(path)", default: []] += responses
    }

    func send(_ request: HTTPTransportRequest) async throws(PasskeyError) -> HTTPTransportResponse {
        requests.append(request)
        let key = "\(request.method) \(request.url.path)"
        guard var queue = routes[key], let first = queue.first else {
            return Self.error(404, "NOT_FOUND", retryable: false)
        }
        if queue.count > 1 {
            queue.removeFirst()
            routes[key] = queue
        }
        return first
    }

    /// The requests so far, as `METHOD /path`.
    var calls: [String] { requests.map { "\($0.method) \($0.url.path)" } }

    /// How many requests went to `METHOD path`.
    func count(_ method: String, _ path: String) -> Int { calls.filter { $0 == "\(method) \(path)" }.count }

    static func json(_ text: String, status: Int = 200) -> HTTPTransportResponse {
        HTTPTransportResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(text.utf8))
    }

    static func error(_ status: Int, _ code: String, retryable: Bool) -> HTTPTransportResponse {
        json(
            #"{"error": {"code": "\#(code)", "message": "scripted \#(code)", "retryable": \#(retryable), "requestId": "req_scripted"}}"#,
            status: status
        )
    }

    /// The options answer of an authentication session: `{"publicKey": …, "transaction": …}`.
    static func authenticationOptions(challenge: [UInt8], transaction: TransactionDetails?) -> HTTPTransportResponse {
        var options = Fixtures.requestOptions()
        options.challenge = Base64URLBytes(challenge)
        var text = #"{"publicKey": \#(String(decoding: WebAuthnJSON.encode(options), as: UTF8.self))"#
        if let transaction {
            let encoded = try! JSONEncoder().encode(transaction)
            text += #", "transaction": \#(String(decoding: encoded, as: UTF8.self))"#
        }
        return json(text + "}")
    }

    static func registrationOptions() -> HTTPTransportResponse {
        json(#"{"publicKey": \#(String(decoding: WebAuthnJSON.encode(Fixtures.creationOptions()), as: UTF8.self))}"#)
    }

    static let completedAuthentication = json(#"{"resultToken": "pkr_result", "expiresAt": "2030-01-01T00:00:00Z"}"#)
    static let completedRegistration = json(
        #"{"credentialId": "Y3JlZA", "userId": "alice", "name": "Phone", "status": "active", "createdAt": "2030-01-01T00:00:00Z"}"#
    )
}

/// An ``IdentityVerifier`` that records what it was asked and can be scripted to fail.
actor RecordingIdentityVerifier: IdentityVerifier {
    private(set) var requests: [IdentityVerificationRequest] = []
    private let failure: PasskeyError?

    init(failing failure: PasskeyError? = nil) { self.failure = failure }

    func verify(_ request: IdentityVerificationRequest) async throws(PasskeyError) {
        requests.append(request)
        if let failure { throw failure }
    }
}

/// Records the transactions a step-up's confirmation callback was shown, and answers with `approve`.
actor TransactionConfirmations {
    private(set) var shown: [TransactionDetails] = []
    let approve: Bool

    init(approve: Bool = true) { self.approve = approve }

    func confirm(_ transaction: TransactionDetails) -> Bool {
        shown.append(transaction)
        return approve
    }

    /// The callback for ``AuthenticationInput/StepUp``.
    nonisolated var callback: @Sendable (TransactionDetails) async -> Bool {
        { transaction in await self.confirm(transaction) }
    }
}
