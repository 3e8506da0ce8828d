public import Foundation

/// A user of the integrator's, known by the integrator's own id.
public struct UserRecord: Sendable, Hashable, Codable {
    /// The integrator's id for the user (URL-safe, 1–128 characters).
    public var id: String
    /// The WebAuthn user handle: 32 random bytes that contain no personal data.
    public var handle: [UInt8]
    public var name: String
    public var displayName: String
    public var createdAt: Date

    public init(id: String, handle: [UInt8], name: String, displayName: String, createdAt: Date) {
        self.id = id
        self.handle = handle
        self.name = name
        self.displayName = displayName
        self.createdAt = createdAt
    }
}
