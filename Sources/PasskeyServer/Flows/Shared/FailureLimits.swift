import Foundation
import Logging
import PasskeyStorage
import WebAuthn

/// A limit against guessing: at most `limit` failures per `window` seconds for one key. Its counter is in the store
/// (``LimitStore/countLimitEvent(keyHash:window:at:)``), keyed by the SHA-256 of `key`, so every server process
/// sharing a database counts every failure (DESIGN §7).
struct FailureLimit: Sendable {
    /// What is counted and for whom, e.g. `failed-assertion:ip:203.0.113.5`; it reaches the store only hashed.
    let key: String
    let limit: Int
    let window: TimeInterval

    /// Failed sign-ins from one client address (`limits.failedAssertionsPerIP`): counted before the attempt.
    static func failedAssertions(clientIP: String?, _ limits: ServerConfiguration.Limits) -> Self {
        Self(
            key: "failed-assertion:ip:" + (clientIP ?? "unknown"),
            limit: limits.failedAssertionsPerIP,
            window: TimeInterval(limits.failureWindowSeconds)
        )
    }

    /// Failed sign-ins with one credential (`limits.failedAssertionsPerCredential`): counted after a failure only.
    /// Its id is public, so a limit that refused attempts before they are verified would let anyone lock its
    /// owner out; a valid assertion is never refused by it, and past it a failed one is answered `RATE_LIMITED`.
    static func failedAssertions(credentialID: [UInt8], _ limits: ServerConfiguration.Limits) -> Self {
        Self(
            key: "failed-assertion:credential:" + Base64URL.encode(credentialID),
            limit: limits.failedAssertionsPerCredential,
            window: TimeInterval(limits.failureWindowSeconds)
        )
    }

    /// Failed claims of handoff tokens from one client address (unknown, expired or claimed already), within the
    /// failure window: as many as failed sign-ins (`limits.failedAssertionsPerIP`).
    static func handoffResumes(clientIP: String?, _ limits: ServerConfiguration.Limits) -> Self {
        Self(
            key: "handoff-resume:ip:" + (clientIP ?? "unknown"),
            limit: limits.failedAssertionsPerIP,
            window: TimeInterval(limits.failureWindowSeconds)
        )
    }

    /// Console sign-ins from one client address that did not succeed: wrong API keys, and passkey sign-ins started
    /// and not completed by an operator's console passkey.
    static func consoleSignIns(clientIP: String?, limit: Int, window: TimeInterval) -> Self {
        Self(key: "console-sign-in:ip:" + (clientIP ?? "unknown"), limit: limit, window: window)
    }
}

extension ServiceFlow {
    /// Counts the attempt against `limit` before it is tried, and refuses it with `RATE_LIMITED` and `Retry-After`
    /// when that uses the limit up. Counting and checking are one atomic step in the store, so of any number of
    /// concurrent attempts at most `limit.limit` get through. An attempt that succeeds is given back with
    /// ``releaseAttempt(_:)``; a failed one stays counted. When the store cannot count, the attempt is refused with
    /// `SERVICE_UNAVAILABLE`: a limit against guessing fails closed.
    func countAttempt(_ limit: FailureLimit) async throws(APIError) {
        let window = try await count(limit)
        if window.count > limit.limit { throw .rateLimited(retryAfter: Self.wait(until: window.end, from: now())) }
    }

    /// Gives back an attempt that ``countAttempt(_:)`` counted and that succeeded. Should the store fail here, the
    /// attempt stays counted: it is logged, and the request it belongs to still succeeds.
    func releaseAttempt(_ limit: FailureLimit) async {
        do {
            try await store.releaseLimitEvent(keyHash: Secrets.hash(limit.key), at: now())
        } catch {
            logger.warning("a successful attempt could not be given back to its limit", metadata: ["error": "\(error)"])
        }
    }

    /// Counts a failure against `limit`; returns `RATE_LIMITED` when it went past the limit, to answer instead of the
    /// failure's own error, and nil otherwise.
    func recordFailure(_ limit: FailureLimit) async throws(APIError) -> APIError? {
        let window = try await count(limit)
        return window.count > limit.limit ? .rateLimited(retryAfter: Self.wait(until: window.end, from: now())) : nil
    }

    private func count(_ limit: FailureLimit) async throws(APIError) -> LimitWindow {
        do {
            return try await store.countLimitEvent(keyHash: Secrets.hash(limit.key), window: limit.window, at: now())
        } catch {
            logger.error("an attempt could not be counted against its limit", metadata: ["error": "\(error)"])
            throw .storageUnavailable
        }
    }

    private static func wait(until end: Date, from time: Date) -> Int {
        max(1, Int(end.timeIntervalSince(time).rounded(.up)))
    }
}
