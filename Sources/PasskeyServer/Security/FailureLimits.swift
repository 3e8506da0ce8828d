import Foundation
import Logging
import PasskeyStorage
import WebAuthn

/// A limit against guessing: at most `limit` failures per `window` seconds for one key. Its counter is in the store
/// (``PasskeyStore/countLimitEvent(keyHash:window:at:)``), keyed by the SHA-256 of `key`, so every server process
/// sharing a database counts every failure (DESIGN §7).
struct FailureLimit: Sendable {
    /// What is counted and for whom, e.g. `failed-assertion:ip:203.0.113.5`; it reaches the store only hashed.
    let key: String
    let limit: Int
    let window: TimeInterval

    /// Failed sign-ins with one credential, and from one client address (`limits.failedAssertionsPer…`).
    static func failedAssertions(
        credentialID: [UInt8],
        clientIP: String?,
        _ limits: ServerConfiguration.Limits
    ) -> [Self] {
        let window = TimeInterval(limits.failureWindowSeconds)
        return [
            Self(
                key: "failed-assertion:credential:" + Base64URL.encode(credentialID),
                limit: limits.failedAssertionsPerCredential,
                window: window
            ),
            Self(
                key: "failed-assertion:ip:" + (clientIP ?? "unknown"),
                limit: limits.failedAssertionsPerIP,
                window: window
            ),
        ]
    }

    /// Wrong API keys at the operator console's sign-in from one client address.
    static func consoleSignIns(clientIP: String?, limit: Int, window: TimeInterval) -> Self {
        Self(key: "console-sign-in:ip:" + (clientIP ?? "unknown"), limit: limit, window: window)
    }
}

extension PasskeyService {
    /// Refuses the attempt with `RATE_LIMITED` and `Retry-After` (until the last of the used-up windows ends) when
    /// one of `limits` has had its failures. One read from the store for all of them. When the store cannot answer,
    /// the attempt is refused with `SERVICE_UNAVAILABLE`: a limit against guessing fails closed.
    func checkFailureLimits(_ limits: [FailureLimit]) async throws(APIError) {
        let time = now()
        let keyHashes = limits.map { Secrets.hash($0.key) }
        let windows: [LimitWindow]
        do {
            windows = try await store.limitWindows(keyHashes: keyHashes, at: time)
        } catch {
            logger.error("failure limits could not be read; the attempt is refused", metadata: ["error": "\(error)"])
            throw .storageUnavailable
        }
        let waits = zip(limits, keyHashes).compactMap { limit, keyHash -> TimeInterval? in
            guard let window = windows.first(where: { $0.keyHash == keyHash }), window.count >= limit.limit else {
                return nil
            }
            return window.end.timeIntervalSince(time)
        }
        if let wait = waits.max() { throw .rateLimited(retryAfter: max(1, Int(wait.rounded(.up)))) }
    }

    /// Counts one failure against each of `limits`. When the store cannot count it, the request fails with
    /// `SERVICE_UNAVAILABLE` rather than its own error, so that a failure that was not counted is never reported
    /// as an ordinary one.
    func recordFailure(_ limits: [FailureLimit]) async throws(APIError) {
        let time = now()
        for limit in limits {
            do {
                _ = try await store.countLimitEvent(keyHash: Secrets.hash(limit.key), window: limit.window, at: time)
            } catch {
                logger.error("a failure could not be counted against its limit", metadata: ["error": "\(error)"])
                throw .storageUnavailable
            }
        }
    }
}
