/// Which origins may run a ceremony (WebAuthn §13.4.9): the exact origins of the relying party's web pages,
/// its related origins, and its native apps (`android:apk-key-hash:…`), plus whether it may run in a
/// cross-origin iframe and under which top-level origins.
public struct OriginPolicy: Sendable, Hashable {
    /// Origins compared by exact string match with `clientData.origin`.
    public var allowedOrigins: Set<String>
    /// Whether a ceremony inside a cross-origin iframe (`crossOrigin: true`) is accepted.
    public var allowCrossOrigin: Bool
    /// When cross-origin ceremonies are allowed: the top-level origins they may be embedded in.
    public var allowedTopOrigins: Set<String>

    public init(allowedOrigins: Set<String>, allowCrossOrigin: Bool = false, allowedTopOrigins: Set<String> = []) {
        self.allowedOrigins = allowedOrigins
        self.allowCrossOrigin = allowCrossOrigin
        self.allowedTopOrigins = allowedTopOrigins
    }

    public init(_ origins: String...) {
        self.init(allowedOrigins: Set(origins))
    }
}
