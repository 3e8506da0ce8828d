public import Foundation
public import PasskeyStorage

/// `passkeys sessions rotate-key`: a new signing key for access tokens becomes current, and the one it replaces stays
/// published at `/.well-known/jwks.json` until the tokens it signed have expired.
public enum SessionKeyRotation {
    /// What a rotation did: the new key's id, and the retired key's with the time it stops being published.
    public struct Outcome: Sendable, Equatable {
        public let currentKeyID: String
        public let retiredKeyID: String?
        public let retiredKeyPublishedUntil: Date?
    }

    /// The longest access-token lifetime the configuration allows (`sessions.accessTokenSeconds`): a key retired
    /// without knowing the servers' setting stays published this long (and a margin), which covers any of them.
    public static let longestAccessTokenSeconds = 3600

    /// Makes a new key current in `store` at `time`, in one transaction; the old key stays published for
    /// `accessTokenSeconds` and a margin after `time`.
    public static func rotate(
        in store: any PasskeyStore,
        at time: Date,
        accessTokenSeconds: Int = longestAccessTokenSeconds
    ) async throws(StoreError) -> Outcome {
        let key = SessionSigningKey.generate(at: time)
        let until = SessionSigningKey.publishedUntil(retiredAt: time, accessTokenSeconds: accessTokenSeconds)
        let retired = try await store.rotateSigningKey(to: key, retiredKeyPublishedUntil: until)
        return Outcome(
            currentKeyID: key.id,
            retiredKeyID: retired?.id,
            retiredKeyPublishedUntil: retired == nil ? nil : until
        )
    }
}
