public import Foundation

/// The answers of idempotent requests: a backend `POST` with an `Idempotency-Key` runs once, and the same key with the
/// same body is answered again from here, by any server sharing the store. Part of ``PasskeyStore``.
///
/// A key is claimed before its request runs (``claimIdempotencyKey(_:at:)``) and then either finished with the answer
/// (``finishIdempotencyKey(keyHash:requestHash:answer:)``) or released (``releaseIdempotencyKey(keyHash:requestHash:)``)
/// when the request failed in a way a retry may fix. Keys reach the store only as SHA-256 hashes. Answers expire at
/// the claim's `expiresAt`; the purge deletes them after that.
public protocol IdempotencyStore: Sendable {
    /// Claims a key, atomically: of racing claims of one key, on one server or on several, exactly one is
    /// `.claimed`. A key that is not stored, or whose answer expired at `time`, is claimed anew; so is a key whose
    /// first request was claimed with the same request hash and neither finished nor released before its
    /// `lockedUntil` (its server stopped). Otherwise the answer is `.mismatch` when the request hash differs,
    /// `.answer` when the first request finished, and `.running` while it runs.
    func claimIdempotencyKey(
        _ claim: IdempotencyClaim,
        at time: Date
    ) async throws(StoreError) -> IdempotencyClaimResult
    /// Stores the answer of the request that claimed the key with `requestHash` (nothing when another holds it now).
    func finishIdempotencyKey(
        keyHash: [UInt8],
        requestHash: [UInt8],
        answer: IdempotentAnswer
    ) async throws(StoreError)
    /// Deletes the claim of the request that claimed the key with `requestHash` while it has no answer, so that the
    /// key may be used again at once.
    func releaseIdempotencyKey(keyHash: [UInt8], requestHash: [UInt8]) async throws(StoreError)
}

/// A request's claim of an idempotency key.
public struct IdempotencyClaim: Sendable, Hashable {
    /// SHA-256 of the caller, the method, the path and the key.
    public var keyHash: [UInt8]
    /// SHA-256 of the request's body.
    public var requestHash: [UInt8]
    /// Until when the claim holds while its request runs: after it another request with the key may run.
    public var lockedUntil: Date
    /// Until when the answer is kept.
    public var expiresAt: Date

    public init(keyHash: [UInt8], requestHash: [UInt8], lockedUntil: Date, expiresAt: Date) {
        self.keyHash = keyHash
        self.requestHash = requestHash
        self.lockedUntil = lockedUntil
        self.expiresAt = expiresAt
    }
}

/// The stored answer of an idempotent request: its status, content type and body.
public struct IdempotentAnswer: Sendable, Hashable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]

    public init(status: Int, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}

/// What ``IdempotencyStore/claimIdempotencyKey(_:at:)`` found.
public enum IdempotencyClaimResult: Sendable, Hashable {
    /// The key is this request's: run it.
    case claimed
    /// The first request with the key is still running.
    case running
    /// The first request with the key finished with this answer.
    case answer(IdempotentAnswer)
    /// The key was claimed for another request body.
    case mismatch
}
