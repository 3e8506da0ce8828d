import Foundation
import PasskeyStorage

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One attempt to post a message to its endpoint, signed (``WebhookSigner``) at the time of the attempt: an
/// ``OutboundCall``, so it never follows a redirect, ends after the configured timeout, and reads at most
/// ``answerLimit`` bytes of the answer, whose status alone decides.
struct WebhookAttemptCall: Sendable {
    /// The most of an answer's body that is read.
    static let answerLimit = 4096

    let message: WebhookMessageRequest
    let timeout: Int

    /// What an attempt came to.
    enum Outcome: Sendable, Equatable {
        /// The endpoint answered with this status.
        case answered(Int)
        /// It did not answer in time, answered with a redirect (not followed), or could not be reached.
        case noAnswer(String)
        /// The delivery's endpoint is no longer configured.
        case notConfigured

        var isDelivered: Bool {
            if case .answered(let status) = self { return (200..<300).contains(status) }
            return false
        }

        var answer: Int? {
            if case .answered(let status) = self { return status }
            return nil
        }

        var error: String? {
            switch self {
            case .answered: nil
            case .noAnswer(let reason): reason
            case .notConfigured: "endpoint_not_configured"
            }
        }
    }

    /// The attempt for `message` to `endpoint`; nil when the endpoint's URL or secret cannot be used (the
    /// configuration's validation refuses both at start).
    init?(_ message: WebhookMessage, to endpoint: ServerConfiguration.Webhooks.Endpoint, timeout: Int) {
        guard let url = URL(string: endpoint.url), let signer = WebhookSigner(endpoint) else {
            return nil
        }
        self.message = WebhookMessageRequest(url: url, signer: signer, message: message)
        self.timeout = timeout
    }

    func send(at time: Date) async -> Outcome {
        let timestamp = Int(time.timeIntervalSince1970)
        var request = URLRequest(url: message.url)
        request.httpMethod = "POST"
        request.httpBody = Data(message.message.payload.utf8)
        request.timeoutInterval = TimeInterval(timeout)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("swift-passkeys", forHTTPHeaderField: "User-Agent")
        request.setValue(message.message.id, forHTTPHeaderField: "webhook-id")
        request.setValue(String(timestamp), forHTTPHeaderField: "webhook-timestamp")
        request.setValue(
            message.signer.signature(id: message.message.id, timestamp: timestamp, body: message.message.payload),
            forHTTPHeaderField: "webhook-signature"
        )
        let call = OutboundCall(
            request: request,
            timeout: .seconds(timeout),
            maximumSize: Self.answerLimit,
            truncatesAnswer: true
        )
        switch await call.send() {
        case .success(let answer): return .answered(answer.status)
        case .failure(.timedOut): return .noAnswer("timeout")
        case .failure(.redirected): return .noAnswer("redirect")
        case .failure(.tooLarge): return .noAnswer("too_large")
        case .failure(.transport): return .noAnswer("transport")
        }
    }
}

/// A message with where it goes and how it is signed.
struct WebhookMessageRequest: Sendable {
    let url: URL
    let signer: WebhookSigner
    let message: WebhookMessage
}
