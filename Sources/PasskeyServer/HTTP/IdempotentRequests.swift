import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PasskeyStorage

/// Idempotent backend calls: every backend `POST` passes here (``Route``), and one that carries an `Idempotency-Key`
/// runs once. Its successful answer is kept for ``retention`` in the store, shared by every server: the same key with
/// the same body is answered again — same status and body, marked `Idempotent-Replayed: true` — and the same key with
/// another body is refused with `IDEMPOTENT_REPLAY` (422). While the first request runs, another with its key is
/// refused with `IDEMPOTENT_REPLAY` (409, retryable). A refused first request (any error) releases its key, so a retry
/// with it runs again. Keys are scoped to the API key, the method and the path, and reach the store hashed.
struct IdempotentRequests: ServiceFlow {
    let context: FlowContext

    static let header = HTTPField.Name("Idempotency-Key")!
    static let replayedHeader = HTTPField.Name("Idempotent-Replayed")!
    /// How long an answer is kept: 24 hours.
    static let retention: TimeInterval = 24 * 60 * 60
    /// How long a first request holds its key before another may take it over (its server stopped mid-request).
    static let lockDuration: TimeInterval = 60
    /// The largest answer kept; a larger one is given once and its key released.
    static let maximumAnswerBytes = 256 * 1024

    /// Runs `handler` for `request`, at most once per key and body within ``retention``.
    func respond(
        _ request: Request,
        caller: Caller,
        bodyLimit: Int,
        _ handler: (Request) async throws -> Response
    ) async throws -> Response {
        guard let key = request.headers[Self.header] else { return try await handler(request) }
        guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw APIError.idempotencyKeyInvalid
        }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: bodyLimit)
        } catch {
            throw APIError.payloadTooLarge(bodyLimit)
        }
        let time = now()
        let claim = IdempotencyClaim(
            keyHash: Secrets.hash(
                [caller.actor, request.method.rawValue, request.uri.path, key].joined(separator: "\n")
            ),
            requestHash: Secrets.hash(Array(body.readableBytesView)),
            lockedUntil: time.addingTimeInterval(Self.lockDuration),
            expiresAt: time.addingTimeInterval(Self.retention)
        )
        switch try await storage({ try await store.claimIdempotencyKey(claim, at: time) }) {
        case .mismatch: throw APIError.idempotencyKeyReused
        case .running: throw APIError.idempotencyKeyInProgress
        case .answer(let answer): return Self.replay(answer)
        case .claimed: break
        }
        let response: Response
        do {
            response = try await handler(request)
        } catch {
            await release(claim)
            throw error
        }
        let answer = try await Self.collect(response)
        guard (200..<300).contains(answer.status), answer.body.count <= Self.maximumAnswerBytes else {
            await release(claim)
            return Self.response(answer, headers: response.headers)
        }
        try await storage {
            try await store.finishIdempotencyKey(keyHash: claim.keyHash, requestHash: claim.requestHash, answer: answer)
        }
        return Self.response(answer, headers: response.headers)
    }

    /// Frees the key of a request that did not succeed; should that fail, the claim lapses after ``lockDuration``.
    private func release(_ claim: IdempotencyClaim) async {
        do {
            try await store.releaseIdempotencyKey(keyHash: claim.keyHash, requestHash: claim.requestHash)
        } catch {
            logger.warning("an idempotency key could not be released", metadata: ["error": "\(error)"])
        }
    }

    private static func replay(_ answer: IdempotentAnswer) -> Response {
        response(answer, headers: [.contentType: answer.contentType, replayedHeader: "true"])
    }

    private static func response(_ answer: IdempotentAnswer, headers: HTTPFields) -> Response {
        Response(
            status: HTTPResponse.Status(code: answer.status),
            headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body))
        )
    }

    /// The response's status, content type and body, read into memory (our answers are small JSON documents).
    private static func collect(_ response: Response) async throws -> IdempotentAnswer {
        let collector = BodyCollector()
        try await response.body.write(collector)
        return IdempotentAnswer(
            status: response.status.code,
            contentType: response.headers[.contentType] ?? "application/json",
            body: collector.bytes
        )
    }
}

/// Gathers a response body's bytes.
private final class BodyCollector: ResponseBodyWriter {
    var bytes: [UInt8] = []

    func write(_ buffer: ByteBuffer) async throws { bytes.append(contentsOf: buffer.readableBytesView) }
    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
