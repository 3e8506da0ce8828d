public import Foundation

/// A key that signs the access tokens of token sessions (ES256: a P-256 key pair). One key is current at a time and
/// signs every new token; a retired key is still published (at `/.well-known/jwks.json`) until `publishedUntil`, when
/// the last token it signed has expired, and is then purged.
///
/// The private key is kept in the store as it is: whoever can read the database can sign tokens (see the threat
/// model). Key ids are the RFC 7638 thumbprint of the public key, so they never collide by chance.
public struct SessionSigningKey: Sendable, Hashable {
    /// The key id (`kid` in the token's header and in the published key set).
    public var id: String
    /// The P-256 private key, its 32 raw bytes.
    public var privateKey: [UInt8]
    /// The P-256 public key, uncompressed (65 bytes, `04 || x || y`).
    public var publicKey: [UInt8]
    public var createdAt: Date
    /// When it stopped being current; nil while it is.
    public var retiredAt: Date?
    /// Until when a retired key stays published: its retirement plus the longest lifetime of an access token. Nil
    /// while it is current.
    public var publishedUntil: Date?

    public init(
        id: String,
        privateKey: [UInt8],
        publicKey: [UInt8],
        createdAt: Date,
        retiredAt: Date? = nil,
        publishedUntil: Date? = nil
    ) {
        self.id = id
        self.privateKey = privateKey
        self.publicKey = publicKey
        self.createdAt = createdAt
        self.retiredAt = retiredAt
        self.publishedUntil = publishedUntil
    }

    /// Whether the key is current (signs new tokens).
    public var isCurrent: Bool { retiredAt == nil }

    /// Whether the key is published at `time`: while it is current, and after that until `publishedUntil`.
    public func isPublished(at time: Date) -> Bool {
        guard let publishedUntil else { return retiredAt == nil }
        return publishedUntil > time
    }
}
